"""What becomes of a file of this machine whose name holds a secret once the person acts on it, and
of the rounds around it: renamed or deleted after a commit not yet pushed held it, a round killed
while it rewrote those commits, another machine pushing meanwhile, a folder named with a secret, and a
name that only looks like one (docs/how/sync.md, "A name that holds a secret"). Real git, machine
homes, one bare remote on disk (``tests.test_sync.Machine``)."""

import json
from pathlib import Path

import pytest

from lazy_harness import sync
from lazy_harness.memory.journal import Journal
from lazy_harness.sync import sent_names
from tests.test_sync import KEY, Machine, _git

KEY_ID = "AKIAIOSFODNN7EXAMPLE"
MONTH = "knowledge/learnings/2026-01"
TEXT = "---\ntitle: Keys\nstatus: active\n---\nRotate them.\n"


@pytest.fixture
def two(tmp_path):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", "-b", "main", str(remote))
    return Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")


def _history(m: Machine) -> str:
    """Every name any commit of the remote ever held."""
    return _git("log", "--all", "--name-only", "--format=", cwd=Path(m.cfg["sync"]["remote"]))


def _committed_unpushed(a: Machine) -> Path:
    """An older version committed a learning named with a key; its round stopped before the push."""
    a.add("decision", "Use a file queue")
    a.sync()
    path = a.data / MONTH / f"2026-01-02-key-{KEY_ID}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(TEXT)
    a.add("decision", "Made meanwhile")
    _git("add", "-A", cwd=a.data)
    _git("-c", "user.name=x", "-c", "user.email=x@x", "commit", "-q", "-m", "older version", cwd=a.data)
    return path


def test_renamed_before_the_round_it_goes_out_once_and_its_old_name_never(two):
    a, b = two
    path = _committed_unpushed(a)
    path.rename(path.with_name("2026-01-02-keys.md"))
    got = a.sync()
    assert got["pushed"] and KEY_ID not in _history(a), _history(a)
    b.sync()
    assert (b.data / MONTH / "2026-01-02-keys.md").read_text() == TEXT
    assert [p.name for p in (b.data / MONTH).iterdir()] == ["2026-01-02-keys.md"]
    assert "Made meanwhile" in (b.mdir / "decisions.jsonl").read_text()


def test_deleted_before_the_round_its_name_never_goes_out(two):
    a, b = two
    path = _committed_unpushed(a)
    path.unlink()
    assert a.sync()["pushed"] and KEY_ID not in _history(a), _history(a)
    b.sync()
    assert "Made meanwhile" in (b.mdir / "decisions.jsonl").read_text()


def test_a_round_killed_while_it_took_the_name_out_leaves_the_next_round_sound(two, monkeypatch):
    a, b = two
    path = _committed_unpushed(a)

    def killed(*args, **kw):
        raise KeyboardInterrupt  # the round dies between the index and the rewrite
    monkeypatch.setattr(sent_names, "rewrite_unpushed", killed)
    with pytest.raises(KeyboardInterrupt):
        a.sync()
    monkeypatch.undo()
    got = a.sync()
    assert got["pushed"] and KEY_ID not in _history(a), _history(a)
    assert path.read_text() == TEXT and "secret" in (got["not_synced"] or "")
    b.sync()
    assert "Made meanwhile" in (b.mdir / "decisions.jsonl").read_text()


def test_another_machine_pushed_meanwhile_nothing_lost_on_either_side_no_duplicate(two):
    a, b = two
    b.sync()
    path = _committed_unpushed(a)
    b.add("decision", "Made on b")
    b.sync()
    got = a.sync()
    assert got["pushed"] and got["rewritten"] and KEY_ID not in _history(a)
    b.sync()
    for m in (a, b):
        lines = [json.loads(x)["summary"] for x in (m.mdir / "decisions.jsonl").read_text().splitlines()]
        assert sorted(lines) == ["Made meanwhile", "Made on b", "Use a file queue"], (m.home, lines)
    assert path.read_text() == TEXT


