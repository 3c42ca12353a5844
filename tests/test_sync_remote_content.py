"""What the remote can hold that must neither stop sync here nor bend it: a line nested past the
stack, nested git control files, a folder at a machine-local path, a file outside memory's layout.
Real git: machine homes of lazy-harness (``tests.test_sync.Machine``) and a plain clone of the remote,
the careless or hostile other machine (``Other``)."""

import json
import time
from pathlib import Path

import pytest

from lazy_harness import sync
from lazy_harness.sync import drivers, rounds
from tests.test_sync import KEY, Machine, _git

DEEP = '{"summary": 5, "x": ' + "[" * 100_000 + "]" * 100_000 + "}"


class Other:
    """A plain git clone of the remote: whatever anyone who can push writes into it."""

    def __init__(self, tmp_path: Path, remote: Path) -> None:
        self.dir = tmp_path / "other"
        _git("clone", "-q", "-b", "main", str(remote), str(self.dir))
        _git("-C", str(self.dir), "config", "user.name", "other")
        _git("-C", str(self.dir), "config", "user.email", "other@example.com")

    def push(self, files: dict[str, str], append: bool = False) -> None:
        _git("-C", str(self.dir), "pull", "-q", "--no-rebase", "origin", "main")
        for rel, text in files.items():
            path = self.dir / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "a" if append else "w", encoding="utf-8") as fh:
                fh.write(text)
            _git("-C", str(self.dir), "add", "-f", rel)  # -f: past any .gitignore, as a hand can
        _git("-C", str(self.dir), "commit", "-q", "-m", "other")
        _git("-C", str(self.dir), "push", "-q", "origin", "HEAD:main")


@pytest.fixture
def world(tmp_path):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    a = Machine(tmp_path, remote, "a")
    a.add("decision", "Use SQLite for the index")
    a.sync()
    return a, Other(tmp_path, remote), remote


def _one_line(text: str | None) -> None:
    assert text and "\n" not in text and "Traceback" not in text, text


# --- a line nested past the stack ---------------------------------------------------------------

def test_a_line_nested_past_the_stack_merges_with_the_lines_of_both(world, tmp_path):
    a, other, remote = world
    other.push({f"projects/{KEY}/decisions.jsonl": DEEP + "\n"}, append=True)
    mine = a.add("decision", "Ship the CLI as a wheel")  # a change here too: git runs the driver
    a.sync()
    assert sync.status(a.cfg, a.env)["last_error"] is None
    text = (a.mdir / "decisions.jsonl").read_text()
    assert DEEP in text and mine in text and "Use SQLite for the index" in text
    a.no_conflict_markers()
    b = Machine(tmp_path, remote, "b")
    b.add("decision", "A decision of b")
    b.sync()
    a.sync()
    for m in (a, b):
        text = (m.mdir / "decisions.jsonl").read_text()
        assert DEEP in text and mine in text and "A decision of b" in text, m.home.name


def test_the_merge_driver_keeps_both_sides_when_its_merge_fails(tmp_path, monkeypatch):
    def broken(*_args, **_kw):
        raise RecursionError("a merge that cannot be done")

    monkeypatch.setattr(drivers, "merge_lines", broken)
    files = {}
    for name, text in (("O", b"x\n"), ("A", b"x\nours\n"), ("B", b"x\ntheirs\nours\n")):
        files[name] = tmp_path / name
        files[name].write_bytes(text)
    code = drivers._driver(["merge-lines", *(str(files[n]) for n in "OAB"), "projects/k/decisions.jsonl"])
    assert code == 0
    assert files["A"].read_bytes() == b"x\nours\ntheirs\n"


def test_a_round_that_fails_says_so_in_one_line(world, tmp_path):
    a, _, _ = world
    a.cfg["sync"]["remote"] = str(tmp_path / "no-such-remote.git")  # git's error is many lines
    with pytest.raises(sync.SyncError) as exc:
        a.sync()
    _one_line(exc.value.message)
    _one_line(sync.status(a.cfg, a.env)["last_error"])


# --- paths the remote holds ----------------------------------------------------------------------

