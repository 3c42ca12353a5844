"""A round that cannot reach the remote keeps the remote-tracking ref: ``lh sync --status`` and
``lh status`` still count ahead and behind against the last fetch. A round with nothing to send pushes
nothing and says so. Real git, one bare remote on disk (``tests.test_sync.Machine``)."""

import json
import os
import time
from pathlib import Path

import pytest

from lazy_harness import config, paths, sync
from lazy_harness.memory import entries, ids
from tests.cli.lhrun import invoke
from tests.test_sync import Machine, _git


@pytest.fixture
def two(tmp_path):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    return Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")


def _offline(remote: str) -> None:
    os.rename(remote, remote + ".off")  # as a remote that does not answer: git fetch exits 128


def _remote_main(remote: str) -> str:
    return _git("--git-dir", remote, "rev-parse", "main").strip()


def test_a_round_that_cannot_reach_the_remote_keeps_the_counts(two):
    a, b = two
    a.add("decision", "Keep the queue in files")
    a.sync()
    b.sync()
    a.sync()
    assert sync.status(a.cfg, a.env)["ahead"] == 0
    known = _git("-C", str(a.data), "rev-parse", "refs/remotes/origin/main").strip()
    _offline(a.cfg["sync"]["remote"])
    a.add("decision", "Offline decision")
    with pytest.raises(sync.SyncError) as exc:
        a.sync()
    assert _git("-C", str(a.data), "rev-parse", "refs/remotes/origin/main").strip() == known
    st = sync.status(a.cfg, a.env)
    assert (st["ahead"], st["behind"]) == (1, 0)
    assert exc.value.message.startswith("could not fetch from the remote: git fetch failed")
    assert "could not fetch from the remote" in st["last_error"]
    with pytest.raises(sync.SyncError):  # SessionStart's pull, offline again: still counted
        a.sync(push=False)
    assert (sync.status(a.cfg, a.env)["ahead"], sync.status(a.cfg, a.env)["behind"]) == (1, 0)


def test_a_broken_remote_tracking_ref_is_still_dropped_and_fetched_again(two):
    a, b = two
    a.add("decision", "Keep the queue in files")
    a.sync()
    b.sync()
    one = b.add("decision", "Ship the CLI as a wheel")
    b.sync()
    # a round killed inside a fetch: the ref names no object git has
    (a.data / ".git" / "refs" / "remotes" / "origin" / "main").write_text("0123456789" * 4 + "\n")
    got = a.sync()
    assert one in a.ids("decision") and not got["pushed"]
    assert sync.status(a.cfg, a.env)["ahead"] == 0


def test_a_round_with_nothing_new_pushes_nothing(two):
    a, b = two
    a.add("decision", "Keep the queue in files")
    assert a.sync()["pushed"]
    b.sync()  # its own first commit (.gitignore, .gitattributes) merged with a's: that one goes out
    assert a.sync()["pushed"] is False  # it only fetched b's merge
    remote = a.cfg["sync"]["remote"]
    before = _remote_main(remote)
    assert b.sync()["pushed"] is False and a.sync()["pushed"] is False
    assert _remote_main(remote) == before
    b.add("decision", "Ship the CLI as a wheel")
    assert b.sync()["pushed"] and _remote_main(remote) != before


def _write_decision(summary: str) -> None:
    mdir = Path(paths.data_dir()) / "projects" / "-work-demo"
    mdir.mkdir(parents=True, exist_ok=True)
    rec = entries.record("decision", {"summary": summary}, {"project": "demo", "session_id": "s1", "task_id": "t"},
                         time.time())
    with open(mdir / "decisions.jsonl", "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"id": ids.entry_id("decision", summary), **rec}) + "\n")


def test_lh_sync_says_what_it_pushed_and_status_counts_offline(tmp_path, isolated_home):
    from lazy_harness.cli.status import sync_state

    remote = str(tmp_path / "remote.git")
    _git("init", "-q", "--bare", remote)
    cfg_file = Path(paths.config_file())
    cfg_file.parent.mkdir(parents=True, exist_ok=True)
    cfg_file.write_text(f'[sync]\nremote = "{remote}"\nauto = false\n')
    _write_decision("Keep the queue in files")
    r = invoke("sync")
    assert r.code == 0 and "synced: committed local changes, 0 file(s) merged from the remote, pushed" in r.out, r
    r = invoke("sync")
    assert r.code == 0 and "synced: nothing new to commit, 0 file(s) merged from the remote, nothing pushed" in r.out, r
    _offline(remote)
    _write_decision("Offline decision")
    r = invoke("sync")
    assert r.code == 1 and "could not fetch from the remote" in r.err, r
    r = invoke("sync", "--status")
    assert "ahead:      1 commit(s) not pushed; behind: 0 (as of the last fetch)" in r.out, r
    line = sync_state(config.load(os.environ))
    assert ", 1 ahead, 0 behind; last error: " in line and "could not fetch from the remote" in line, line
    os.rename(remote + ".off", remote)
    r = invoke("sync")
    assert r.code == 0 and "synced: nothing new to commit, 0 file(s) merged from the remote, pushed" in r.out, r


def test_the_worker_logs_nothing_pushed_and_the_docs_quote_both_lines(two):
    from tests.test_docs_quote_the_code import doc, words

    a, _ = two
    a.add("decision", "Keep the queue in files")
    a.cfg["sync"]["interval_minutes"] = 0
    assert sync.auto_sync(a.cfg, a.env) == "sync: 0 file(s) merged, pushed"  # the entry and the .sync-push stamp
    said = sync.auto_sync(a.cfg, a.env)
    assert said == "sync: 0 file(s) merged, nothing pushed"
    text = words(doc("sync.md"))
    for quoted in (said, "synced: nothing new to commit, 0 file(s) merged from the remote, nothing pushed",
                   "could not fetch from the remote: git fetch failed: ...",
                   "ahead: 1 commit(s) not pushed; behind: 0 (as of the last fetch)"):
        assert f"`{quoted}`" in text, quoted
