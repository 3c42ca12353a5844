"""``lh memory show --prompt`` against the prompt hook once the session has state: ``--session ID``
reads what that session was shown and its own entries, as the hook does, so the text is the hook's
next answer byte for byte; without it, the first line says it is a new session's first prompt."""

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
S = "9b1e4c7a-2d3f-4a5b-8c6d-7e8f9a0b1c2d"
OTHERS = ("stylesheet", "mobile app", "billing page", "search dialog", "admin panel", "mailer", "image resizer",
          "wishlist", "onboarding tour", "report export")  # words no prompt here uses, so the prompts' weigh
PROMPTS = ("the deploy scheduler ran twice last night, can we lock it in postgres",
           "the scheduler deployed twice again, the postgres lock did not hold",
           "why does the deployment scheduler still run twice with the postgres lock")


def _project(tmp_path, session: str = "s-1", max_items: int = 1):
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [
        ms.decision(NOW - 9 * ms.DAY, "Use Postgres advisory locks for the deployment scheduler",
                    "two runners deployed at once", session_id=session),
        ms.decision(NOW - 8 * ms.DAY, "The deployment scheduler takes its postgres lock before it deploys",
                    "a lock taken after the deploy let two runs through", session_id=session),
        ms.decision(NOW - 6 * ms.DAY, "Scheduler runs hold the postgres lock until the deploy finishes",
                    "releasing early let a second run deploy twice", session_id=session),
        *(ms.decision(NOW - 20 * ms.DAY, f"The {what} keeps its settings in one file", "simple")
          for what in OTHERS)])
    ms.write_jsonl(os.path.join(mem, files.FAILURES), [
        ms.failure(NOW - 7 * ms.DAY, "The scheduler deployed twice after the postgres lock timed out",
                   "renew the lock while the deploy runs", session_id=session)])
    os.makedirs(os.path.dirname(paths.config_file()), exist_ok=True)
    with open(paths.config_file(), "w", encoding="utf-8") as fh:  # the strength bar alone
        fh.write(f"[recall]\nsemantic = false\nmax_items = {max_items}\nresident_minutes = 0\n")
    ms.index_now()
    return root


def _hook(root, prompt: str, sid: str = S, event: str = "UserPromptSubmit") -> str | None:
    r = run_hook(event, {"session_id": sid, "cwd": root, "hook_event_name": event, "prompt": prompt,
                         "source": "startup"})
    assert r.returncode == 0 and r.stderr == b"", r.stderr
    return json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"] if r.stdout else None


def _show(root, prompt: str, sid: str | None = None) -> tuple[str, str]:
    """(the first line, the text: what the prompt gets, or the "receives nothing" sentence)."""
    out = invoke("memory", "show", "--project", root, "--prompt", prompt, *(("--session", sid) if sid else ()))
    assert out.code == 0, out.err
    first, rest = out.out.split("\n", 1)
    return first, rest.split("\n\n==== why", 1)[0]


def _ids(text: str | None) -> set[str]:
    return set(re.findall(r"\b[dflh]-[0-9a-f]{8}\b", text or ""))


def test_show_with_the_session_prints_the_hooks_next_answer_after_two_prompts(tmp_path):
    root = _project(tmp_path)
    first, second = _hook(root, PROMPTS[0]), _hook(root, PROMPTS[1])
    assert first and second and not _ids(first) & _ids(second), (first, second)
    head, predicted = _show(root, PROMPTS[2], S)
    assert S in head and "new session" not in head, head
    hook = _hook(root, PROMPTS[2])
    assert hook is not None and not _ids(hook) & (_ids(first) | _ids(second)), hook
    assert predicted == hook
    # without --session: what a new session's first prompt gets, which is not what S gets now
    head, fresh = _show(root, PROMPTS[2])
    assert "new session's first prompt" in head, head
    assert fresh != hook and _ids(fresh) & (_ids(first) | _ids(second)), fresh


def test_show_with_the_session_says_nothing_when_the_hook_gives_nothing_new(tmp_path):
    root = _project(tmp_path, max_items=5)
    assert _hook(root, PROMPTS[0])
    _, predicted = _show(root, PROMPTS[0], S)
    assert _hook(root, PROMPTS[0]) is None  # everything that passes was shown to S
    assert predicted == "This prompt receives nothing: what passes the bar was already shown to this session, " \
        "or held back.", predicted


def test_show_with_the_session_after_session_start_leaves_out_what_it_printed(tmp_path):
    root = _project(tmp_path)
    start = _hook(root, "", event="SessionStart")
    assert start and _ids(start)
    _, predicted = _show(root, PROMPTS[0], S)
    hook = _hook(root, PROMPTS[0])
    assert (predicted.startswith("This prompt receives nothing: ") if hook is None else predicted == hook), (
        predicted, hook)
    assert not _ids(hook) & _ids(start)


def test_show_with_the_resumed_session_that_wrote_the_entries_gets_nothing_as_the_hook_does(tmp_path):
    sid = S
    root = _project(tmp_path, session=sid)
    assert _hook(root, PROMPTS[0], sid) is None  # its own entries are never told back to it
    folder = os.path.join(paths.projects_dir(), "-proj")  # a running session has its transcript
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, sid + ".jsonl"), "w", encoding="utf-8") as fh:
        fh.write("{}\n")
    _, predicted = _show(root, PROMPTS[0], sid)
    assert predicted.startswith("This prompt receives nothing: "), predicted
    assert "own" in predicted, predicted
    _, fresh = _show(root, PROMPTS[0])  # another session would get them
    assert _ids(fresh), fresh
