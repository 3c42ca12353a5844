"""The account's usage limit as Codex says it, and the reset time read from a limit's message: Codex's
"try again at 3:05 PM" (the machine's local time) and its dated form; a zone this Python cannot load;
a reset minute just reached; a year after the day. A ``codex exec`` killed by a signal is named
``killed`` and charged at its estimate, as a killed claude is."""

import os
import stat
import sys
import time
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from lazy_harness import paths, proc, queue
from lazy_harness.config import defaults
from lazy_harness.cost import budget
from lazy_harness.worker import calls, codex_distill, llm, waiting
from tests.support import fake_codex
from tests.worker.spendrig import configure, ledger_lines, run_worker, tasks
from tests.worker.test_codex_distill import _codex_task

PARIS = ZoneInfo("Europe/Paris")
# codex 0.171.0's own words (the strings of its binary; codex-rs core/src/error.rs UsageLimitReachedError)
FREE = ("You've hit your usage limit. Upgrade to Plus to continue using Codex (https://chatgpt.com/explore/plus),"
        " or try again at {at}.")
PLUS = ("You've hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit "
        "https://chatgpt.com/settings/usage to purchase more credits or try again at {at}.")
OTHER = "You've hit your usage limit. Try again at {at}."


@pytest.fixture
def local_zone():
    """The machine's local zone set for the test (Codex prints the reset in it), restored after."""
    before = os.environ.get("TZ")

    def use(name: str) -> ZoneInfo:
        os.environ["TZ"] = name
        time.tzset()
        return ZoneInfo(name)

    yield use
    if before is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = before
    time.tzset()


def _codex_time(at: datetime, now: datetime) -> str:
    """A reset as codex prints it: the time of day on the same date, else with the date."""
    clock = f"{at.hour % 12 or 12}:{at.minute:02d} {'PM' if at.hour >= 12 else 'AM'}"
    if at.date() == now.date():
        return clock
    suffix = "th" if 11 <= at.day <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(at.day % 10, "th")
    return f"{at:%b} {at.day}{suffix}, {at.year} {clock}"


# 1. Codex's usage limit is the limit cause

@pytest.mark.parametrize("said", [FREE.format(at="3:05 PM"), PLUS.format(at="Oct 9th, 2026 10:00 AM"),
                                  OTHER.format(at="3:05 PM"), "You've hit your usage limit. Try again later.",
                                  "You've hit your usage limit. To get more access now, send a request to your admin"
                                  " or try again later.",
                                  "You\u2019ve hit your usage limit. Try again later.",
                                  "Your workspace is out of credits. Add credits to continue.",
                                  "You hit your spend cap set in your workspace. Increase your spend cap to continue."])
def test_limfx_codex_usage_limit_is_the_limit_cause(said):
    assert llm.classify(said) == ("limit", llm.WAIT)


def test_limfx_codex_limit_event_fails_the_call_as_the_limit(tmp_path, monkeypatch):
    said = FREE.format(at="3:05 PM")
    fake_codex.use(tmp_path, monkeypatch, mode="fail", message=said, code=1)
    cfg = defaults()
    workdir = tmp_path / "neutral"
    workdir.mkdir()

    with pytest.raises(llm.CallError) as err:
        codex_distill.call("p", cfg, dict(os.environ), str(workdir))

    assert (err.value.cause, err.value.action) == ("limit", llm.WAIT)
    calls._named(err.value)
    assert llm.cause_said(err.value.message) == "limit"
    assert "try again at 3:05 PM" in err.value.message


# 2. the reset Codex names, in the machine's local time

@pytest.mark.parametrize("form", [FREE, PLUS, OTHER])
def test_limfx_codex_reset_time_of_day_is_local_time(local_zone, form):
    zone = local_zone("America/New_York")
    now = datetime(2026, 3, 10, 12, 0, tzinfo=zone)
    reset = datetime(2026, 3, 10, 15, 5, tzinfo=zone).timestamp()
    got = waiting.limit_reset(form.format(at="3:05 PM"), now.timestamp())
    assert got is not None and reset <= got <= reset + 120


@pytest.mark.parametrize("shown,expected", [
    ("Oct 9th, 2026 10:00 AM", datetime(2026, 10, 9, 10, 0)),
    ("Oct 11th, 2026 12:30 AM", datetime(2026, 10, 11, 0, 30)),
    ("Oct 22nd, 2026 12:15 PM", datetime(2026, 10, 22, 12, 15)),
    ("Nov 3rd, 2026 9:00 PM", datetime(2026, 11, 3, 21, 0)),
    ("Jan 1st, 2027 1:00 AM", datetime(2027, 1, 1, 1, 0)),
])
def test_limfx_codex_dated_reset(local_zone, shown, expected):
    zone = local_zone("Europe/Paris")
    now = (expected - timedelta(days=2, hours=5)).replace(tzinfo=zone).timestamp()
    at = expected.replace(tzinfo=zone).timestamp()
    said = f"the account's usage limit is reached ({PLUS.format(at=shown)}; `codex exec ...` exited 1)"
    got = waiting.limit_reset(said, now)
    assert got is not None and at <= got <= at + 120


