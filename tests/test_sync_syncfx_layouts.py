"""Remotes other versions and other settings wrote. The top-level ``.gitignore`` and ``.gitattributes``
are this machine's (each round writes them): a remote an older version wrote, or a machine whose
version wrote other texts, never stops a round on them. Memory kept under another ``[memory] path`` or
``[knowledge] path`` is refused as a setting that differs, never called a stranger to delete. Real
git: machine homes of lazy-harness (``tests.test_sync.Machine``), plain clones, one bare remote."""

import json
import subprocess
from contextlib import contextmanager
from pathlib import Path

import pytest

from lazy_harness import sync
from lazy_harness.memory import learnings
from lazy_harness.sync import layout, repo_setup
from tests.test_sync import KEY, Machine, _git

# the top-level files earlier versions wrote (git history of src/lazy_harness/sync)
OLD_IGNORE = ("# machine-local state of lazy-harness: never synced\n.sync.lock\n.sync-state.json\n*.lock\n*.tmp\n"
              "consolidate.scan\nprojects/*/handoff.md\n")  # 9934f86
OLDER = {
    "9934f86": (OLD_IGNORE, "*.jsonl merge=lh-lines\n*.md merge=lh-learning\n"),
    "e268234": (OLD_IGNORE + "projects/*/.handoff-open.json\n", "*.jsonl merge=lh-lines\n*.md merge=lh-learning\n"),
    "cec541a": (OLD_IGNORE + "projects/*/.handoff-open.json\nsettings-backups/\n",
                "*.jsonl merge=lh-lines\n*.md merge=lh-learning\n"),
}


def _remote_file(remote: Path, rel: str) -> str:
    return _git("--git-dir", str(remote), "show", f"main:{rel}")


def _remote_paths(remote: Path) -> list[str]:
    return _git("--git-dir", str(remote), "ls-tree", "-r", "--name-only", "main").split()


def _seed_old_remote(tmp_path: Path, remote: Path, ignore: str, attributes: str) -> str:
    """The remote as a machine of an older version left it: its top-level files and one decision."""
    old = Machine(tmp_path, remote, "old")
    one = old.add("decision", "Decided on the old machine")
    (old.data / ".gitignore").write_text(ignore)
    (old.data / ".gitattributes").write_text(attributes)
    for args in (("init", "-q"), ("symbolic-ref", "HEAD", "refs/heads/main"), ("config", "user.name", "old"),
                 ("config", "user.email", "old@example.com"), ("add", "-A"), ("commit", "-q", "-m", "old"),
                 ("push", "-q", str(remote), "main")):
        _git("-C", str(old.data), *args)
    return one


def _clean(m: Machine) -> None:
    got = sync.status(m.cfg, m.env)
    assert got["last_error"] is None and (got["ahead"], got["behind"]) == (0, 0), (m.home.name, got)


@pytest.mark.parametrize("version", sorted(OLDER))
@pytest.mark.parametrize("own", [True, False])
def test_a_new_machine_joins_a_remote_an_older_version_wrote(tmp_path, version, own):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    theirs = _seed_old_remote(tmp_path, remote, *OLDER[version])
    new = Machine(tmp_path, remote, "new")
    mine = new.add("decision", "Decided on the new machine") if own else None
    got = new.sync()
    assert got["pushed"] and got["merged"] >= 1
    assert theirs in new.ids("decision") and (mine is None or mine in new.ids("decision"))
    assert (new.data / ".gitattributes").read_text() == repo_setup.ATTRIBUTES
    assert (new.data / ".gitignore").read_text() == repo_setup.IGNORE
    assert _remote_file(remote, ".gitattributes") == repo_setup.ATTRIBUTES
    assert _remote_file(remote, ".gitignore") == repo_setup.IGNORE
    new.no_conflict_markers()
    new.sync()
    _clean(new)


@contextmanager
def _version(ignore: str, attributes: str):
    """This process runs as a version whose top-level files are these (ensure_repo writes them)."""
    saved = repo_setup.IGNORE, repo_setup.ATTRIBUTES
    repo_setup.IGNORE, repo_setup.ATTRIBUTES = ignore, attributes
    try:
        yield
    finally:
        repo_setup.IGNORE, repo_setup.ATTRIBUTES = saved


