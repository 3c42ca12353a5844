"""Per-machine spend caps (ADR 0065) as a user breaks them: the key lost or unusable mid-day, two
makers of the key at once, a state folder open to others, a remote that floods the damaged lines,
and lh cost's totals of this machine beside every machine's."""

import json
import os
import time

from lazy_harness import config, paths
from lazy_harness.cost import budget, ledger, own
from lazy_harness.sync.drivers import merge_lines
from lazy_harness.worker.llm import Usage
from tests.cli.lhrun import invoke
from tests.worker.spendrig import configure

META = {"project": "p", "session_id": "s", "task_id": "t"}


def _now() -> float:
    """Within one local day, past its first hour (the lines below are dated up to 40 minutes back)."""
    now = time.time()
    return max(now, budget.day_start(now) + 3600)


def _spend(cost: float, ts: float, env=None) -> dict:
    usage = Usage(model="claude-haiku-4-5", input_tokens=1000, output_tokens=100, cost_usd=cost, reported=True)
    return ledger.record(usage, META, "ok", 40000, env, now=ts)


def _merge_in(theirs: bytes) -> None:
    path = paths.ledger_file()
    with open(path, "rb") as fh:
        ours = fh.read()
    with open(path, "wb") as fh:
        fh.write(merge_lines(b"", ours, theirs))


def _today(now: float) -> float:
    return round(budget.check(config.load(), None, now).spent_today, 2)


def test_a_remote_of_damaged_lines_prints_a_few_then_a_count(isolated_home):
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    now = _now()
    _spend(0.5, now - 60)
    _merge_in(b"".join(b'{"ts": "torn %d\n' % i for i in range(100_000)))
    for args in (("cost", "--since", "1d"), ("doctor",)):
        out = invoke(*args).out
        named = [ln for ln in out.splitlines() if ": skipped (" in ln]
        assert 0 < len(named) <= 10, args
        assert "99,9" in out or "and 99" in out, args
        assert "100,000 damaged" in out or "100000 damaged" in out, args
    data = json.loads(invoke("cost", "--since", "1d", "--json").out)
    assert len(data["skipped_lines"]) == 100_000  # the JSON still names every one


def _other_machine(tmp_path) -> dict:
    return dict(os.environ, XDG_STATE_HOME=str(tmp_path / "laptop-state"), XDG_DATA_HOME=str(tmp_path / "laptop-data"))


def test_a_key_deleted_mid_day_does_not_give_the_day_back(isolated_home, tmp_path):
    """The person removes the state folder's spend.key (or a cleanup does) after $4.50 of a $5.00 day:
    the next key must not let this machine spend the day's cap again."""
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    now = _now()
    for i in range(9):
        _spend(0.5, now - 2400 + i)
    laptop = _other_machine(tmp_path)
    _spend(0.25, now - 1200, laptop)
    with open(paths.ledger_file(laptop), "rb") as fh:
        _merge_in(fh.read())
    assert _today(now) == 4.5
    os.unlink(own.key_file())
    v = budget.check(config.load(), None, now, 0.6)
    assert not v.allowed and round(v.spent_today, 2) >= 4.5  # fails closed: the laptop's line counts too
    assert "spend key" in invoke("doctor").out


def test_a_line_written_while_the_key_may_not_be_used_counts_once_it_may(isolated_home):
    """spend.key opened to others for a while (a chmod -R, a restore from a backup): the lines written
    meanwhile are this machine's spend once the key is private again."""
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    now = _now()
    _spend(2.0, now - 1800)
    os.chmod(own.key_file(), 0o644)
    _spend(2.0, now - 1200)  # no key to sign it with
    os.chmod(own.key_file(), 0o600)
    v = budget.check(config.load(), None, now, 1.5)
    assert not v.allowed and round(v.spent_today, 2) == 4.0


def test_a_state_folder_open_to_others_is_not_trusted_for_the_key(isolated_home):
    """Another user who can write the state folder can take spend.key away or put theirs there: the caps
    then count every line (fail closed), as for a key file open to others."""
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    now = _now()
    _spend(1.0, now - 600)
    os.chmod(paths.machine_state_dir(), 0o777)
    _merge_in(json.dumps({"time": "x", "ts": now - 300, "total_cost_usd": 3.0, "outcome": "ok"}).encode() + b"\n")
    assert own.ring(None, lambda since: []) is None
    assert _today(now) == 4.0


def _first_spend(barrier, cost: float, ts: float) -> None:
    barrier.wait()
    _spend(cost, ts)


