"""The hooks' part of the usage record (ADR 0036): SessionStart and each prompt append one line of
what they showed; the feedback rule reorders where the budget cuts; a recurrence is told once."""

import json
import os
import time

from lazy_harness import paths
from lazy_harness.memory import files, ids, usage, usage_log
from tests.hooks.hookrun import SID, hook_log, run_hook
from tests.support import memory_samples as ms

NOW = time.time()


def _config(home, text: str) -> None:
    cfg = os.path.join(str(home), ".config", "lazy-harness", "config.toml")
    os.makedirs(os.path.dirname(cfg), exist_ok=True)
    with open(cfg, "w") as fh:
        fh.write(text)


def _start(project, source="startup") -> dict:
    r = run_hook("SessionStart", {"session_id": SID, "cwd": project, "source": source,
                                  "hook_event_name": "SessionStart"})
    assert r.returncode == 0 and r.stderr == b"", r.stderr
    return json.loads(r.stdout) if r.stdout else {}


def _decisions(project, n: int) -> list[str]:
    mem = paths.memory_dir(project)
    # why 300: the whole digest stays over context.max_chars's floor (1000) less a decision, whatever the
    # length of the temporary folder it names
    summaries = [f"Decision number {i} about the build " + "z" * 300 for i in range(n)]
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(NOW - 1000 + i, s, "") for i, s in
                                                        enumerate(summaries)])
    return [ids.entry_id("decision", s) for s in summaries]  # oldest first


def _usage(project, shown: dict[str, int], used: set[str]) -> None:
    """``shown[id]`` sessions each shown the entry; the ones in ``used`` used it in the first."""
    mem = paths.memory_dir(project)
    recs = []
    for eid, n in shown.items():
        for k in range(n):
            recs.append(usage_log.line("shown", NOW - 500, session=f"s{k}", id=eid, chars=100))
        if eid in used:
            recs.append(usage_log.line("used", NOW - 400, session="s0", id=eid, evidence="x"))
    usage_log.append(mem, recs)
    usage_log.refresh_ranks(None, mem)


def test_session_start_appends_one_line_of_the_ids_it_printed_and_their_characters(tmp_path, isolated_home):
    project = ms.make_project(tmp_path, "proj")
    made = _decisions(project, 3)
    out = _start(project)
    text = out["hookSpecificOutput"]["additionalContext"]
    seen = usage.read_seen(None, SID)
    assert len(seen) == 1
    when, source, chars, shown = seen[0]
    assert source == "startup" and chars == len(text) and abs(when - time.time()) < 60
    assert [i for i, _ in shown] == list(reversed(made))  # newest first, as printed
    for eid, n in shown:
        line = next(ln for ln in text.splitlines() if eid in ln)
        assert n == len(line) + 1
    _start(project, "resume")
    assert len(usage.read_seen(None, SID)) == 2  # appended, never rewritten


def test_a_budget_limited_session_start_puts_used_entries_first_and_never_used_ones_last(tmp_path, isolated_home):
    project = ms.make_project(tmp_path, "proj")
    oldest, middle, newest = _decisions(project, 3)
    whole = len(_start(project)["hookSpecificOutput"]["additionalContext"])
    budget = whole - 60  # one decision short, with the footer that says so
    _config(isolated_home, f"[context]\nmax_chars = {budget}\n[usage]\nunused_after = 5\n")
    before = _start(project)["hookSpecificOutput"]["additionalContext"]
    assert newest in before and oldest not in before  # the newest first, the oldest left out for space
    _usage(project, {newest: 5, middle: 2, oldest: 1}, used={oldest})
    after = _start(project)["hookSpecificOutput"]["additionalContext"]
    assert oldest in after and newest not in after  # used first; shown in 5 sessions, never used: last
    assert after.index(middle) < after.index(oldest)  # usage chose what the budget dropped; printed newest first
    _config(isolated_home, f"[context]\nmax_chars = {budget}\n[usage]\nunused_after = 0\n")
    assert _start(project)["hookSpecificOutput"]["additionalContext"] == before  # 0: usage changes no order


def test_nothing_is_hidden_by_usage_alone_when_the_budget_holds_everything(tmp_path, isolated_home):
    project = ms.make_project(tmp_path, "proj")
    made = _decisions(project, 3)
    _usage(project, dict.fromkeys(made, 9), used=set())
    text = _start(project)["hookSpecificOutput"]["additionalContext"]
    assert all(eid in text for eid in made)