def test_two_machines_whose_top_level_files_differ_both_sync(tmp_path):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    a, b = Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")
    first = OLDER["9934f86"]
    # each started on its own: two histories, each with its version's files
    seen = {a.add("decision", "first on a"), b.add("decision", "first on b")}
    with _version(*OLDER["e268234"]):
        a.sync()
    b.sync()
    with _version(*OLDER["e268234"]):
        a.sync()
    # then they upgraded along different paths from one common version: both changed both files
    with _version(*first):
        a.sync()
        b.sync()
        a.sync()
    a_files = (first[0] + "a-only.tmp\n", first[1] + "*.txt merge=lh-lines\n")
    for _ in range(2):
        seen |= {a.add("decision", f"on a {len(seen)}"), b.add("decision", f"on b {len(seen)}")}
        with _version(*a_files):
            a.sync()
        b.sync()
        with _version(*a_files):
            a.sync()
            assert (a.data / ".gitignore").read_text() == a_files[0]
            assert (a.data / ".gitattributes").read_text() == a_files[1]
            _clean(a)
        b.sync()
        _clean(b)
        assert (b.data / ".gitignore").read_text() == repo_setup.IGNORE
        assert (b.data / ".gitattributes").read_text() == repo_setup.ATTRIBUTES
        for m in (a, b):
            assert sorted(m.ids("decision")) == sorted(seen), m.home.name
            m.no_conflict_markers()


def test_a_remote_gitattributes_never_reencodes_or_filters_memory_here(tmp_path):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    a = Machine(tmp_path, remote, "a")
    a.add("decision", "Use SQLite for the index")
    a.sync()
    other = tmp_path / "other"
    _git("clone", "-q", "-b", "main", str(remote), str(other))
    for args in (("config", "user.name", "o"), ("config", "user.email", "o@example.com"),
                 ("config", "filter.lhx.clean", "tr a-z A-Z"), ("config", "filter.lhx.smudge", "tr a-z A-Z")):
        _git("-C", str(other), *args)
    (other / ".gitattributes").write_text(
        "*.jsonl merge=lh-lines working-tree-encoding=UTF-16LE filter=lhx\n*.md merge=lh-learning\n")
    line = json.dumps({"type": "failure", "summary": "from another machine", "ts": "2026-11-30T10:00:00+00:00"})
    blob = subprocess.run(["git", "-C", str(other), "hash-object", "-w", "--no-filters", "--stdin"],
                          input=line + "\n", text=True, capture_output=True, check=True).stdout.strip()
    _git("-C", str(other), "update-index", "--add", "--cacheinfo", f"100644,{blob},projects/{KEY}/failures.jsonl")
    _git("-C", str(other), "add", ".gitattributes")
    _git("-C", str(other), "commit", "-q", "-m", "attributes")
    _git("-C", str(other), "push", "-q", "origin", "HEAD:main")
    a.sync()  # a fast-forward: nothing of a's own to merge
    assert (a.mdir / "failures.jsonl").read_bytes() == (line + "\n").encode()
    assert (a.data / ".gitattributes").read_text() == repo_setup.ATTRIBUTES
    mine = a.add("decision", "Ship the CLI as a wheel")  # committed and pushed by the next round
    a.sync()
    assert _remote_file(remote, ".gitattributes") == repo_setup.ATTRIBUTES
    pushed = _remote_file(remote, f"projects/{KEY}/decisions.jsonl")
    assert mine in pushed and "Use SQLite for the index" in pushed
    assert pushed.encode() == (a.mdir / "decisions.jsonl").read_bytes()
    _clean(a)


# --- memory kept under another [memory] path / [knowledge] path -------------------------------------

def _elsewhere(m: Machine, memory: str | None = None, knowledge: str | None = None) -> None:
    if memory:
        m.cfg["memory"]["path"] = str(m.data / memory)
        m.mdir = m.data / memory / KEY
    if knowledge:
        m.cfg["knowledge"]["path"] = str(m.data / knowledge)