def test_two_workers_making_the_key_at_once_count_both_and_adopt_no_other_machine(isolated_home, tmp_path):
    """The upgrade: two profiles' workers make the key at the same moment. One key; each one's line
    counts; the second maker does not take the first's adopted file for a lost key's (which would
    count the laptop's lines here)."""
    import multiprocessing

    configure(isolated_home, budget={"daily_usd": 50.0, "monthly_usd": 500.0})
    now = _now()
    laptop = _other_machine(tmp_path)
    _spend(7.0, now - 2000, laptop)
    with open(paths.ledger_file(laptop), "rb") as fh:
        theirs = fh.read()
    os.makedirs(os.path.dirname(paths.ledger_file()), exist_ok=True)
    old = json.dumps({"time": "x", "ts": now - 1500, "total_cost_usd": 1.0, "outcome": "ok"}).encode() + b"\n"
    with open(paths.ledger_file(), "wb") as fh:
        fh.write(old + theirs)  # a line of the version before, and a line of a laptop already upgraded
    for attempt in range(5):
        for f in (own.key_file(), own.adopted_file()):
            if os.path.exists(f):
                os.unlink(f)
        with open(paths.ledger_file(), "wb") as fh:
            fh.write(old + theirs)
        ctx = multiprocessing.get_context("spawn")  # why not fork: the pytest worker runs threads
        barrier = ctx.Barrier(2)
        procs = [ctx.Process(target=_first_spend, args=(barrier, 2.0, now - 100 - i)) for i in range(2)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(30)
        assert all(p.exitcode == 0 for p in procs)
        assert own.lost_at() is None, attempt
        assert _today(now) == 5.0, attempt  # the old line and both workers' lines, never the laptop's


def test_lh_cost_says_which_part_of_the_total_is_this_machines(isolated_home, tmp_path):
    """The table totals every machine's calls ($9.00) while the today line says $4.50: the person sees
    which part is this machine's, the part its caps count."""
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    now = _now()
    laptop = _other_machine(tmp_path)
    for i in range(9):
        _spend(0.5, now - 2400 + i)
        _spend(0.5, now - 1800 + i, laptop)
    with open(paths.ledger_file(laptop), "rb") as fh:
        _merge_in(fh.read())
    out = invoke("cost", "--since", "1d").out
    assert "this machine: 9 of the 18 calls, $4.5000 of $9.0000" in out, out
    data = json.loads(invoke("cost", "--since", "1d", "--json").out)
    assert data["this_machine"]["calls"] == 9 and data["this_machine"]["cost_usd"] == 4.5


def _killed_marker(call: str, started: float, estimate: float) -> None:
    """A call of the version before killed mid-call: its marker left, nobody holding its lock."""
    from lazy_harness import private
    from lazy_harness.cost import markers

    private.make(paths.spend_dir())
    folder = private.make(markers.open_calls_dir())
    c = markers.mark(folder, markers.OpenCall(call, 4242, "the worker", started, 1.0, estimate=estimate, project="p"))
    c.close(remove=False)


def test_the_upgrade_settles_a_pending_killed_call_once_whatever_its_age(isolated_home):
    """The version before left a ledger of lines older than 62 days and killed calls' markers: one
    killed after its line was written (70 days ago), one before (today). The first check settles each
    once: the old call is not written a second time because its line is older than what the key adopts."""
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    now = _now()
    old = [{"time": "x", "ts": now - (70 + i) * 86400, "total_cost_usd": 0.3, "outcome": "ok", "project": "p"}
           for i in range(3)]
    old[0].update(call="old-killed", outcome="ok")
    os.makedirs(os.path.dirname(paths.ledger_file()), exist_ok=True)
    with open(paths.ledger_file(), "w") as fh:
        fh.write("".join(json.dumps(e, separators=(",", ":")) + "\n" for e in old))
    _killed_marker("old-killed", now - 70 * 86400 - 60, 0.3)
    _killed_marker("today-killed", now - 600, 0.4)
    v, call = budget.open_call(config.load(), None, now, 0.1, META, 1000)
    assert call is not None
    call.close()
    calls = [e.get("call") for e in ledger.read_since(0)]
    assert calls.count("old-killed") == 1 and calls.count("today-killed") == 1, calls
    assert round(v.spent_today, 2) == 0.4


def test_two_claude_code_profiles_share_one_key_and_one_cap(isolated_home, tmp_path):
    """Two Claude Code profiles (CLAUDE_CONFIG_DIR) on one machine: one ledger, one key, one cap."""
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    now = _now()
    work, home = (dict(os.environ, CLAUDE_CONFIG_DIR=str(tmp_path / name)) for name in ("work", "personal"))
    for i in range(4):
        _spend(0.5, now - 900 + i, work)
        _spend(0.5, now - 800 + i, home)
    assert own.key_file(work) == own.key_file(home)
    for env in (work, home):
        v = budget.check(config.load(), env, now, 1.5)
        assert not v.allowed and round(v.spent_today, 2) == 4.0


def test_a_state_folder_another_user_owns_holds_no_key_and_fails_closed(isolated_home, tmp_path, monkeypatch):
    """XDG_STATE_HOME names a folder another user made (a shared /tmp): no key is made or read there, the
    caps count every line, and nothing of ours is written into it."""
    import pytest

    if os.geteuid() != 0:
        pytest.skip("making a folder another user owns needs root")
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    now = _now()
    _spend(1.0, now - 900)  # signed with the key of the state folder under HOME
    theirs = tmp_path / "shared"
    (theirs / "lazy-harness").mkdir(parents=True)
    os.chown(theirs / "lazy-harness", 65534, 65534)
    os.chown(theirs, 65534, 65534)
    monkeypatch.setenv("XDG_STATE_HOME", str(theirs))
    _spend(1.0, now - 600)
    _merge_in(json.dumps({"time": "x", "ts": now - 300, "total_cost_usd": 2.0, "outcome": "ok"}).encode() + b"\n")
    assert _today(now) == 4.0
    assert os.listdir(theirs / "lazy-harness") == []
    monkeypatch.setenv("XDG_STATE_HOME", "relative/state")  # ignored, as the XDG spec says: HOME's
    assert own.key_file() == os.path.join(str(isolated_home), ".local", "state", "lazy-harness", "spend.key")


def test_a_key_that_may_not_be_used_is_named_by_doctor_status_and_cost(isolated_home):
    """The caps count every machine's line while spend.key is open to others: the person is told why
    and what to run, not left wondering at a spend that includes the laptop's."""
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    now = _now()
    _spend(1.0, now - 600)
    os.chmod(own.key_file(), 0o644)
    for args in (("doctor",), ("status",), ("cost", "--since", "1d")):
        out = invoke(*args).out
        assert f"{own.key_file()} may not be used" in out, (args, out)
        assert "chmod 600" in out, (args, out)


def test_a_remote_line_whose_mac_is_not_ascii_stops_no_check(isolated_home):
    """A remote line ending in a "mac" of 32 bytes that are not ASCII (16 times é): comparing it to this
    key's MAC raised TypeError in every cap check (the worker's start, lh cost, lh doctor)."""
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    now = _now()
    _spend(1.0, now - 600)
    line = json.dumps({"time": "x", "ts": now - 300, "total_cost_usd": 3.0, "outcome": "ok"}, separators=(",", ":"))
    _merge_in(line[:-1].encode() + b',"mac":"' + "é".encode() * 16 + b'"}\n')
    v = budget.check(config.load(), None, now, 0.3)
    assert v.allowed and round(v.spent_today, 2) == 1.0
    assert invoke("cost", "--since", "1d").code == 0


def test_a_line_of_the_version_before_padded_with_spaces_counts_after_the_upgrade(isolated_home):
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    now = _now()
    os.makedirs(os.path.dirname(paths.ledger_file()), exist_ok=True)
    line = json.dumps({"time": "x", "ts": now - 900, "total_cost_usd": 2.0, "outcome": "ok"}, separators=(",", ":"))
    with open(paths.ledger_file(), "w") as fh:
        fh.write(line + "   \n")
    _spend(1.0, now - 600)  # the first line written makes the key, adopting the line before
    assert _today(now) == 3.0


def test_a_ledger_saved_with_a_byte_order_mark_keeps_its_first_line_counted(isolated_home):
    """The ledger opened and saved in an editor that writes a UTF-8 byte order mark (Notepad): lh cost
    reads the first line (JSON takes the mark), so must the caps."""
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    now = _now()
    _spend(3.0, now - 900)
    _spend(1.0, now - 600)
    with open(paths.ledger_file(), "rb") as fh:
        data = fh.read()
    with open(paths.ledger_file(), "wb") as fh:
        fh.write(b"\xef\xbb\xbf" + data)
    assert _today(now) == 4.0