def test_limfx_codex_said_try_again_later_names_no_reset():
    assert waiting.limit_reset("You've hit your usage limit. Try again later.", time.time()) is None


# 3. a reset read a day too late

def test_limfx_a_zone_this_python_cannot_load_gives_the_doubling_wait(local_zone):
    local_zone("UTC")
    now = datetime(2026, 3, 10, 16, 0, tzinfo=ZoneInfo("UTC")).timestamp()
    for zone in ("Mars/Olympus_Mons", "America/Nowhere_Known"):
        assert waiting.limit_reset(f"You've hit your limit · resets 3pm ({zone})", now) is None


def test_limfx_a_zone_missing_from_the_zone_database_gives_the_doubling_wait(local_zone, monkeypatch):
    import zoneinfo

    local_zone("UTC")
    now = datetime(2026, 3, 10, 16, 0, tzinfo=ZoneInfo("UTC")).timestamp()
    said = "You've hit your limit · resets 3pm (America/Denver)"
    try:
        zoneinfo.reset_tzpath(to=[])  # why: a Python without the zone database (no tzdata installed)
        zoneinfo.ZoneInfo.clear_cache()
        try:
            zoneinfo.ZoneInfo("America/Denver")
            pytest.skip("the tzdata package gives this Python the zones anyway")
        except zoneinfo.ZoneInfoNotFoundError:
            pass
        got = waiting.limit_reset(said, now)
    finally:
        zoneinfo.reset_tzpath()
        zoneinfo.ZoneInfo.clear_cache()
    assert got is None


@pytest.mark.parametrize("h,m,s", [(10, 0, 20), (10, 2, 0), (10, 59, 59)])
def test_limfx_a_reset_minute_just_reached_waits_the_least(h, m, s):
    now = datetime(2026, 3, 10, h, m, s, tzinfo=PARIS).timestamp()
    got = waiting.limit_reset("You've hit your limit · resets 10am (Europe/Paris)", now)
    assert got is not None and now <= got <= now + 120


def test_limfx_a_codex_reset_just_reached_waits_the_least(local_zone):
    zone = local_zone("Europe/Paris")
    now = datetime(2026, 3, 10, 15, 5, 30, tzinfo=zone).timestamp()
    got = waiting.limit_reset(OTHER.format(at="3:05 PM"), now)
    assert got is not None and now <= got <= now + 120


def test_limfx_a_reset_an_hour_gone_is_the_next_day():
    now = datetime(2026, 3, 10, 11, 0, 1, tzinfo=PARIS).timestamp()
    at = datetime(2026, 3, 11, 10, 0, tzinfo=PARIS).timestamp()
    got = waiting.limit_reset("You've hit your limit · resets 10am (Europe/Paris)", now)
    assert got is not None and at <= got <= at + 120


def test_limfx_a_dated_reset_with_its_year():
    now = datetime(2026, 12, 29, 10, 0, tzinfo=PARIS).timestamp()
    at = datetime(2027, 1, 2, 10, 0, tzinfo=PARIS).timestamp()
    got = waiting.limit_reset("You've hit your weekly limit · resets Jan 2, 2027, 10am (Europe/Paris)", now)
    assert got is not None and at <= got <= at + 120


def test_limfx_a_dated_reset_of_a_year_gone_names_no_reset():
    now = datetime(2026, 12, 29, 10, 0, tzinfo=PARIS).timestamp()
    assert waiting.limit_reset("resets Jan 2, 2025, 10am (Europe/Paris)", now) is None


def test_limfx_local_reset_across_a_dst_change(local_zone):
    zone = local_zone("Europe/Paris")  # summer time starts 2026-03-29
    now = datetime(2026, 3, 28, 23, 0, tzinfo=zone).timestamp()
    at = datetime(2026, 3, 29, 22, 0, tzinfo=zone).timestamp()
    got = waiting.limit_reset("You've hit your limit · resets 10pm", now)
    assert got is not None and at <= got <= at + 120
    now = datetime(2026, 3, 27, 12, 0, tzinfo=zone).timestamp()
    at = datetime(2026, 4, 2, 10, 0, tzinfo=zone).timestamp()
    got = waiting.limit_reset("You've hit your weekly limit · resets Apr 2, 10am", now)
    assert got is not None and at <= got <= at + 120


# 4. a codex killed by a signal

def _killed(code: int = -9) -> proc.Result:
    return proc.Result(code=code, stdout="", stderr="", timed_out=False, argv=["codex", "exec"])