def test_a_folder_named_with_a_secret_stays_here_and_is_named_once(two):
    a, b = two
    folder = a.data / "projects" / f"-home-me-{KEY_ID}"
    folder.mkdir(parents=True)
    for kind in ("decisions", "failures", "learnings"):
        (folder / f"{kind}.jsonl").write_text(json.dumps({"id": "d-1", "summary": kind}) + "\n")
    a.add("decision", "Use a file queue")
    got = a.sync()
    assert got["pushed"] and KEY_ID not in _history(a)
    said = got["not_synced"] or ""
    assert KEY_ID not in said and "[REDACTED" in said and "\n" not in said, said
    b.sync()
    assert "Use a file queue" in (b.data / "projects" / KEY / "decisions.jsonl").read_text()


def test_a_name_that_only_looks_like_a_secret_syncs(two):
    a, b = two
    names = ["2026-01-02-token-bucket-rate-limiter.md", "2026-01-03-password-reset-flow.md",
             "2026-01-04-api-key-rotation.md", "2026-01-05-secret-key-base.md"]
    for name in names:
        (a.data / MONTH).mkdir(parents=True, exist_ok=True)
        (a.data / MONTH / name).write_text(TEXT)
    got = a.sync()
    assert got["pushed"] and not got["not_synced"], got
    b.sync()
    assert sorted(p.name for p in (b.data / MONTH).iterdir()) == names


def test_renamed_before_a_first_push_its_old_name_never_goes_out(two):
    a, _ = two
    path = a.data / MONTH / f"2026-01-02-key-{KEY_ID}.md"
    path.parent.mkdir(parents=True)
    path.write_text(TEXT)
    a.add("decision", "Use a file queue")
    _git("init", "-q", "-b", "main", cwd=a.data)
    _git("add", "-A", cwd=a.data)
    _git("-c", "user.name=x", "-c", "user.email=x@x", "commit", "-q", "-m", "older version", cwd=a.data)
    path.rename(path.with_name("2026-01-02-keys.md"))
    got = a.sync()
    assert got["pushed"] and got["rewritten"] and KEY_ID not in _history(a), _history(a)


def test_a_file_outside_memory_named_with_a_secret_is_named_redacted(two):
    """A person's notes in the data folder are left out as not memory; the line naming them is shown by
    ``lh sync``, kept by ``lh sync --status`` and written to worker.log."""
    a, _ = two
    (a.data).mkdir(parents=True, exist_ok=True)
    (a.data / f"notes-{KEY_ID}.txt").write_text("mine\n")
    a.cfg["compound_loop"]["redact_patterns"] = [r"acme-[0-9]{6}"]
    (a.data / "acme-123456.txt").write_text("mine\n")
    a.add("decision", "Use a file queue")
    said = a.sync()["not_synced"] or ""
    assert "notes-[REDACTED:aws-access-key].txt" in said and "[REDACTED:custom].txt" in said, said
    assert KEY_ID not in said and "acme-123456" not in said and "\n" not in said, said
    status = sync.status(a.cfg, a.env)["not_synced"] or ""
    assert KEY_ID not in status and "acme-123456" not in status, status


def test_a_run_that_changed_such_a_file_keeps_its_undo_here_and_the_round_goes_on(two):
    """A consolidation marks the learning stale: its journal (the run's undo, synced) names the file,
    key included. The round refused every commit for that line, and told the person to edit a secret
    out of the file's text, where there is none."""
    a, b = two
    a.add("decision", "Use a file queue")
    path = a.data / MONTH / f"2026-01-02-key-{KEY_ID}.md"
    path.parent.mkdir(parents=True)
    path.write_text(TEXT)
    a.sync()
    run = Journal(str(a.mdir), "consolidate", "demo")
    run.track(str(path))
    path.write_text(TEXT.replace("active", "stale"))
    run.record(str(path))
    run.save()
    a.add("decision", "Made after the run")
    got = a.sync()
    assert got["pushed"] and KEY_ID not in _history(a) and KEY_ID not in (got["not_synced"] or "")
    assert f"journal/{run.run}.json" in (got["not_synced"] or ""), got
    assert Path(run.path).exists()
    b.sync()
    assert "Made after the run" in (b.mdir / "decisions.jsonl").read_text()
    assert not (b.mdir / "journal").exists()