@pytest.mark.parametrize("rel, text", [
    ("projects/.gitignore", "*\n!.gitignore\n"),
    ("knowledge/.gitignore", "*\n"),
    (f"projects/{KEY}/.gitignore", "*.jsonl\n"),
    ("projects/.gitattributes", "*.jsonl merge=text\n"),
    ("knowledge/learnings/.gitattributes", "*.md merge=text\n"),
    (".gitmodules", '[submodule "x"]\n\tpath = x\n\turl = /tmp/x\n'),
    (f"projects/{KEY}/handoff.md/x", "x\n"),  # a folder where handoff.md is rendered
    (f"projects/{KEY}/handoff.md", "# rendered elsewhere\n"),
    (f"projects/{KEY}/.handoff-open.json", "{}\n"),
    (f"projects/{KEY}/consolidate.lock", ""),
    ("settings-backups/x.json", "{}\n"),
    ("notes.txt", "not memory\n"),
    (f"projects/{KEY}/sub/decisions.jsonl", "{}\n"),
    ("knowledge/learnings/2026-01/x.txt", "x\n"),
    ("knowledge/learnings/2026-01/x.md/y.md", "x\n"),
    ("knowledge/readme.md", "x\n"),
])
def test_a_remote_path_outside_memorys_layout_is_refused_and_nothing_merged(world, rel, text):
    a, other, _ = world
    other.push({rel: text, f"projects/{KEY}/failures.jsonl": '{"summary": "from the other machine"}\n'})
    a.add("decision", "A decision written here meanwhile")
    with pytest.raises(sync.SyncError) as exc:
        a.sync()
    _one_line(exc.value.message)
    assert rel in exc.value.message and "refused" in exc.value.message
    assert rel in sync.status(a.cfg, a.env)["last_error"]
    assert not (a.mdir / "failures.jsonl").exists()  # nothing of that commit merged
    assert not (a.data / rel).exists() or (a.data / rel).is_file() and rel.endswith("handoff.md")


def test_what_memory_is_made_of_passes(world, tmp_path):
    a, other, remote = world
    other.push({
        f"projects/{KEY}/handoff.jsonl": "", f"projects/{KEY}/marks.jsonl": "", f"projects/{KEY}/usage.jsonl": "",
        f"projects/{KEY}/aliases.jsonl": "", f"projects/{KEY}/journal/20260101-000000000000-abcd.json": "{}\n",
        "projects/git-github.com-me-web-d864851b/decisions.jsonl": "", "ledger.jsonl": "", ".sync-push": "",
        ".sync-pull": "",
        "knowledge/learnings/2026-01/2026-01-02-retry.md": "---\ntitle: Retry\n---\nbody\n"})
    a.sync()
    assert (a.data / "knowledge/learnings/2026-01/2026-01-02-retry.md").is_file()
    assert sync.status(a.cfg, a.env)["last_error"] is None


def test_a_folder_at_handoff_md_leaves_the_rendered_file_and_the_worker_alone(world):
    from lazy_harness.memory import handoff_answer

    a, other, _ = world
    now = time.time()
    handoff_answer.apply_answer(str(a.mdir), ["Rotate the staging keys"], [], {"session_id": "s", "task_id": "t"}, now,
                                now)
    a.sync()
    item = {"op": "open", "id": "h-abcdef01", "text": "their item", "session_id": "s2", "task_id": "t",
            "ts": "2026-11-28T10:00:00.000+00:00"}
    other.push({f"projects/{KEY}/handoff.md/x": "x", f"projects/{KEY}/handoff.jsonl": json.dumps(item) + "\n"})
    with pytest.raises(sync.SyncError, match="handoff.md"):
        a.sync()
    assert (a.mdir / "handoff.md").is_file()
    handoff_answer.apply_answer(str(a.mdir), ["Write the runbook"], [], {"session_id": "s3", "task_id": "t"}, now, now)
    assert "Write the runbook" in (a.mdir / "handoff.md").read_text()


def test_any_failure_of_a_round_is_its_last_error_in_one_line(world, monkeypatch):
    a, other, _ = world
    other.push({f"projects/{KEY}/handoff.jsonl": ""})

    def fails(*_args, **_kw):
        raise IsADirectoryError(21, "Is a directory", str(a.mdir / "handoff.md"))

    monkeypatch.setattr(rounds, "rerender_handoffs", fails)
    with pytest.raises(OSError):
        a.sync()
    last = sync.status(a.cfg, a.env)["last_error"]
    _one_line(last)
    assert "Is a directory" in last and "handoff.md" in last


@pytest.mark.parametrize("rel, ok", [
    ("mem/-work-demo/decisions.jsonl", True), ("mem/-work-demo/journal/x.json", True),
    ("kn/learnings/2026-01/2026-01-02-retry.md", True), ("ledger.jsonl", True), (".sync-push", True),
    ("projects/-work-demo/decisions.jsonl", False), ("knowledge/learnings/2026-01/2026-01-02-retry.md", False),
    ("mem/-work-demo/handoff.md", False), ("mem/.git/x.jsonl", False), ("mem/-work-demo/.x.jsonl", False),
    ("kn/learnings/2026-1/x.md", False), ("kn/learnings/2026-01/.md", False), ("mem/x.jsonl", False),
    ("mem/-work-demo/x.jsonl.lock", False), (".gitmodules", False), ("mem/.gitattributes", False),
])
def test_the_layout_follows_where_this_machine_keeps_memory(rel, ok):
    from lazy_harness.sync.layout import outside_layout

    assert (outside_layout(rel, "mem", "kn/learnings") is None) is ok