def test_a_used_old_decision_is_printed_after_newer_ones_when_all_fit(tmp_path, isolated_home):
    """The headings say "newest first": usage picks what a short budget keeps, never the printed order."""
    project = ms.make_project(tmp_path, "proj")
    oldest, middle, newest = _decisions(project, 3)
    _usage(project, {oldest: 2, middle: 5, newest: 5}, used={oldest})
    text = _start(project)["hookSpecificOutput"]["additionalContext"]
    assert text.index(newest) < text.index(middle) < text.index(oldest), text
    seen = usage.read_seen(None, SID)[-1][3]  # the usage record still pairs each id with its own line
    for eid, n in seen:
        assert n == len(next(ln for ln in text.splitlines() if eid in ln)) + 1


def test_a_recurrence_is_told_to_the_person_once_with_its_id(tmp_path, isolated_home):
    project = ms.make_project(tmp_path, "proj")
    _decisions(project, 1)
    key = os.path.basename(paths.memory_dir(project))
    usage.keep_recurred(None, key, ["f-0a0b0c0d"])
    first = _start(project)
    assert "f-0a0b0c0d" in first["systemMessage"] and "happened again" in first["systemMessage"]
    assert "f-0a0b0c0d" not in first["hookSpecificOutput"]["additionalContext"]  # the person's, not the model's
    assert "recurred f-0a0b0c0d" in hook_log(paths.claude_dir())[-1]
    assert "systemMessage" not in _start(project)


def _prompt(project, prompt: str):
    ms.index_now()  # as the worker leaves it: the hook only reads the index (ADR 0042)
    r = run_hook("UserPromptSubmit", {"session_id": SID, "cwd": project, "hook_event_name": "UserPromptSubmit",
                                      "prompt": prompt})
    assert r.returncode == 0 and r.stderr == b"", r.stderr
    return json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"] if r.stdout else None


def _lock_decisions(project) -> tuple[str, str]:
    mem = paths.memory_dir(project)
    a = "Use Postgres advisory locks for the deployment scheduler"
    b = "Postgres advisory locks guard the deployment scheduler runners"
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(NOW - 9 * ms.DAY, a, "two runners at once"),
                                                        ms.decision(NOW - 8 * ms.DAY, b, "one runner at a time")])
    return ids.entry_id("decision", a), ids.entry_id("decision", b)


PROMPT = "the deploy scheduler ran twice last night, can we lock it in postgres advisory locks"


def test_a_prompt_appends_what_it_injected_and_the_rule_orders_where_max_items_cuts(tmp_path, isolated_home):
    project = ms.make_project(tmp_path, "proj")
    a, b = _lock_decisions(project)
    _config(isolated_home, "[recall]\nmax_items = 1\n")
    got = _prompt(project, PROMPT)
    first = a if a in got else b
    other = b if first == a else a
    assert other not in got
    seen = usage.read_seen(None, SID)
    assert [(s[1], [i for i, _ in s[3]]) for s in seen] == [("prompt", [first])] and seen[0][2] == len(got)
    _usage(project, {first: 5, other: 1}, used={other})
    got = _prompt(project, PROMPT.replace("night", "week"))
    assert got is None or first not in got  # already shown to this session: never repeated
    os.unlink(usage.seen_file(None, SID))
    r = run_hook("UserPromptSubmit", {"session_id": "another-session", "cwd": project,
                                      "hook_event_name": "UserPromptSubmit", "prompt": PROMPT})
    assert other in json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"]


def test_a_usage_record_that_fails_in_any_way_leaves_the_prompt_its_memory(tmp_path, isolated_home, monkeypatch):
    """The usage line is a nicety (ADR 0036): whatever noting it raises, the prompt still gets its notes,
    as at SessionStart."""
    from lazy_harness.recall.prompt import recall as recall_prompt

    project = ms.make_project(tmp_path, "proj")
    a, b = _lock_decisions(project)

    def broken(*args, **kwargs):
        raise ValueError("a usage line that cannot be made")

    monkeypatch.setattr(usage, "note", broken)
    payload = {"session_id": SID, "cwd": project, "hook_event_name": "UserPromptSubmit", "prompt": PROMPT}
    ms.index_now()
    _, out = recall_prompt.answer(payload, os.environ, time.time())
    assert out is not None
    context = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert a in context or b in context


def test_each_hook_names_the_memory_folder_its_showing_came_from(tmp_path, isolated_home):
    """SessionStart in project A and a prompt whose cwd is project B (a nested repository after `cd`):
    each line of the session's record names the folder its entries came from, so the worker counts
    B's entry in B's usage, not in A's (ADR 0036)."""
    proj_a, proj_b = ms.make_project(tmp_path, "a"), ms.make_project(tmp_path, "b")
    _decisions(proj_a, 1)
    _lock_decisions(proj_b)
    _start(proj_a)
    assert _prompt(proj_b, PROMPT)
    showings = usage.read_showings(None, SID)
    assert [(source, key) for _, source, _, _, key in showings] == [
        ("startup", os.path.basename(paths.memory_dir(proj_a))), ("prompt", os.path.basename(paths.memory_dir(proj_b)))]
