"""``lh memory show --prompt`` (recall/prompt/explain.py) tells what the UserPromptSubmit hook does,
byte for byte (docs/how/recall.md): a new session's first prompt comes after SessionStart recorded what
its digest printed; a Codex session's budget is cut as the hook cuts it; a fork not read yet leaves out
its parents' entries, and show writes nothing; a hand edit the show's index update caught is said. And
hooks.log names a learning waiting for approval as show does."""

import json
import os
import subprocess
import sys
import time

from lazy_harness import paths
from lazy_harness.memory import files, ids, lineage
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import hook_log, run_hook
from tests.hooks.test_trust import learning, write_as_session
from tests.recall.test_show_prompt_session_whyfx import OTHERS, PROMPTS, _hook, _ids, _project, _show
from tests.support import memory_samples as ms

NOW = time.time()
NEW = "3c5d7e9f-1a2b-4c3d-8e4f-5a6b7c8d9e0f"
CODEX = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
PARENT = "6f5e4d3c-2b1a-4f0e-9d8c-7b6a5f4e3d2c"
FORK = "1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9"


def _config(*lines: str) -> None:
    """More keys at the end of the config ``_project`` wrote (its last table is ``[recall]``)."""
    with open(paths.config_file(), "a", encoding="utf-8") as fh:
        fh.write("".join(line + "\n" for line in lines))


def _text(out: str) -> str:
    """What the prompt gets, as ``_show`` reads it, from the whole output of show."""
    return out.split("\n", 1)[1].split("\n\n==== why", 1)[0]


def test_show_without_a_session_predicts_the_first_prompt_after_session_start(tmp_path):
    root = _project(tmp_path, max_items=5)
    _config("[context]", "decisions = 1")  # SessionStart prints the newest decision and the failure
    head, predicted = _show(root, PROMPTS[0])
    start = _hook(root, "", sid=NEW, event="SessionStart")
    hook = _hook(root, PROMPTS[0], sid=NEW)
    assert start and hook and _ids(start), (start, hook)
    assert predicted == hook
    assert f"after SessionStart showed {len(_ids(start))} entries" in head, head
    assert not _ids(predicted) & _ids(start)


def _rollout(root: str, sid: str) -> str:
    folder = os.path.join(paths.codex_home(), "sessions", "2026", "11", "28")
    os.makedirs(folder)
    path = os.path.join(folder, f"rollout-2026-11-28T23-10-00-{sid}.jsonl")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(json.dumps({"type": "session_meta", "payload": {"id": sid, "originator": "codex-tui",
                                                                  "source": "cli", "cwd": root}}) + "\n")
    return path


