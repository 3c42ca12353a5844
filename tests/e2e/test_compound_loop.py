"""The compound loop and the read-back with the real Claude Code CLI, end to end.

Each test installs lazy-harness into an isolated HOME with the real `lh hooks install`; from then
on only Claude Code acts: its hooks queue the session and spawn the worker, the worker calls the
real `claude -p` (answered by the stand-in's StructuredOutput) and writes memory, and the next
session's SessionStart hook reads it back. The tests wait on the queue and the stand-in's request
log (polling with timeouts) and assert on the files and requests.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from loop_home import DISTILL_MODEL, LoopHome
from standin import STRUCTURED, STRUCTURED_OUTPUT, TURN, Script, all_user_text, inline_system_text, session_id

pytestmark = pytest.mark.e2e

# Three typed turns, 6 conversation messages (turn 1 also runs a tool). Only all three together pass
# the default min_user_chars (200), so every distillation sees the whole conversation.
TURNS = [
    "Where should the billing job queue live? Run echo first to check the shell works.",
    "I lean towards Postgres over Redis: it is already backed up every night.",
    "Decision: the queue stays in Postgres. Last night's migration timed out waiting for the invoices "
    "table lock; note that for the handoff, please.",
]
REPLIES = [
    "The shell works (it printed shell-ok).",
    "Postgres it is: the nightly backup already covers the queue tables.",
    "Noted: the queue stays in Postgres, and the migration needs a lock_timeout.",
]

ANSWER: dict[str, Any] = {
    "decisions": [
        {
            "summary": "Keep the billing job queue in Postgres instead of Redis.",
            "context": "Choosing the storage for the billing service's job queue.",
            "alternatives": ["Redis"],
            "rationale": "Postgres is already backed up every night.",
            "tags": ["queue", "postgres"],
        },
        {
            "summary": "Run schema migrations with a 5 second lock_timeout.",
            "context": "The nightly migration hung on a lock.",
            "alternatives": ["No timeout", "Maintenance window"],
            "rationale": "A short timeout fails fast instead of blocking invoice writes.",
            "tags": ["migrations"],
        },
    ],
    "failures": [
        {
            "summary": "The nightly migration timed out waiting for a lock on the invoices table.",
            "root_cause": "A long-running report held a lock on invoices.",
            "resolution": "The migration was re-run after the report finished.",
            "prevention": "Set lock_timeout on every migration and retry it off-peak.",
            "tags": ["migrations", "locks"],
        }
    ],
    "learnings": [
        {
            "title": "Postgres lock_timeout stops migrations from hanging",
            "learning": "SET lock_timeout makes a DDL statement give up instead of queueing behind long locks.",
            "context": "Found while debugging the billing service's nightly migration.",
            "scope": "general",
            "tags": ["postgres", "migrations"],
        }
    ],
    "handoff": [
        "Add lock_timeout to the migration runner's configuration.",
        "Write notes/deploy-failure.md with the timeline of the failed migration.",
    ],
}

# What the stand-in answers for a later distillation of the same session (lh knowledge handoff-now).
LATER_ANSWER: dict[str, Any] = {
    "decisions": [ANSWER["decisions"][0], {**ANSWER["decisions"][1], "summary": "Migrations run off-peak only."}],
    "failures": [],
    "learnings": [],
    "handoff": ["Schedule the off-peak migration window with the on-call team."],
}

ISO_TS = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$")
HANDOFF_TITLE = "# Open items for the next session"


# -- helpers ---------------------------------------------------------------------------------------


def session_script(answer: dict[str, Any]) -> Script:
    """Replies for TURNS (turn 1 runs Bash), and `answer` for every distill call."""
    script = Script(text="Stand-in reply.", structured=answer)
    script.on_turn_tool(
        r"Run echo first", "Bash", {"command": "echo shell-ok", "description": "Check the shell"}, then=REPLIES[0]
    )
    script.on(r"lean towards Postgres", REPLIES[1])
    script.on(r"Decision: the queue stays", REPLIES[2])
    return script


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def handoff_items(path: Path) -> list[str]:
    """The open items of a rendered handoff.md: ``- [h-1a2b3c4d] text`` lines, without the id."""
    items = [line[2:] for line in path.read_text().splitlines() if line.startswith("- ")]
    assert all(re.match(r"\[h-[0-9a-f]{8}\] ", item) for item in items), items
    return [item[13:] for item in items]


def processed(home: LoopHome) -> list[dict[str, str]]:
    return [t for t in home.tasks("done") if t.get("outcome") == "processed"]


def task_ids(tasks: list[dict[str, str]]) -> set[str]:
    return {t["_name"].removesuffix(".task") for t in tasks}


def learning_files(home: LoopHome) -> list[Path]:
    return sorted(home.learnings_dir.rglob("*.md")) if home.learnings_dir.exists() else []


def split_frontmatter(text: str) -> tuple[dict[str, Any], str]:
    assert text.startswith("---\n"), text[:200]
    head, body = text[4:].split("\n---\n", 1)
    return yaml.safe_load(head), body


def assert_entries(path: Path, kind: str, expected: list[dict[str, Any]], sid: str, tasks: set[str]) -> None:
    """`path` holds exactly one line per expected entry, in order, with the documented fields."""
    records = read_jsonl(path)
    assert [r["summary"] for r in records] == [e["summary"] for e in expected], records
    for rec, want in zip(records, expected, strict=True):
        assert {k: rec[k] for k in want} == want
        assert rec["type"] == kind and rec["project"] == "project" and rec["session_id"] == sid
        assert rec["task_id"] in tasks, (rec["task_id"], tasks)
        assert ISO_TS.match(rec["ts"]), rec["ts"]


# -- 1. an interactive session is distilled, once ------------------------------------------------


def test_interactive_session_is_distilled_once(loop_home: LoopHome, tmux_bin: str) -> None:
    home = loop_home
    home.standin.script = session_script(ANSWER)
    # why: no debounce and no growth gate, so the Stop after turn 3 and SessionEnd both queue the
    # session; SessionEnd finds nothing said after the cursor and makes no second model call. Some
    # CLI versions write the last turn to the transcript only after that Stop ran ("no growth"):
    # then SessionEnd is the one that distills. Either way: distilled once, one model call.
    home.install(debounce_seconds=0, reprocess_min_growth_seconds=0)

    sid = home.interactive(TURNS)
    home.wait_hook("SessionEnd", sid)
    home.wait_idle()

    done = home.tasks("done")
    runs = processed(home)
    assert not home.task_names("failed"), home.describe()
    assert {t["session_id"] for t in done} == {sid}
    assert len(runs) == 1 and runs[0]["event"] in ("Stop", "SessionEnd"), home.describe()
    if runs[0]["event"] == "Stop":
        assert [t["reason"] for t in done if t["event"] == "SessionEnd"] == [
            "nothing new since the last distillation"], home.describe()
    # the real CLI reported what the call cost; the ledger has it
    ledger = Path(home.env["XDG_DATA_HOME"]) / "lazy-harness" / "ledger.jsonl"
    (call,) = [json.loads(line) for line in ledger.read_text().splitlines()]
    assert call["outcome"] == "ok" and call["cost_reported"] and call["total_cost_usd"] > 0, call
    assert call["session"] == sid and call["input_tokens"] > 0
    assert len(home.hook_lines("Stop", sid)) == 3 and len(home.hook_lines("SessionEnd", sid)) == 1

    memory = home.memory_dir
    assert memory.name == home.transcripts()[0].parent.name  # keyed like Claude Code's own folder
    assert_entries(memory / "decisions.jsonl", "decision", ANSWER["decisions"], sid, task_ids(runs))
    assert_entries(memory / "failures.jsonl", "failure", ANSWER["failures"], sid, task_ids(runs))
    handoff = (memory / "handoff.md").read_text()
    assert handoff.startswith(HANDOFF_TITLE + "\n<!-- lazy-harness handoff session=" + sid), handoff
    assert handoff_items(memory / "handoff.md") == ANSWER["handoff"]

    (path,) = learning_files(home)
    learning = ANSWER["learnings"][0]
    month, name = path.parent.name, path.name
    assert path.parent.parent == home.learnings_dir
    assert re.fullmatch(r"\d{4}-\d{2}", month) and re.fullmatch(rf"{month}-\d{{2}}-postgres-lock[a-z0-9-]*\.md", name)
    assert len(name) - len("YYYY-MM-DD-.md") <= 50
    assert abs(dt.date.fromisoformat(name[:10]) - dt.date.today()) <= dt.timedelta(days=1)
    front, body = split_frontmatter(path.read_text())
    assert front["title"] == learning["title"] and front["origin"] == "project" and front["origin_session"] == sid
    assert front["tags"] == learning["tags"] and front["scope"] == learning["scope"]
    assert front["status"] == "active" and front["deprecated_by"] is None and ISO_TS.match(str(front["created"]))
    assert body.index("## Learning") < body.index(learning["learning"]) < body.index("## Context")
    assert learning["context"] in body

    # The loop closes: the next session in the project starts with what this one left open.
    seen = len(home.standin.log.model_requests())
    proc = home.claude.run_print("What is still open from the last session?", "--output-format", "json")
    assert proc.returncode == 0, proc.stderr
    context = inline_system_text(home.standin.log.model_requests()[seen])
    assert all(item in context for item in ANSWER["handoff"]), context
    later = json.loads(proc.stdout)["session_id"]
    # what it was told is what the worker worked out after the distillation, kept for it (ADR 0084)
    assert "(read-back as prepared)" in home.wait_hook("SessionStart", later), home.describe()
    home.wait_hook("SessionEnd", later)
    home.wait_idle()


# -- 2. the worker's own model call is never distilled --------------------------------------------


def test_worker_model_call_triggers_no_distillation(loop_home: LoopHome, tmux_bin: str) -> None:
    home = loop_home
    home.standin.script = session_script(ANSWER)
    home.install(debounce_seconds=0, reprocess_min_growth_seconds=0)

    assert sum(map(len, TURNS[:2])) < 200 <= sum(map(len, TURNS))  # no distillation before turn 3
    sid = home.interactive(TURNS)
    home.wait_hook("SessionEnd", sid)
    home.wait_idle()

    runs = processed(home)
    expected = sum(int(t.get("attempts") or 1) for t in runs)  # a retried model call asks again
    distills = home.standin.log.of_kind(STRUCTURED)
    assert runs and len(distills) == expected, home.describe()
    worker_sessions = {session_id(r) for r in distills}
    assert len(worker_sessions) == expected and not worker_sessions & {"", sid}, worker_sessions
    # Nothing fired for the worker's calls: every hook line and every task is the typed session's.
    assert home.hook_sessions() == {sid}, home.hook_lines()
    assert {t["session_id"] for t in home.tasks("done")} == {sid}
    assert not home.task_names("failed"), home.describe()
    # ...and they left no transcript anywhere.
    transcripts = [p for p in (home.claude.claude_dir / "projects").rglob("*.jsonl") if p.parent.name != "memory"]
    assert [p.stem for p in transcripts] == [sid]
    for req in distills:
        text = all_user_text(req)
        assert all(turn in text for turn in TURNS) and all(reply in text for reply in REPLIES), text[-3000:]
        assert req.model == DISTILL_MODEL and req.tools == [STRUCTURED_OUTPUT]
        assert "sdk-cli" in req.headers.get("user-agent", "")
        assert "SessionStart hook additional context" not in inline_system_text(req)


# -- 3. a headless session is never distilled -----------------------------------------------------


def test_headless_session_is_never_distilled(loop_home: LoopHome) -> None:
    home = loop_home
    home.standin.script = Script(text="Both points are noted.", structured=ANSWER)
    home.standin.script.on_turn_tool(
        r"queue folder", "Bash", {"command": "echo spool-ok", "description": "Check the spool"}, then="Spool is fine."
    )
    # why: gates that any session passes, so only the interactive-only rule can stop this one.
    home.install(min_messages=1, min_user_chars=1, debounce_seconds=0, reprocess_min_growth_seconds=0)
    prompt = (
        "We decided to keep the queue folder on disk instead of Redis, and yesterday's retry storm came "
        "from a missing backoff. Check the queue folder, then note both points for the team: they matter."
    )

    proc = home.claude.run_print(prompt, "--output-format", "json", "--allowedTools", "Bash", timeout=90)
    assert proc.returncode == 0, proc.stderr
    sid = json.loads(proc.stdout)["session_id"]
    home.wait_hook("SessionEnd", sid)
    home.wait_idle()

    assert [p.stem for p in home.transcripts()] == [sid]
    tasks = home.tasks("done")
    assert not home.task_names("failed"), home.describe()
    if tasks:
        for task in tasks:
            assert task["session_id"] == sid and task["outcome"] == "skipped", task
            assert re.search(r"headless|not (an )?interactive", task["reason"], re.I), task
    else:  # a product that filters in the hook instead must say so there
        assert re.search(r"headless|not (an )?interactive", " ".join(home.hook_lines(session=sid)), re.I)
    assert home.standin.log.of_kind(STRUCTURED) == [], home.standin.log.summary()
    assert not home.memory_dir.exists() or list(home.memory_dir.iterdir()) == []
    assert learning_files(home) == []


# -- 4. lh knowledge handoff-now -----------------------------------------------------------------


def test_handoff_now_adds_to_the_open_items_from_the_newest_interactive_session(loop_home: LoopHome,
                                                                               tmux_bin: str) -> None:
    home = loop_home
    home.standin.script = session_script(ANSWER)
    home.install()
    sid = home.interactive(TURNS)
    home.wait_hook("SessionEnd", sid)
    home.wait_idle()
    handoff = home.memory_dir / "handoff.md"
    assert handoff_items(handoff) == ANSWER["handoff"], home.describe()

    proc = home.claude.run_print("Which port does the billing service use? HEADLESS-ONLY", "--output-format", "json")
    assert proc.returncode == 0, proc.stderr
    headless = json.loads(proc.stdout)["session_id"]
    home.wait_hook("SessionEnd", headless)
    home.wait_idle()
    assert [p.stem for p in home.transcripts()] == [sid, headless]  # the headless one is newer

    home.standin.script.structured = LATER_ANSWER
    seen = len(home.standin.log.of_kind(STRUCTURED))
    # why --again: nothing was said since SessionEnd distilled it; without it no call is made (ADR 0075)
    proc = home.lh("knowledge", "handoff-now", "--again", "--wait")
    home.wait_idle()

    assert proc.returncode == 0, f"{proc.stdout}\n{proc.stderr}\n{home.describe()}"
    out = proc.stdout
    assert re.search(rf"skipped \S*{headless}\S*: .*headless", out), out
    assert f"for session {sid}" in out and re.search(r"^done: distilled$", out, re.M), out
    assert re.search(r"^wrote: .*handoff written", out, re.M), out
    # the earlier items stay open (nothing closed them); the later answer's item joins them
    assert sorted(handoff_items(handoff)) == sorted(ANSWER["handoff"] + LATER_ANSWER["handoff"])
    assert f"session={sid}" in handoff.read_text()
    summaries = [d["summary"] for d in read_jsonl(home.memory_dir / "decisions.jsonl")]
    assert summaries == [d["summary"] for d in ANSWER["decisions"]] + ["Migrations run off-peak only."]
    (req,) = home.standin.log.of_kind(STRUCTURED)[seen:]
    text = all_user_text(req)
    assert all(turn in text for turn in TURNS) and "HEADLESS-ONLY" not in text


# -- 5. read-back: the next session starts with the memory ----------------------------------------

PRIOR_SESSION = "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9"
OPEN_ITEMS = ["Rotate the staging database password before Friday.", "Answer the question about invoice rounding."]
RESUME_ITEMS = ["Review the retry backoff change after the resume."]
DECISION = "Invoices are rounded half-even, per the finance team."
PREVENTION = "Run the import dry-run against a copy of the CSV before the nightly job."
LEARNING_TITLE = "CSV exports from the bank start with a byte order mark"


def write_memory(home: LoopHome, items: list[str]) -> None:
    """Memory in the documented formats (docs/how/compound-loop.md), as a past session left it."""
    now = dt.datetime.now().astimezone()
    ts = now.isoformat(timespec="seconds")
    meta = {"ts": ts, "project": "project", "session_id": PRIOR_SESSION, "task_id": "1-prior"}
    memory = home.memory_dir
    memory.mkdir(parents=True, exist_ok=True)
    decision = {**meta, "type": "decision", "summary": DECISION, "context": "Finance review.",
                "alternatives": ["half-up"], "rationale": "Matches the ledger.", "tags": ["invoices"]}  # fmt: skip
    failure = {**meta, "type": "failure", "summary": "The nightly import failed on a BOM.",
               "root_cause": "The CSV starts with a byte order mark.", "resolution": "Strip it.",
               "prevention": PREVENTION, "tags": ["import"]}  # fmt: skip
    (memory / "decisions.jsonl").write_text(json.dumps(decision) + "\n")
    (memory / "failures.jsonl").write_text(json.dumps(failure) + "\n")
    write_handoff(home, items)
    front = {"title": LEARNING_TITLE, "origin": "project", "origin_session": PRIOR_SESSION, "created": ts,
             "tags": ["csv", "import"], "scope": "general", "status": "active", "deprecated_by": None,
             "deprecated_on": None, "deprecated_reason": None}  # fmt: skip
    folder = home.learnings_dir / now.strftime("%Y-%m")
    folder.mkdir(parents=True, exist_ok=True)
    head = yaml.safe_dump(front, sort_keys=False, width=10**9, allow_unicode=True)
    body = "## Learning\n\nStrip the BOM before parsing.\n\n## Context\n\nThe nightly import.\n"
    (folder / f"{now:%Y-%m-%d}-csv-exports-bom.md").write_text(f"---\n{head}---\n\n{body}")


def write_handoff(home: LoopHome, items: list[str]) -> None:
    ts = dt.datetime.now().astimezone().isoformat(timespec="seconds")
    lines = [HANDOFF_TITLE,
             f"<!-- lazy-harness handoff session={PRIOR_SESSION} task=1-prior written={ts} project=project -->",
             "", f"Written {ts} at the end of session {PRIOR_SESSION}.", "", *(f"- {i}" for i in items)]  # fmt: skip
    (home.memory_dir / "handoff.md").write_text("\n".join(lines) + "\n")


def test_next_session_starts_with_the_memory(loop_home: LoopHome, tmux_bin: str) -> None:
    home = loop_home
    home.standin.script = Script(text="I can see what is open.")
    home.install()
    write_memory(home, OPEN_ITEMS)

    sid = home.interactive(["What is still open from last time?"])

    # why: 2.1.197 asks for the session title (a "side" request) before the first turn.
    first = home.standin.log.of_kind(TURN)[0]
    context = inline_system_text(first)
    assert "SessionStart hook additional context" in context, home.standin.log.summary()
    for fact in [*OPEN_ITEMS, PREVENTION, DECISION, LEARNING_TITLE]:
        assert fact in context, f"{fact!r} not in the first request's context:\n{context}"
    assert "source=startup" in home.wait_hook("SessionStart", sid)
    home.wait_hook("SessionEnd", sid)
    home.wait_idle()  # too short to distill: memory stays as written
    assert home.standin.log.of_kind(STRUCTURED) == []

    # A resume reads memory again: items written since the start reach the resumed session.
    write_handoff(home, RESUME_ITEMS)
    seen = len(home.standin.log.model_requests())
    home.interactive(["Back again: anything new on the list?"], "--resume", sid)

    resumed = [r for r in home.standin.log.model_requests()[seen:] if r.kind == TURN]
    assert resumed, home.standin.log.summary()
    assert all(item in inline_system_text(resumed[0]) for item in RESUME_ITEMS), inline_system_text(resumed[0])
    assert any("source=resume" in line for line in home.hook_lines("SessionStart", sid)), home.hook_lines()
