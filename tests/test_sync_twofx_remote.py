"""The remote changed under the machines: ``[sync] remote`` set to a new empty repository, the remote
re-created empty, set to another repository that holds memory, its history rewritten by its owner, or
out of reach. Real git, two machine homes, one bare remote on disk (``tests.test_sync.Machine``)."""

import json
import shutil
from pathlib import Path

import pytest

from lazy_harness import sync
from tests.cli.lhrun import invoke
from tests.test_sync import KEY, Machine, _git

PURGED = "Keep the token in AWS_SECRET_X only"


@pytest.fixture
def two(tmp_path):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", "-b", "main", str(remote))
    return Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")


def _synced(a: Machine, b: Machine) -> None:
    a.add("decision", PURGED)
    a.add("decision", "Use tox")
    a.sync()
    b.sync()
    a.sync()


def _remote_file(remote: Path, rel: str) -> str:
    return _git("--git-dir", str(remote), "show", f"main:{rel}")


def _refs(remote: Path) -> str:
    return _git("--git-dir", str(remote), "for-each-ref")


def test_a_new_empty_remote_in_the_config_gets_the_memory(two, tmp_path):
    a, b = two
    _synced(a, b)
    new = tmp_path / "new.git"
    _git("init", "-q", "--bare", "-b", "main", str(new))
    a.cfg["sync"]["remote"] = str(new)
    assert a.sync()["pushed"]
    assert PURGED in _remote_file(new, f"projects/{KEY}/decisions.jsonl")
    st = sync.status(a.cfg, a.env)
    assert (st["ahead"], st["behind"]) == (0, 0)


def test_a_remote_re_created_empty_gets_the_memory_again_from_both_machines(two):
    a, b = two
    _synced(a, b)
    remote = Path(a.cfg["sync"]["remote"])
    shutil.rmtree(remote)
    _git("init", "-q", "--bare", "-b", "main", str(remote))
    assert a.sync()["pushed"]
    assert _refs(remote)
    mine = b.add("decision", "Made on b after the remote was re-created")
    assert b.sync()["pushed"]
    a.sync()
    assert mine in a.ids("decision")
    assert PURGED in _remote_file(remote, f"projects/{KEY}/decisions.jsonl")


def test_a_remote_changed_to_another_that_holds_memory_is_joined_as_a_first_round(two, tmp_path):
    a, b = two
    _synced(a, b)
    other = tmp_path / "other.git"
    _git("init", "-q", "--bare", "-b", "main", str(other))
    c = Machine(tmp_path, other, "c")
    theirs = c.add("decision", "Kept in the other remote")
    c.sync()
    a.cfg["sync"]["remote"] = str(other)
    assert a.sync()["pushed"]
    assert theirs in a.ids("decision")
    assert PURGED in _remote_file(other, f"projects/{KEY}/decisions.jsonl")


def _purge(tmp_path: Path, remote: Path) -> None:
    """The remote's owner: one orphan commit of the files without the purged line, force-pushed."""
    clone = tmp_path / "purge"
    _git("clone", "-q", "-b", "main", str(remote), str(clone))
    _git("checkout", "-q", "--orphan", "x", cwd=clone)
    path = clone / "projects" / KEY / "decisions.jsonl"
    path.write_text("".join(ln + "\n" for ln in path.read_text().splitlines() if PURGED not in ln))
    _git("-c", "user.name=x", "-c", "user.email=x@x", "commit", "-q", "-am", "purged", cwd=clone)
    _git("push", "-q", "-f", "origin", "x:main", cwd=clone)


def _summaries(m: Machine) -> list[str]:
    return [json.loads(ln)["summary"] for ln in (m.mdir / "decisions.jsonl").read_text().splitlines()]


def test_a_rewritten_remote_history_stops_the_round_and_is_not_pushed_back(two, tmp_path):
    a, b = two
    _synced(a, b)
    remote = Path(a.cfg["sync"]["remote"])
    _purge(tmp_path, remote)
    purged = _git("--git-dir", str(remote), "rev-parse", "main").strip()
    mine = b.add("decision", "Made on b, not pushed yet")
    for _ in range(2):  # the next round too: the rewrite is still there to see
        with pytest.raises(sync.SyncError) as exc:
            b.sync()
        assert "history of the remote was rewritten" in exc.value.message, exc.value.message
        assert "--accept-rewrite" in (exc.value.hint or "")
        assert _git("--git-dir", str(remote), "rev-parse", "main").strip() == purged
    assert "history of the remote was rewritten" in sync.status(b.cfg, b.env)["last_error"]
    assert PURGED in _summaries(b)  # nothing merged
    got = b.sync(accept_rewrite=True)
    assert got["pushed"]
    assert _git("--git-dir", str(remote), "merge-base", "--is-ancestor", purged, "main") == ""
    on_remote = _remote_file(remote, f"projects/{KEY}/decisions.jsonl")
    assert PURGED not in on_remote and "Made on b, not pushed yet" in on_remote
    assert PURGED not in _summaries(b) and mine in b.ids("decision")
    with pytest.raises(sync.SyncError):
        a.sync()
    a.sync(accept_rewrite=True)
    b.sync()
    for m in (a, b):
        assert PURGED not in _summaries(m) and "Use tox" in _summaries(m) and mine in m.ids("decision")
    assert PURGED not in _remote_file(remote, f"projects/{KEY}/decisions.jsonl")


