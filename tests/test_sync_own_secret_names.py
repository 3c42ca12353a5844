"""A file of this machine whose name holds a secret (an AWS key in a learning's file name a person
made by hand, or one an older version named from a title before it was redacted): pushed, every
machine's listings print the name, and the remote's history keeps it. The round leaves it out, names
it with the secret replaced by its marker, and sends the rest; the file stays here as it is. A commit
not yet pushed that holds such a name is not sent (docs/how/sync.md, "A name that holds a secret").
Real git, machine homes, one bare remote on disk (``tests.test_sync.Machine``)."""

from pathlib import Path

import pytest

from lazy_harness import sync
from tests.test_sync import Machine, _git

KEY_ID = "AKIAIOSFODNN7EXAMPLE"
MONTH = "knowledge/learnings/2026-01"
TEXT = "---\ntitle: Keys\nstatus: active\n---\nRotate them.\n"


@pytest.fixture
def two(tmp_path):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", "-b", "main", str(remote))
    return Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")


def _held(remote: Path) -> str:
    return _git("log", "--all", "--name-only", "--format=", cwd=remote)


def _hand_made(m: Machine) -> Path:
    path = m.data / MONTH / f"2026-01-02-key-{KEY_ID}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(TEXT)
    return path


def test_a_name_holding_a_secret_stays_here_and_the_rest_goes_out(two):
    a, b = two
    path = _hand_made(a)
    a.add("decision", "Use a file queue")
    got = a.sync()
    remote = Path(a.cfg["sync"]["remote"])
    assert got["pushed"] and KEY_ID not in _held(remote)
    said = got["not_synced"] or ""
    assert "2026-01-02-key-[REDACTED:aws-access-key].md" in said and "secret" in said and KEY_ID not in said, said
    assert path.read_text() == TEXT  # nothing lost here
    status = sync.status(a.cfg, a.env)["not_synced"] or ""
    assert "[REDACTED:aws-access-key]" in status and KEY_ID not in status
    b.sync()
    assert "Use a file queue" in (b.mdir / "decisions.jsonl").read_text()
    assert not (b.data / MONTH).exists()
    a.add("decision", "Made later")  # the next rounds go on, the file still left out
    assert a.sync()["pushed"] and KEY_ID not in _held(remote)
    path.rename(path.with_name("2026-01-02-keys.md"))  # renamed: it goes out
    a.sync()
    b.sync()
    assert (b.data / MONTH / "2026-01-02-keys.md").read_text() == TEXT


def test_a_name_the_persons_own_patterns_match_stays_here(two):
    a, _ = two
    a.cfg["compound_loop"]["redact_patterns"] = [r"acme-[0-9]{6}"]
    path = a.data / MONTH / "2026-01-02-acme-123456.md"
    path.parent.mkdir(parents=True)
    path.write_text(TEXT)
    a.add("decision", "Use a file queue")
    got = a.sync()
    assert got["pushed"] and "acme-123456" not in _held(Path(a.cfg["sync"]["remote"]))
    assert "acme-123456" not in (got["not_synced"] or "") and "2026-01-02-" in (got["not_synced"] or "")


def test_a_commit_not_yet_pushed_that_holds_such_a_name_is_not_sent(two):
    """An older version committed the file, and its round stopped before the push (offline)."""
    a, b = two
    a.add("decision", "Use a file queue")
    a.sync()
    path = _hand_made(a)
    a.add("decision", "Made meanwhile")
    _git("add", "-A", cwd=a.data)
    _git("-c", "user.name=x", "-c", "user.email=x@x", "commit", "-q", "-m", "older version", cwd=a.data)
    got = a.sync()
    remote = Path(a.cfg["sync"]["remote"])
    assert got["pushed"] and got["rewritten"] and KEY_ID not in _held(remote)
    assert "[REDACTED:aws-access-key]" in (got["not_synced"] or "")
    assert path.read_text() == TEXT
    b.sync()
    assert "Made meanwhile" in (b.mdir / "decisions.jsonl").read_text()
    a.add("decision", "Made later")
    assert a.sync()["pushed"] and KEY_ID not in _held(remote)
    assert path.read_text() == TEXT
