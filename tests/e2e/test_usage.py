"""Memory that knows whether it helped (ADR 0036), with the real Claude Code CLI.

The project's memory holds three entries. A session is shown all three at SessionStart and runs one
entry's command in a Bash tool call: once distilled, that entry counts used and the other two unused.
A later session is distilled into a repeat of a shown failure: it counts recurred, and the next
session start tells the person. The totals agree with the entries. Then a SessionStart whose budget
holds one failure of two shows the newest one without usage feedback, and the used one with it.
"""

from __future__ import annotations

import datetime as dt
import json
import time
from typing import Any

import pytest

from loop_home import LoopHome
from standin import TURN, Script, inline_system_text

pytestmark = pytest.mark.e2e

ECHO = {"summary": "A deploy ran from a broken shell that nobody had checked.",
        "prevention": "Run `echo shell-ok` before every deploy, and stop when it prints nothing. " + "x" * 200}
PNPM = {"summary": "CI installed packages that differ from the lockfile.",
        "prevention": "Use `pnpm install --frozen-lockfile` in CI jobs. " + "y" * 200}
REDIS = {"summary": "Keep session state in redis_cluster_main.", "rationale": "One cluster is backed up."}

TURNS = [
    "Before we start on the release notes, run echo first to check the shell works.",
    "The release notes should list the three user-facing changes of this week, in plain words.",
    "Good. Write them as a short list and keep the internal refactors out of the notes entirely.",
]
REPLIES = ["The shell works (it printed shell-ok).", "Understood: three changes, plain words.",
           "Here is the short list of the three changes."]
NOTHING: dict[str, Any] = {"decisions": [], "failures": [], "learnings": [], "handoff": []}
AGAIN: dict[str, Any] = {**NOTHING, "failures": [{**PNPM, "root_cause": "the lockfile was ignored",
                                                   "resolution": "reinstalled", "tags": ["ci"]}]}


def script(answer: dict[str, Any]) -> Script:
    s = Script(text="Stand-in reply.", structured=answer)
    s.on_turn_tool(r"run echo first", "Bash", {"command": "echo shell-ok", "description": "Check the shell"},
                   then=REPLIES[0])
    s.on(r"release notes should list", REPLIES[1])
    s.on(r"Write them as a short list", REPLIES[2])
    return s


def entry_ids() -> tuple[str, str, str]:
    from lazy_harness.memory import ids

    return (ids.entry_id("failure", ECHO["summary"]), ids.entry_id("failure", PNPM["summary"]),
            ids.entry_id("decision", REDIS["summary"]))


def write_memory(home: LoopHome) -> None:
    """ECHO the older failure, PNPM the newer; one decision."""
    start = dt.datetime.now().astimezone() - dt.timedelta(days=30)
    home.memory_dir.mkdir(parents=True, exist_ok=True)
    base = {"project": "project", "session_id": "s-prior", "task_id": "1-prior"}
    failures = [{"ts": (start + dt.timedelta(days=n)).isoformat(timespec="seconds"), "type": "failure", **base,
                 "root_cause": "", "resolution": "", "tags": [], **f} for n, f in enumerate((ECHO, PNPM))]
    decision = {"ts": start.isoformat(timespec="seconds"), "type": "decision", **base, "context": "",
                "alternatives": [], "tags": [], **REDIS}
    (home.memory_dir / "failures.jsonl").write_text("".join(json.dumps(f) + "\n" for f in failures))
    (home.memory_dir / "decisions.jsonl").write_text(json.dumps(decision) + "\n")


