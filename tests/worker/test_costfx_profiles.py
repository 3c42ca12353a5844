"""The spend lock and the open-call markers belong to the ledger, not to a Claude Code profile: two
profiles (``CLAUDE_CONFIG_DIR`` A and B) share one ledger and one config.toml, so a call under way in
one holds what is left for the other too (ADR 0013). Markers an older version left in a profile's
queue state folder are still counted and settled."""

import json
import os
import stat
import time

from lazy_harness import config, paths
from lazy_harness.atomic import write_locked
from lazy_harness.cost import budget, markers
from tests.cli.lhrun import invoke
from tests.worker.spendrig import configure, ledger_lines
from tests.worker.test_open_calls_spend import _calls, _gate, _set_cost, _started_call, fake, procs  # noqa: F401


def _profile(home, name: str) -> dict:
    return {**os.environ, "CLAUDE_CONFIG_DIR": str(home / name)}


def test_a_call_open_in_one_profile_holds_what_is_left_for_the_other(isolated_home, fake, procs, monkeypatch):  # noqa: F811
    configure(isolated_home, budget={"daily_usd": 0.10, "monthly_usd": 50.0})
    _set_cost(fake, 0.09)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(isolated_home / ".claude"))
    with _gate(fake):
        a = _started_call(procs, fake)  # the worker of profile A, its call given all that is left
        assert _calls(fake)[0]["budget"] == 0.10
        verdict, opened = budget.open_call(config.load(), _profile(isolated_home, ".claude-work"), time.time(),
                                           0.01, {"task_id": "b"}, 10)
        assert opened is None and verdict.busy, verdict  # profile B waits for A's call, it is not given $0.10
        assert "another model call (pid" in verdict.reason
    assert a.communicate(timeout=60)[0].strip() == "ok"
    verdict, opened = budget.open_call(config.load(), _profile(isolated_home, ".claude-work"), time.time(),
                                       0.001, {"task_id": "b"}, 10)
    assert opened is not None and abs(opened.budget - 0.01) < 1e-9  # what A's $0.09 left of the cap
    opened.close()


def test_both_profiles_use_one_private_folder_and_another_ledger_another(isolated_home):
    a, b = _profile(isolated_home, ".claude"), _profile(isolated_home, ".claude-work")
    assert markers.open_calls_dir(a) == markers.open_calls_dir(b)
    assert markers.lock_file(a) == markers.lock_file(b)
    assert not markers.open_calls_dir(a).startswith(paths.claude_dir(a))
    other = {**a, "XDG_DATA_HOME": str(isolated_home / "elsewhere")}  # another ledger
    assert paths.ledger_file(other) != paths.ledger_file(a)
    assert markers.open_calls_dir(other) != markers.open_calls_dir(a)

    configure(isolated_home, budget={"daily_usd": 1.0, "monthly_usd": 50.0})
    _, opened = budget.open_call(config.load(), a, time.time(), 0.01, {}, 10)
    assert opened is not None
    opened.close()
    for folder in (paths.spend_dir(a), markers.open_calls_dir(a)):
        assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700, folder
    assert os.path.exists(markers.lock_file(a))


def _old_marker(env: dict, call: str, budget_usd: float, estimate: float) -> tuple[str, int]:
    """A marker as the version before wrote it: in the profile's queue state folder, locked."""
    folder = os.path.join(paths.state_dir(env), "calls-open")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    fields = {"call": call, "pid": os.getpid(), "who": "the worker", "started": round(time.time(), 3),
              "budget": budget_usd, "kind": "distill", "project": "p", "session": "s", "task": "t",
              "prompt_chars": 100, "estimate": estimate}
    path = os.path.join(folder, f"{call}.json")
    return path, write_locked(path, json.dumps(fields).encode())


def test_a_call_opened_by_the_older_version_still_holds_and_a_killed_one_is_settled_once(isolated_home):
    configure(isolated_home, budget={"daily_usd": 1.0, "monthly_usd": 50.0})
    env = dict(os.environ)
    path, fd = _old_marker(env, "1-2-old", 1.0, 0.05)  # an old worker's call under way, given all of $1
    verdict, opened = budget.open_call(config.load(), env, time.time(), 0.01, {}, 10)
    assert opened is None and verdict.busy, verdict

    os.close(fd)  # its process was killed mid-call
    verdict, opened = budget.open_call(config.load(), env, time.time(), 0.01, {}, 10)
    assert opened is not None
    opened.close()
    killed = [line for line in ledger_lines() if line.get("call") == "1-2-old"]
    assert len(killed) == 1 and killed[0]["outcome"] == "killed" and killed[0]["total_cost_usd"] == 0.05
    assert not os.path.exists(path)
    _, again = budget.open_call(config.load(), env, time.time(), 0.01, {}, 10)
    assert again is not None
    again.close()
    assert len([line for line in ledger_lines() if line.get("call") == "1-2-old"]) == 1


def test_lh_queue_purge_keeps_the_older_versions_spend_lock(isolated_home):
    configure(isolated_home, budget={"daily_usd": 1.0, "monthly_usd": 100.0})
    os.makedirs(markers.legacy_open_calls_dir(), mode=0o700)  # an older version ran here
    _, opened = budget.open_call(config.load(), None, time.time(), 0.01, {"task_id": "t"}, 10)
    assert opened is not None
    opened.close()
    lock = os.path.join(paths.state_dir(), markers.LEGACY_LOCK)
    old = time.time() - 40 * 86400
    os.utime(lock, (old, old))  # only ever opened, never written: its mtime is its creation
    out = invoke("queue", "purge", "--done").out
    assert os.path.exists(lock) and os.path.exists(markers.lock_file()), out
    assert "forgot 0 session(s)" in out, out