@pytest.mark.parametrize("priced", [False, True])
def test_limfx_a_killed_codex_is_named_killed_and_charged_its_estimate(priced):
    cfg = defaults()
    if priced:
        cfg["worker"]["codex_input_usd_per_mtok"] = 0.25
        cfg["worker"]["codex_output_usd_per_mtok"] = 2.0
    usage = codex_distill.usage_of([], cfg)
    with pytest.raises(llm.CallError) as err:
        codex_distill._result(_killed(), [], usage, 600, cfg["compound_loop"])

    assert (err.value.cause, err.value.action) == ("killed", llm.RETRY)
    assert err.value.message.startswith("codex was killed by signal 9 (SIGKILL)")
    assert llm.cause_said(err.value.message) == "killed"
    assert calls._charged(err.value, 0.25).cost_usd == pytest.approx(0.25)


KILLS_ITSELF = r"""#!{python}
import os, signal, sys
marker = os.path.join(os.path.dirname(os.path.abspath(__file__)), "killed-once")
if sys.argv[1:] != ["--version"] and not os.path.exists(marker):
    sys.stdin.read()
    open(marker, "w").close()
    os.kill(os.getpid(), signal.SIGKILL)  # as the OOM killer would, after reading the prompt
os.execv({real!r}, [{real!r}] + sys.argv[1:])
"""


def test_limfx_a_codex_killed_mid_call_is_charged_and_the_task_retried(isolated_home, tmp_path, monkeypatch):
    monkeypatch.setenv("CODEX_HOME", str(isolated_home / ".codex"))
    real = fake_codex.install(tmp_path / "real-codex")
    bin_dir = tmp_path / "codex-bin"
    bin_dir.mkdir()
    exe = bin_dir / "codex"
    exe.write_text(KILLS_ITSELF.format(python=sys.executable, real=str(real)))
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", str(bin_dir))  # the codex alone, no claude
    configure(isolated_home, max_attempts=2, min_user_chars=50)
    with open(os.path.join(str(isolated_home), ".config", "lazy-harness", "config.toml"), "a") as fh:
        fh.write("[worker]\ncodex_input_usd_per_mtok = 0.25\ncodex_output_usd_per_mtok = 2.0\n")
    project = tmp_path / "api"
    project.mkdir()
    _codex_task(isolated_home, project)

    stats = run_worker()

    assert stats.processed == 1, tasks("failed") or tasks("done")
    assert (bin_dir / "killed-once").exists() and len(fake_codex.calls(tmp_path / "real-codex")) == 1
    killed, ok = ledger_lines()
    assert (killed["outcome"], killed["cost_reported"], ok["outcome"]) == ("killed", False, "ok")
    expected = budget.guess(killed["prompt_chars"], prices=(0.25, 2.0))  # at the codex prices configured
    assert killed["total_cost_usd"] == pytest.approx(expected) and expected > 0
    with open(os.path.join(paths.logs_dir(), "worker.log")) as fh:
        assert "codex was killed by signal 9 (SIGKILL)" in fh.read()


# 5. the worker: a Codex limit waits for its reset, and the session's next task runs

def test_limfx_a_codex_limit_waits_until_its_reset_and_the_next_task_runs(isolated_home, tmp_path, monkeypatch):
    monkeypatch.setenv("CODEX_HOME", str(isolated_home / ".codex"))
    now = datetime.now().astimezone()
    reset = (now + timedelta(hours=3)).replace(second=0, microsecond=0)
    said = FREE.format(at=_codex_time(reset, now))
    fake = fake_codex.use(tmp_path, monkeypatch, mode="fail", message=said, code=1)
    configure(isolated_home, max_attempts=3, min_user_chars=50)
    project = tmp_path / "api"
    project.mkdir()
    fields = _codex_task(isolated_home, project)

    stats = run_worker()

    assert (stats.failed, stats.waiting) == (0, 1)
    assert len(fake_codex.calls(fake)) == 1  # one call, no retries now
    [task] = tasks("")
    assert task["wait_reason"].startswith("the account's usage limit is reached")
    assert reset.timestamp() <= float(task["not_before"]) <= reset.timestamp() + 120
    assert run_worker().finished == 0 and len(fake_codex.calls(fake)) == 1  # no call before the reset

    fake_codex.control(fake, mode="ok", answer=fake_codex.DEFAULT_ANSWER)  # the limit has reset
    task["not_before"] = repr(time.time() - 1)
    q = paths.queue_dir()
    [name] = queue.pending(q)
    with open(os.path.join(q, name), "w") as fh:
        fh.write(queue.format_task(task))
    following = queue.task_fields({"session_id": fields["session_id"], "transcript_path": fields["session_jsonl"],
                                   "cwd": str(project)}, "SessionEnd", True)
    following["agent"] = "codex"
    queue.enqueue(q, following)  # the transcript unchanged
    stats = run_worker()
    assert stats.processed == 1 and stats.skipped == 0, tasks("done")
    assert len(fake_codex.calls(fake)) == 2
