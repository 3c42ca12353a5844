"""``[memory] path`` and ``[knowledge] path`` set alike on every machine to folders inside the data
folder (docs/how/sync.md allows it): what each project's memory folder keeps to this machine (the
rendered ``handoff.md``, the ``.handoff-open.json`` cache) stays out of git as it does in the default
layout, and no round names it as "not synced". Real git, two machine homes, one bare remote
(``tests.test_sync.Machine``)."""

import time

import pytest

from lazy_harness.memory import handoff, handoff_answer
from lazy_harness.sync import layout, repo_setup
from tests.test_sync import KEY, Machine, _git

LAYOUTS = [("mem", "kb"), ("deep/mem[1]", "kb"), ("#m", "kb")]


def _machine(tmp_path, remote, name: str, projects: str, knowledge: str) -> Machine:
    m = Machine(tmp_path, remote, name)
    m.cfg["memory"]["path"] = str(m.data / projects)
    m.cfg["knowledge"]["path"] = str(m.data / knowledge)
    m.mdir = m.data / projects / KEY
    return m


def _open_item(m: Machine, text: str) -> None:
    """A handoff item through the store (handoff.jsonl, handoff.md rendered, the open-items cache)."""
    m.mdir.mkdir(parents=True, exist_ok=True)
    now = time.time()
    handoff_answer.apply_answer(str(m.mdir), [text], None, {"project": "demo", "session_id": "s1", "task_id": "t"}, now,
                         now)


@pytest.mark.parametrize("projects, knowledge", LAYOUTS)
def test_machine_local_files_of_a_memory_folder_inside_the_data_folder_stay_out_quietly(tmp_path, projects,
                                                                                         knowledge):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    a = _machine(tmp_path, remote, "a", projects, knowledge)
    b = _machine(tmp_path, remote, "b", projects, knowledge)
    one = a.add("decision", "Use SQLite for the index")
    _open_item(a, "finish the parser")
    (a.mdir / handoff.OPEN_CACHE).write_text("{}\n")  # whatever the cache holds, it is this machine's
    assert (a.mdir / "handoff.md").exists()
    got = a.sync()
    assert got["pushed"] and got["not_synced"] is None
    tracked = _git("-C", str(a.data), "ls-files").split("\n")
    assert f"{projects}/{KEY}/handoff.jsonl" in tracked and f"{projects}/{KEY}/decisions.jsonl" in tracked
    assert not any(p.endswith(("handoff.md", handoff.OPEN_CACHE)) for p in tracked)
    for _ in range(2):  # b renders handoff.md from the merged handoff.jsonl: its rounds stay quiet too
        got = b.sync()
        assert got["not_synced"] is None
        assert one in b.ids("decision") and "finish the parser" in (b.mdir / "handoff.md").read_text()
    assert a.sync()["not_synced"] is None
    assert _git("-C", str(a.data), "status", "--porcelain").strip() == ""


@pytest.mark.parametrize("projects, knowledge", LAYOUTS)
def test_the_remote_holding_a_memory_folders_machine_local_file_is_named_as_such(projects, knowledge):
    for name in ("handoff.md", handoff.OPEN_CACHE):
        why = layout.outside_layout(f"{projects}/{KEY}/{name}", projects, f"{knowledge}/learnings")
        assert why is not None and "keeps to itself" in why, why
    assert layout.outside_layout(f"{projects}/{KEY}/handoff.jsonl", projects, f"{knowledge}/learnings") is None


def test_the_default_layouts_ignore_rules_are_unchanged():
    assert repo_setup.ignore_rules("projects") == repo_setup.IGNORE