def _refused(m: Machine, setting: str, here: str, there: str) -> str:
    with pytest.raises(sync.SyncError) as exc:
        m.sync()
    said = str(exc.value)
    assert "\n" not in said and "delete" not in said.lower(), said
    assert setting in said and "same on every machine" in said, said
    assert f"'{there}'" in said and here in said, said
    assert sync.status(m.cfg, m.env)["last_error"].endswith(exc.value.message)
    return said


@pytest.mark.parametrize("first", ["default", "moved"])
def test_memory_under_another_memory_path_is_refused_as_a_setting_not_a_stranger(tmp_path, first):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    a, b = Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")
    _elsewhere(b, memory="mem")
    on_a, on_b = a.add("decision", "Decided on a"), b.add("decision", "Decided on b")
    pusher, refused = (a, b) if first == "default" else (b, a)
    pusher.sync()
    before = _remote_paths(remote)
    here, there = ("mem", "projects") if refused is b else ("projects", "mem")
    _refused(refused, "[memory] path", str(refused.data / here), there)
    _refused(refused, "[memory] path", str(refused.data / here), there)
    pusher.sync()
    assert _remote_paths(remote) == before
    assert a.ids("decision") == [on_a] and b.ids("decision") == [on_b]
    # the same setting on both (b's memory moved where a keeps it): both sync, nothing lost
    (b.data / "projects").mkdir(exist_ok=True)
    (b.data / "mem" / KEY).rename(b.data / "projects" / KEY)
    b.cfg["memory"]["path"], b.mdir = "", b.data / "projects" / KEY
    for m in (b, a, b):
        m.sync()
    for m in (a, b):
        assert sorted(m.ids("decision")) == sorted([on_a, on_b]), m.home.name
        _clean(m)


def test_learnings_under_another_knowledge_path_are_refused_as_a_setting(tmp_path):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    a, b = Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")
    _elsewhere(b, knowledge="kn")
    prov = {"project": "demo", "session_id": "s1", "task_id": "t1", "project_folder": KEY}
    entry = {"title": "Retry the model call", "learning": "text", "context": "c", "scope": "project"}
    made, _ = learnings.write_learning(str(a.data / "knowledge" / "learnings"), entry, prov, 1_790_000_000.0)
    theirs, _ = learnings.write_learning(str(b.data / "kn" / "learnings"), entry, prov, 1_790_000_000.0)
    a.sync()
    _refused(b, "[knowledge] path", str(b.data / "kn"), "knowledge")
    assert Path(made).is_file() and Path(theirs).is_file()
    assert not any(p.startswith("kn/") for p in _remote_paths(remote))


@pytest.mark.parametrize("rel", [f"projects/{KEY}/sub/decisions.jsonl", "notes/x.jsonl", "notes.txt",
                                 "knowledge/2026-01/x.md"])
def test_a_path_that_is_not_memory_under_any_layout_is_still_a_stranger(rel):
    assert layout.other_layout(rel, "projects", "knowledge/learnings") is None


@pytest.mark.parametrize("rel, projects, learnings_at, found", [
    (f"mem/{KEY}/decisions.jsonl", "projects", "knowledge/learnings", ("[memory] path", "mem")),
    (f"projects/{KEY}/journal/x.json", "mem", "knowledge/learnings", ("[memory] path", "projects")),
    (f"{KEY}/failures.jsonl", "projects", "knowledge/learnings", ("[memory] path", "")),
    (f"projects/{KEY}/marks.jsonl", ".", "knowledge/learnings", ("[memory] path", "projects")),
    ("kn/learnings/2026-01/2026-01-02-retry.md", "projects", "knowledge/learnings", ("[knowledge] path", "kn")),
    ("learnings/2026-01/2026-01-02-retry.md", "projects", "knowledge/learnings", ("[knowledge] path", "")),
])
def test_memory_shaped_paths_name_the_setting_and_where_the_remote_keeps_it(rel, projects, learnings_at, found):
    assert layout.outside_layout(rel, projects, learnings_at) is not None
    assert layout.other_layout(rel, projects, learnings_at) == found