def test_another_machine_pushing_between_the_rewrite_and_the_push_loses_nothing(two, monkeypatch):
    a, b = two
    b.sync()
    path = _committed_unpushed(a)
    rewrite = sent_names.rewrite_unpushed

    def then_b_pushes(*args, **kw):
        rewrite(*args, **kw)
        monkeypatch.setattr(sent_names, "rewrite_unpushed", rewrite)
        b.add("decision", "Made on b meanwhile")
        assert b.sync()["pushed"]
    monkeypatch.setattr(sent_names, "rewrite_unpushed", then_b_pushes)
    got = a.sync()
    assert got["pushed"] and KEY_ID not in _history(a), _history(a)
    b.sync()
    for m in (a, b):
        lines = [json.loads(x)["summary"] for x in (m.mdir / "decisions.jsonl").read_text().splitlines()]
        assert sorted(lines) == ["Made meanwhile", "Made on b meanwhile", "Use a file queue"], (m.home, lines)
    assert path.read_text() == TEXT


def _run_on(a: Machine, path: Path) -> Journal:
    """A consolidation marks the learning at ``path`` stale: its journal names the file, key included."""
    run = Journal(str(a.mdir), "consolidate", "demo")
    run.track(str(path))
    path.write_text(TEXT.replace("active", "stale"))
    run.record(str(path))
    run.save()
    return run


def test_a_run_an_older_version_committed_keeps_its_undo_here_and_the_round_goes_on(two):
    """The file and the journal of a run that changed it, both committed by an older version, not yet
    pushed: the line scan refused the journal's line every round after, whatever the person did."""
    a, b = two
    path = _committed_unpushed(a)
    run = _run_on(a, path)
    a.add("decision", "Made after the run")
    _git("add", "-A", cwd=a.data)
    _git("-c", "user.name=x", "-c", "user.email=x@x", "commit", "-q", "-m", "older version", cwd=a.data)
    got = a.sync()
    said = got["not_synced"] or ""
    assert got["pushed"] and KEY_ID not in _history(a) and KEY_ID not in said, (_history(a), said)
    assert f"journal/{run.run}.json" in said and "secret" in said, said
    assert Path(run.path).exists() and path.exists()
    b.sync()
    assert "Made after the run" in (b.mdir / "decisions.jsonl").read_text()
    assert not (b.mdir / "journal").exists()
    a.add("decision", "Made later")
    assert a.sync()["pushed"]  # the rounds after go on too


def test_a_kept_undo_record_is_named_only_while_the_file_it_names_is_kept_here(two):
    """The person renamed the file the round named: it goes out. The run's journal still names the old
    name, key included, and stays here for the run's undo; naming it every round after told the person of
    nothing they could do."""
    a, b = two
    a.add("decision", "Use a file queue")
    path = a.data / MONTH / f"2026-01-02-key-{KEY_ID}.md"
    path.parent.mkdir(parents=True)
    path.write_text(TEXT)
    a.sync()
    run = _run_on(a, path)
    assert f"journal/{run.run}.json" in (a.sync()["not_synced"] or "")
    path.rename(path.with_name("2026-01-02-keys.md"))
    got = a.sync()
    assert got["pushed"] and not got["not_synced"], got
    assert not sync.status(a.cfg, a.env)["not_synced"]
    a.add("decision", "Made later")
    assert not a.sync()["not_synced"]
    assert Path(run.path).exists() and KEY_ID not in _history(a)
    b.sync()
    assert (b.data / MONTH / "2026-01-02-keys.md").exists() and not (b.mdir / "journal").exists()


def test_a_round_killed_while_it_took_an_old_journal_out_leaves_the_next_round_sound(two, monkeypatch):
    a, b = two
    path = _committed_unpushed(a)
    run = _run_on(a, path)
    _git("add", "-A", cwd=a.data)
    _git("-c", "user.name=x", "-c", "user.email=x@x", "commit", "-q", "-m", "older version", cwd=a.data)

    def killed(*args, **kw):
        raise KeyboardInterrupt  # the round dies between the index and the rewrite
    monkeypatch.setattr(sent_names, "rewrite_unpushed", killed)
    with pytest.raises(KeyboardInterrupt):
        a.sync()
    monkeypatch.undo()
    got = a.sync()
    assert got["pushed"] and KEY_ID not in _history(a), _history(a)
    assert f"journal/{run.run}.json" in (got["not_synced"] or "") and Path(run.path).exists()
    b.sync()
    assert "Made meanwhile" in (b.mdir / "decisions.jsonl").read_text() and not (b.mdir / "journal").exists()