def test_lh_sync_accept_rewrite_is_an_option(two, tmp_path, monkeypatch):
    a, b = two
    _synced(a, b)
    _purge(tmp_path, Path(a.cfg["sync"]["remote"]))
    for key in ("HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "CLAUDE_CONFIG_DIR"):
        monkeypatch.setenv(key, b.env[key])
    cfg = Path(b.env["XDG_CONFIG_HOME"]) / "lazy-harness" / "config.toml"
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text(f'[sync]\nremote = "{a.cfg["sync"]["remote"]}"\nauto = false\n')
    r = invoke("sync")
    assert r.code == 1 and "history of the remote was rewritten" in r.err, r
    r = invoke("sync", "--status")
    assert "what to do: if its owner rewrote it on purpose" in r.out and "--accept-rewrite" in r.out, r
    r = invoke("sync", "--accept-rewrite")
    assert r.code == 0 and "pushed" in r.out, r
    assert PURGED not in _summaries(b)


def test_an_unreachable_remote_says_what_to_do(two, monkeypatch, capsys):
    a, b = two
    _synced(a, b)
    remote = a.cfg["sync"]["remote"]
    shutil.move(remote, remote + ".off")
    with pytest.raises(sync.SyncError) as exc:
        a.sync()
    hint = exc.value.hint or ""
    assert remote in hint and "[sync] remote" in hint and "lh config path" in hint, hint
    assert "network" in hint and "next round" in hint, hint
    assert sync.status(a.cfg, a.env)["last_hint"] == hint
    from lazy_harness.cli import doctor_memory, doctor_report

    for k, v in a.env.items():
        monkeypatch.setenv(k, v)
    doctor_memory.check_sync(doctor_report.Report(), a.cfg)
    line = capsys.readouterr().out
    assert line.startswith("warn  sync:") and hint in line, line  # lh doctor says what to do, as lh sync did


def test_the_hint_names_a_remote_without_the_token_in_its_url():
    from lazy_harness.sync import merge

    assert merge.shown_url("https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/me/mem.git") == \
        "https://***@github.com/me/mem.git"
    assert merge.shown_url("https://me:s3cret@git.example/mem.git") == "https://***@git.example/mem.git"
    for plain in ("git@github.com:me/mem.git", "/srv/mem.git", "https://github.com/me/mem.git"):
        assert merge.shown_url(plain) == plain


def test_a_remote_put_back_to_an_older_commit_by_accident_gets_back_what_it_lost_by_the_hint(two, tmp_path):
    """Someone force-pushed an older clone over the remote: the commits a pushed since are gone from it.
    The hint's second way, pasted into a shell on the first machine to see it, sends them back; nothing
    lost or doubled on either machine."""
    import re
    import subprocess

    a, b = two
    _synced(a, b)
    remote = Path(a.cfg["sync"]["remote"])
    older = _git("--git-dir", str(remote), "rev-parse", "main").strip()
    lost = a.add("decision", "Pushed by a, then lost on the remote")
    a.sync()
    b.sync()
    _git("--git-dir", str(remote), "update-ref", "refs/heads/main", older)  # what a force-push of it does
    with pytest.raises(sync.SyncError) as exc:
        b.sync()  # the first machine to see it: its round stops
    command = re.search(r"(git -C .* refs/remotes/origin/main), then", exc.value.hint or "")
    assert command, exc.value.hint
    subprocess.run(["sh", "-c", command.group(1)], check=True, env=b.env)
    assert b.sync()["pushed"]  # what the remote lacks goes back
    a.sync()  # the remote holds again what a knew of it: a goes on as usual
    for m in (a, b):
        assert sorted(m.ids("decision")) == sorted(set(m.ids("decision"))) and lost in m.ids("decision")
    assert "Pushed by a, then lost" in _remote_file(remote, f"projects/{KEY}/decisions.jsonl")
