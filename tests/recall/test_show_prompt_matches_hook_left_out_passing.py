"""``lh memory show --prompt`` against the prompt hook for entries that pass the bar and still do not
come: no candidate of the "why" table is marked ``pass`` / ``in:`` unless the hook's text holds it, and
one the text leaves out says why: shown to the session already (by SessionStart or an earlier prompt),
no room within ``recall.max_items``, no room within ``recall.max_chars``."""

import json
import os
import re
import time

from lazy_harness import paths
from lazy_harness.memory import files
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import run_hook
from tests.support import memory_samples as ms

NOW = time.time()
S = "4d2c7e1a-8b3f-4c5d-9e6a-1f2b3c4d5e6f"
PROMPT = "the deploy scheduler ran twice last night, can we lock it in postgres"
LONG = ", ".join(f"the second runner deployed while the postgres lock was held by run {i}" for i in range(6))
OTHERS = ("stylesheet", "mobile app", "billing page", "search dialog", "admin panel", "mailer", "wishlist")


def _project(tmp_path, recall: str, context: bool = False) -> str:
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [
        ms.decision(NOW - 9 * ms.DAY, "Use Postgres advisory locks for the deployment scheduler", LONG),
        ms.decision(NOW - 8 * ms.DAY, "The deployment scheduler takes its postgres lock before it deploys", LONG),
        ms.decision(NOW - 6 * ms.DAY, "Scheduler runs hold the postgres lock until the deploy finishes", LONG),
        *(ms.decision(NOW - 20 * ms.DAY, f"The {what} keeps its settings in one file", "simple") for what in OTHERS)])
    ms.write_jsonl(os.path.join(mem, files.FAILURES), [
        ms.failure(NOW - 7 * ms.DAY, "The scheduler deployed twice after the postgres lock timed out", LONG)])
    os.makedirs(os.path.dirname(paths.config_file()), exist_ok=True)
    with open(paths.config_file(), "w", encoding="utf-8") as fh:  # the strength bar: every one passes
        fh.write(f"[context]\nenabled = {'true' if context else 'false'}\n"
                 f"[recall]\nsemantic = false\nresident_minutes = 0\n{recall}")
    ms.index_now()
    return root


def _hook(root: str, event: str = "UserPromptSubmit") -> str | None:
    r = run_hook(event, {"session_id": S, "cwd": root, "hook_event_name": event, "prompt": PROMPT,
                         "source": "startup"})
    assert r.returncode == 0 and r.stderr == b"", r.stderr
    return json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"] if r.stdout else None


def _table(root: str, *more: str) -> tuple[str, dict[str, tuple[str, str]]]:
    """(what the prompt gets, as show prints it; each listed candidate's id -> (its verdict, its reason))."""
    out = invoke("memory", "show", "--project", root, "--prompt", PROMPT, *more)
    assert out.code == 0, out.err
    text, table = out.out.split("\n", 1)[1].split("\n\n==== why", 1)
    rows: dict[str, tuple[str, str]] = {}
    last = ""
    for line in table.splitlines()[1:]:
        if line.startswith("      "):
            rows[last] = (rows[last][0], line.strip())
        else:
            last = re.search(r"\b[dflh]-[0-9a-f]{8}\b", line).group(0)
            rows[last] = (line[:8].strip(), "")
    return text, rows


def _ids(text: str | None) -> set[str]:
    return set(re.findall(r"\b[dflh]-[0-9a-f]{8}\b", text or ""))


def _agree(text: str, rows: dict[str, tuple[str, str]], hook: str | None) -> None:
    """What the command says is what the hook did: its text, and ``pass``/``in:`` only for what the text holds."""
    assert text == (hook if hook is not None else text), (text, hook)
    given = _ids(hook)
    for i, (mark, why) in rows.items():
        if i in given:
            assert mark == "pass" and why.startswith("in: "), (i, mark, why)
        else:
            assert mark != "pass" and not why.startswith("in: "), (i, mark, why)


def test_a_passing_entry_past_max_items_is_out_for_no_room(tmp_path):
    root = _project(tmp_path, "max_items = 1\n")
    text, rows = _table(root)
    hook = _hook(root)
    assert hook and len(_ids(hook)) == 1, hook
    _agree(text, rows, hook)
    cut = [why for i, (_, why) in rows.items() if "recall.max_items" in why]
    assert len(cut) == 3 and all(why.startswith("out: no room") for why in cut), rows


def test_a_passing_entry_past_max_chars_is_out_for_no_room(tmp_path):
    root = _project(tmp_path, "max_items = 10\nmax_chars = 820\n")
    text, rows = _table(root)
    hook = _hook(root)
    assert hook and len(_ids(hook)) == 1, hook
    _agree(text, rows, hook)
    cut = [why for i, (_, why) in rows.items() if "recall.max_chars 820" in why]
    assert len(cut) == 3 and all(why.startswith("out: no room") for why in cut), rows


def test_what_the_session_was_shown_is_out_as_shown_already(tmp_path):
    root = _project(tmp_path, "max_items = 2\n")
    first = _hook(root)
    assert first and len(_ids(first)) == 2, first
    text, rows = _table(root, "--session", S)
    hook = _hook(root)
    _agree(text, rows, hook)
    for i in _ids(first):
        assert rows[i][0] == "shown" and "already shown to this session" in rows[i][1], rows[i]


def test_what_session_start_showed_is_out_for_a_new_sessions_first_prompt(tmp_path):
    root = _project(tmp_path, "max_items = 5\n", context=True)
    text, rows = _table(root)
    start = _hook(root, "SessionStart")
    hook = _hook(root)
    shown = _ids(start) & set(rows)
    assert shown, (start, rows)
    _agree(text, rows, hook)
    for i in shown:
        assert rows[i][0] == "shown" and "SessionStart" in rows[i][1], rows[i]