def test_show_with_a_codex_session_cuts_the_budget_as_the_hook_does(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    ms.write_jsonl(os.path.join(paths.memory_dir(root), files.DECISIONS), [
        ms.decision(NOW - (i + 1) * ms.DAY, f"Deploy scheduler rule {i}: hold the postgres lock while deploying",
                    "the deploy scheduler ran twice when " + "the postgres lock was let go early, " * 6)
        for i in range(8)] + [ms.decision(NOW - 20 * ms.DAY, f"The {what} keeps its settings in one file", "simple")
                              for what in OTHERS])
    os.makedirs(os.path.dirname(paths.config_file()), exist_ok=True)
    with open(paths.config_file(), "w", encoding="utf-8") as fh:
        fh.write("[recall]\nsemantic = false\nmax_items = 10\nmax_chars = 4000\nmin_score = 0.5\n"
                 "resident_minutes = 0\n")
    ms.index_now()
    rollout = _rollout(root, CODEX)
    out = invoke("memory", "show", "--project", root, "--prompt", PROMPTS[0], "--session", CODEX[:8])
    assert out.code == 0, out.err
    r = subprocess.run([sys.executable, "-m", "lazy_harness.hooks", "UserPromptSubmit", "--agent", "codex"],
                       input=json.dumps({"session_id": CODEX, "transcript_path": rollout, "cwd": root,
                                         "hook_event_name": "UserPromptSubmit", "prompt": PROMPTS[0]}).encode(),
                       capture_output=True, env=dict(os.environ), timeout=20)
    assert r.returncode == 0 and r.stdout, hook_log(paths.claude_dir())[-1:]
    hook = json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"]
    cut = "(codex: recall.max_chars 4000 cut to 2000, within 6000 bytes)"
    assert cut in hook_log(paths.claude_dir())[-1]
    assert out.out.splitlines()[1] == cut, out.out
    assert _text(out.out).split("\n", 1)[1] == hook  # the line after the cut's: the hook's text


def test_the_hook_log_names_a_learning_waiting_for_approval_as_show_does(tmp_path):
    a, b = ms.make_project(tmp_path, "projA"), ms.make_project(tmp_path, "projB")
    title = "Docker COPY invalidates the cache for every later layer"
    write_as_session(a, {"learnings": [learning(title, "Copy requirements.txt and install the dependencies "
                                                       "before copying the source.", tags=["docker", "cache"])]})
    os.makedirs(os.path.dirname(paths.config_file()), exist_ok=True)
    with open(paths.config_file(), "w", encoding="utf-8") as fh:
        fh.write("[recall]\nsemantic = false\nresident_minutes = 0\n")
    ms.index_now()
    prompt = "how do I keep the docker layer cache when I copy requirements and the source"
    out = invoke("memory", "show", "--project", b, "--prompt", prompt)
    lid = ids.learning_id("projA", title)
    said = f"{lid} passes the bar but is out: waits for your approval"
    assert f"This prompt receives nothing: {said}" in out.out, out.out
    r = run_hook("UserPromptSubmit", {"session_id": NEW, "cwd": b, "hook_event_name": "UserPromptSubmit",
                                      "prompt": prompt})
    assert r.returncode == 0 and r.stdout == b"", r.stdout
    last = hook_log(paths.claude_dir())[-1]
    assert f"waiting={lid}" in last and said in last and "nothing passed the bar" not in last, last


def test_show_with_a_fork_not_read_yet_leaves_out_its_parents_entries_and_writes_nothing(tmp_path):
    root = _project(tmp_path, session=PARENT, max_items=5)
    ms.write_jsonl(os.path.join(paths.memory_dir(root), files.DECISIONS), [
        ms.decision(NOW - 5 * ms.DAY, "The deploy scheduler retries the postgres lock once, then stops",
                    "a second run waiting forever hid the first one's failure", session_id="s-other")])
    ms.index_now()
    lineage.mark_fork(None, FORK)  # SessionStart source=fork: the parents are read from the transcript later
    folder = os.path.join(paths.projects_dir(), "-proj")
    os.makedirs(folder)
    transcript = os.path.join(folder, FORK + ".jsonl")
    with open(transcript, "w", encoding="utf-8") as fh:  # the records the fork copied from its parent
        fh.write(json.dumps({"type": "user", "sessionId": FORK, "session_id": PARENT, "uuid": "u-1",
                             "message": {"role": "user", "content": "the scheduler is stuck"}}) + "\n")
    _, predicted = _show(root, PROMPTS[0], FORK[:8])
    with open(lineage.state_file(None, FORK), encoding="utf-8") as fh:
        assert fh.read() == "?\n"  # show is a reader: the hook records the lineage
    r = run_hook("UserPromptSubmit", {"session_id": FORK, "transcript_path": transcript, "cwd": root,
                                      "hook_event_name": "UserPromptSubmit", "prompt": PROMPTS[0]})
    assert r.returncode == 0 and r.stdout, r.stderr
    hook = json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "own_session=" in hook_log(paths.claude_dir())[-1]
    assert predicted == hook


def test_show_says_when_its_index_update_caught_a_hand_edit(tmp_path):
    root = _project(tmp_path)
    current = invoke("memory", "show", "--project", root, "--prompt", PROMPTS[0])
    assert "index was behind" not in current.out, current.out
    path = os.path.join(paths.memory_dir(root), files.DECISIONS)
    with open(path, encoding="utf-8") as fh:
        kept = [line for line in fh if "advisory locks" not in line]
    with open(path, "w", encoding="utf-8") as fh:  # a line deleted by hand
        fh.writelines(kept)
    out = invoke("memory", "show", "--project", root, "--prompt", PROMPTS[0])
    said = [line for line in out.out.splitlines() if "index was behind" in line]
    assert len(said) == 1 and "prompts before this one" in said[0], out.out
    again = invoke("memory", "show", "--project", root, "--prompt", PROMPTS[0])
    assert "index was behind" not in again.out, again.out