def usage_json(home: LoopHome) -> dict[str, Any]:
    proc = home.lh("memory", "usage", "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def session(home: LoopHome, answer: dict[str, Any]) -> str:
    home.standin.script = script(answer)
    sid = home.interactive(TURNS)
    home.wait_hook("SessionEnd", sid)
    home.wait_idle()
    assert not home.task_names("failed"), home.describe()
    return sid


def start_context(home: LoopHome, unused_after: int, max_chars: int) -> str:
    """What a `claude -p` session's first model request got from SessionStart, with these settings."""
    text = home.config_file.read_text().split("[context]")[0]
    home.config_file.write_text(text + f"[context]\nmax_chars = {max_chars}\n[usage]\nunused_after = {unused_after}\n")
    seen = len(home.standin.log.model_requests())
    proc = home.claude.run_print("Say hello.", "--output-format", "json")
    assert proc.returncode == 0, proc.stderr
    turn = next(r for r in home.standin.log.model_requests()[seen:] if r.kind == TURN)
    return inline_system_text(turn)


def test_used_unused_recurred_and_the_order_they_give(loop_home: LoopHome, tmux_bin: str) -> None:
    home = loop_home
    home.install(debounce_seconds=0, reprocess_min_growth_seconds=0)
    write_memory(home)
    echo, pnpm, redis = entry_ids()

    first = session(home, NOTHING)
    turns = [r for r in home.standin.log.of_kind(TURN)]
    assert all(i in inline_system_text(turns[0]) for i in (echo, pnpm, redis)), "SessionStart showed all three"
    got = usage_json(home)
    rows = {e["id"]: e for e in got["entries"]}
    assert (rows[echo]["shown"], rows[echo]["used"]) == (1, 1), (got, home.describe())
    assert (rows[pnpm]["shown"], rows[pnpm]["used"]) == (1, 0), got
    assert (rows[redis]["shown"], rows[redis]["used"]) == (1, 0), got
    assert got["sessions"] == 1 and got["recurrences"] == 0 and got["injected_chars"] > 0
    used = [json.loads(ln) for ln in (home.memory_dir / "usage.jsonl").read_text().splitlines()
            if '"used"' in ln]
    assert [(u["id"], u["session"], u["evidence"]) for u in used] == [(echo, first, "echo shell-ok")], used

    session(home, AGAIN)  # distilled into a repeat of PNPM, shown to it at its start
    got = usage_json(home)
    rows = {e["id"]: e for e in got["entries"]}
    assert rows[pnpm]["recurred"] == 1 and rows[echo]["recurred"] == 0, got
    assert (rows[echo]["shown"], rows[echo]["used"], rows[pnpm]["shown"], rows[pnpm]["used"]) == (2, 2, 2, 0), got
    assert got["shown"] == sum(e["shown"] for e in got["entries"]) == 6
    assert got["used"] == sum(e["used"] for e in got["entries"]) == 2
    assert got["recurrences"] == sum(e["recurred"] for e in got["entries"]) == 1 and got["sessions"] == 2
    assert sum(1 for ln in (home.memory_dir / "failures.jsonl").read_text().splitlines() if ln.strip()) == 2

    # the rule: a budget that holds one failure of the two
    from lazy_harness import config
    from lazy_harness.recall.readback import digest

    whole = digest.build_context(str(home.project), config.load(home.env), home.env, time.time(), "startup")[0]
    assert whole is not None
    budget = len(whole) - 60
    before = start_context(home, 0, budget)
    assert pnpm in before and echo not in before, before  # newest first; the older one left out for space
    told = home.hook_lines("SessionStart")[-1]
    # claude -p shows a systemMessage to nobody: told, but not marked told (CLAUDE_CODE_ENTRYPOINT=sdk-cli)
    assert f"told the person: recurred {pnpm}" in told and "(headless run: told, not marked told)" in told, told
    after = start_context(home, 1, budget)
    assert echo in after and pnpm not in after, after  # used first; shown and never used: last
    assert f"told the person: recurred {pnpm}" in home.hook_lines("SessionStart")[-1]  # still untold
    session(home, NOTHING)  # a person's session: told, and marked told
    told = [ln for ln in home.hook_lines("SessionStart") if "told the person: recurred" in ln][-1]
    assert "headless run" not in told, told
    start_context(home, 1, budget)
    assert "recurred" not in home.hook_lines("SessionStart")[-1]  # told once to a person
    home.wait_idle()
