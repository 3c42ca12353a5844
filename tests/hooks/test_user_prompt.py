"""UserPromptSubmit as Claude Code runs it: a subprocess with the JSON payload on stdin."""

import json
import os
import re
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files, ids
from lazy_harness.recall.index import store
from tests.hooks.hookrun import SID, hook_log, run_hook, spawned_workers_gone
from tests.support import memory_samples as ms

NOW = time.time()
PROMPT = "the deploy scheduler ran twice last night, can we lock it in postgres"


@pytest.fixture
def project(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [
        ms.decision(NOW - 9 * ms.DAY, "Use Postgres advisory locks for the deployment scheduler",
                    "two runners deployed at once"),
        ms.decision(NOW - 8 * ms.DAY, "Keep the stylesheet in one file", "simple"),
    ])
    ms.write_jsonl(os.path.join(mem, files.FAILURES), [
        ms.failure(NOW - 7 * ms.DAY, "Webhook retries hammered the payment provider",
                   "exponential backoff with jitter"),
    ])
    return root


def ask(project, prompt, sid=SID, index_first=True):
    """The hook's answer; ``index_first``: the index brought up to date before, as the worker (its
    writer) leaves it after writing memory; the hook only reads it (ADR 0042)."""
    if index_first:
        ms.index_now()
    r = run_hook("UserPromptSubmit", {"session_id": sid, "cwd": project, "hook_event_name": "UserPromptSubmit",
                                      "prompt": prompt})
    assert r.returncode == 0 and r.stderr == b"", r.stderr
    if not r.stdout:
        return None
    out = json.loads(r.stdout)
    assert list(out) == ["hookSpecificOutput"]
    assert out["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    return out["hookSpecificOutput"]["additionalContext"]


def test_a_matching_prompt_gets_the_entry_with_its_id_and_file(project):
    text = ask(project, PROMPT)
    did = ids.entry_id("decision", "Use Postgres advisory locks for the deployment scheduler")
    assert f"decision {did} (decisions.jsonl:1)" in text
    assert "advisory locks" in text and "stylesheet" not in text and "Webhook" not in text
    assert paths.memory_dir(project) in text
    last = hook_log(paths.claude_dir())[-1]
    assert "UserPromptSubmit" in last and "injected 1" in last and did in last


def test_an_entry_is_found_through_its_cues_in_the_words_of_the_symptom(tmp_path):
    root = ms.make_project(tmp_path, "cued")
    summary = "Thumbnails are made by a Celery task"
    prompt = "the backoffice form spins forever when staff attach a giant picture"
    path = os.path.join(paths.memory_dir(root), files.DECISIONS)
    ms.write_jsonl(path, [ms.decision(NOW, summary, "inline resizing timed out")])
    assert ask(root, prompt) is None  # the entry's own words are not the prompt's
    os.remove(path)
    ms.write_jsonl(path, [ms.decision(NOW, summary, "inline resizing timed out",
                                      cues=["backoffice form spins forever with a giant picture"])])
    text = ask(root, prompt, sid="other-session")
    assert ids.entry_id("decision", summary) in text and "Celery task" in text


def test_failures_come_with_their_prevention(project):
    text = ask(project, "the stripe webhook keeps retrying way too fast")
    assert "Prevention: exponential backoff with jitter." in text


@pytest.mark.parametrize("prompt,why", [
    ("/compact the deploy scheduler in postgres", "slash command"),
    ("lock postgres", "prompt under 20 characters"),
    ("write a limerick about our office cat please", "nothing passed the bar"),
])
def test_nothing_at_all_for_slash_commands_short_prompts_and_no_match(project, prompt, why):
    assert ask(project, prompt) is None
    assert why in hook_log(paths.claude_dir())[-1]


def test_what_the_session_was_shown_is_not_repeated(project):
    assert ask(project, PROMPT) is not None
    assert ask(project, PROMPT + " again please") is None
    assert "nothing new" in hook_log(paths.claude_dir())[-1]
    assert ask(project, PROMPT, sid="another-session") is not None  # per session
    state = os.path.join(paths.state_dir(), f"{SID}.shown")
    shown = ids.entry_id("decision", "Use Postgres advisory locks for the deployment scheduler")
    assert open(state).read().split() == [shown]


def test_session_start_shown_ids_are_not_repeated(project):
    r = run_hook("SessionStart", {"session_id": SID, "cwd": project, "source": "startup"})
    assert b"advisory locks" in r.stdout
    assert ask(project, PROMPT) is None
    r = run_hook("SessionStart", {"session_id": SID, "cwd": project, "source": "clear"})
    assert ask(project, "postgres lock for the deployment scheduler please") is None  # the digest shows it again


def test_a_learning_shown_at_session_start_is_not_injected_again_at_the_first_prompt(project):
    ms.write_learning(paths.learnings_dir(), "Postgres advisory locks are per session", "proj", NOW - 60,
                      scope="general", learning="a pooled connection loses the scheduler's lock",
                      tags=["postgres", "locks", "scheduler", "deploy"], slug="locks")
    lid = ids.learning_id("proj", "Postgres advisory locks are per session")
    other = ask(project, PROMPT, sid="without-a-start")
    assert other is not None and "advisory locks are per session" in other  # the prompt alone would get it
    r = run_hook("SessionStart", {"session_id": SID, "cwd": project, "source": "startup"})
    assert b"advisory locks are per session" in r.stdout
    got = ask(project, PROMPT)
    assert got is None or "advisory locks are per session" not in got
    state = open(os.path.join(paths.state_dir(), f"{SID}.shown")).read().split()
    assert lid in state, state


def test_a_learning_written_by_hand_without_a_title_is_one_entry_for_the_start_and_the_prompt(project):
    """A learning whose frontmatter has no title (written by hand): its file's name gives it one, and
    the same id, at SessionStart and in the index, so the first prompt does not inject it again."""
    path = ms.write_learning(paths.learnings_dir(), "Postgres advisory locks are per session", "proj", NOW - 60,
                             scope="general", learning="a pooled connection loses the scheduler's lock",
                             tags=["postgres", "locks", "scheduler", "deploy"], slug="advisory-locks-per-session")
    text = open(path, encoding="utf-8").read()
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("".join(ln for ln in text.splitlines(True) if not ln.startswith("title:")))
    lid = ids.learning_id("proj", "advisory locks per session")
    other = ask(project, PROMPT, sid="without-a-start")
    assert other is not None and "a pooled connection loses" in other and lid in other, other
    r = run_hook("SessionStart", {"session_id": SID, "cwd": project, "source": "startup"})
    assert b"a pooled connection loses" in r.stdout and lid.encode() in r.stdout, r.stdout
    got = ask(project, PROMPT)
    assert got is None or "a pooled connection loses" not in got


def test_hand_edits_show_up_once_the_writer_ran(project):
    assert ask(project, "backups are eating all the disk space again", sid="s1") is None
    mem = paths.memory_dir(project)
    ms.write_jsonl(os.path.join(mem, files.FAILURES), [
        ms.failure(NOW, "Cron backup job filled the disk", "rotate backups and alert at 80% disk")])
    assert "Cron backup job" in ask(project, "backups are eating all the disk space again", sid="s2")
    # edit a line by hand (same size is not required): the summary changes
    path = os.path.join(mem, files.DECISIONS)
    text = open(path).read().replace("advisory locks", "row-level locks")
    with open(path, "w") as fh:
        fh.write(text)
    got = ask(project, PROMPT, sid="s3")
    assert "row-level locks" in got and "advisory" not in got
    # delete it by hand
    with open(path, "w") as fh:
        fh.write("".join(ln for ln in text.splitlines(True) if "row-level" not in ln))
    assert ask(project, PROMPT, sid="s4") is None


def test_superseded_forgotten_and_deprecated_entries_are_left_out(project):
    mem = paths.memory_dir(project)
    did = ids.entry_id("decision", "Use Postgres advisory locks for the deployment scheduler")
    assert ask(project, PROMPT, sid="a") is not None
    with open(os.path.join(mem, files.DECISIONS), "a") as fh:
        fh.write(json.dumps({"op": "supersede", "id": did, "by": "d-00000000"}) + "\n")
    assert ask(project, PROMPT, sid="b") is None
    fid = ids.entry_id("failure", "Webhook retries hammered the payment provider")
    with open(os.path.join(mem, files.FAILURES), "a") as fh:
        fh.write(json.dumps({"op": "forget", "id": fid}) + "\n")
    assert ask(project, "the stripe webhook keeps retrying way too fast", sid="c") is None
    L = paths.learnings_dir()
    ms.write_learning(L, "Gunicorn worker timeouts kill slow uploads", "proj", NOW, slug="gun", status="deprecated",
                      learning="raise the gunicorn timeout for upload endpoints")
    assert ask(project, "gunicorn keeps killing slow uploads with a timeout", sid="d") is None


def test_general_learnings_of_other_projects_come_but_not_their_project_ones(project):
    L = paths.learnings_dir()
    ms.write_learning(L, "SQLite allows one writer; use WAL and a busy timeout", "elsewhere", NOW, slug="g",
                      scope="general", learning="database is locked errors go away with journal_mode=WAL",
                      deprecated_reason="approved by hand")  # the person's word: shown in every project
    ms.write_learning(L, "Gunicorn worker timeouts kill slow uploads", "elsewhere", NOW, slug="p", scope="project",
                      learning="raise the gunicorn timeout for upload endpoints")
    got = ask(project, "sqlite says database is locked when two processes write", sid="x")
    assert "SQLite allows one writer" in got and "(in elsewhere)" in got
    assert ask(project, "gunicorn keeps killing slow uploads with a timeout", sid="y") is None


def test_open_handoff_items_from_handoff_jsonl(project):
    mem = paths.memory_dir(project)
    a, b = ids.handoff_id("Finish the partial refunds admin button"), ids.handoff_id("Write the refunds runbook")
    with open(os.path.join(mem, "handoff.jsonl"), "w") as fh:
        for rec in ({"op": "open", "id": a, "text": "Finish the partial refunds admin button",
                     "ts": "2025-01-01T00:00:00Z"},
                    {"op": "open", "id": b, "text": "Write the refunds runbook", "ts": "2025-01-01T00:00:00Z"},
                    {"op": "close", "id": b, "text": "", "ts": "2025-01-01T00:00:00Z"}):
            fh.write(json.dumps(rec) + "\n")
    got = ask(project, "let's continue the partial refunds in the admin", sid="h")
    assert f"open item {a} (handoff.md)" in got and b not in got


def test_the_budget_is_kept(project, isolated_home):
    cfg = os.path.join(str(isolated_home), ".config", "lazy-harness", "config.toml")
    os.makedirs(os.path.dirname(cfg), exist_ok=True)
    with open(cfg, "w") as fh:
        fh.write("[recall]\nmax_chars = 900\n")  # at least 820: the header and one entry
    mem = paths.memory_dir(project)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [
        ms.decision(NOW - i, f"Postgres lock number {i} for the deployment scheduler " + "x" * 200, "why " * 40)
        for i in range(10)] + [ms.decision(NOW - i, f"Unrelated choice {i} about the stylesheet", "taste")
                               for i in range(60)])
    got = ask(project, PROMPT)
    assert 0 < len(got) <= 900 and got.count("\n- decision ") == 1


def test_the_strength_bar_is_read_from_the_config(project, isolated_home):
    cfg = os.path.join(str(isolated_home), ".config", "lazy-harness", "config.toml")
    os.makedirs(os.path.dirname(cfg), exist_ok=True)
    with open(cfg, "w") as fh:
        fh.write("[recall]\nmin_score = 1000\nsemantic = false\n")
    assert ask(project, PROMPT) is None
    last = hook_log(paths.claude_dir())[-1]
    assert "nothing passed the bar" in last
    best = float(last.split(" best=", 1)[1].split()[0])  # what min_score would let the entry in
    assert 0.5 < best < 1000
    with open(cfg, "w") as fh:  # another size: the hook's config snapshot sees the change
        fh.write("[recall]\nmin_score = 0.5\n")
    assert "advisory locks" in ask(project, PROMPT, sid="cccccccc-0000-0000-0000-000000000003")


def test_a_corrupt_index_is_removed_and_the_worker_builds_it_again(project):
    path = paths.recall_index_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(b"this is not a database" * 100)
    assert ask(project, PROMPT, index_first=False) is None  # the prompt never waits for a build
    last = hook_log(paths.claude_dir())[-1]
    assert " index=damaged " in last and "index task queued, worker pid" in last, last
    spawned_workers_gone(timeout=120)
    assert "advisory locks" in ask(project, PROMPT, sid="another", index_first=False)


def test_an_index_damaged_inside_is_removed_and_the_worker_builds_it_again(project):
    """A valid header over damaged pages (what a power loss can leave, since the cache does not wait
    for the disk) fails at the first query, not at open: the index is removed and built again."""
    mem = paths.memory_dir(project)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(NOW - i, f"Filler choice {i} about naming",
                                                                    "w" * 300)
                                                       for i in range(300)])
    assert "advisory locks" in ask(project, PROMPT)
    path = paths.recall_index_file()
    size = os.path.getsize(path)
    assert size > 20 * 4096  # pages of SQLite's default 4096 bytes
    with open(path, "r+b") as fh:  # keep the first 15 pages (schema, meta, the root of each table),
        for page in range(15, size // 4096):  # ruin the rest: it opens, then the search fails
            fh.seek(page * 4096)
            fh.write(b"\xff" * 4096)
    assert ask(project, PROMPT, sid="another", index_first=False) is None
    assert " index=damaged " in hook_log(paths.claude_dir())[-1]
    spawned_workers_gone(timeout=120)
    assert "advisory locks" in (ask(project, PROMPT, sid="a third", index_first=False) or "")


# --- the similarity bar (ADR 0020): the hook asks the embedder, through its socket -------------------

NIGHTLY = "Nightly runs of the deploy job are logged to the ops channel"  # one group: under the strength bar
LOCKS = "Use Postgres advisory locks for the deployment scheduler"


def write_recall_config(home, text: str) -> None:
    cfg = os.path.join(str(home), ".config", "lazy-harness", "config.toml")
    os.makedirs(os.path.dirname(cfg), exist_ok=True)
    with open(cfg, "w") as fh:
        fh.write("[recall]\n" + text)


def test_the_similarity_bar_decides_with_the_vectors_kept_beside_the_entries(project):
    """The prompt's vector is made in the hook; the entries' were made when the writer indexed them
    and are kept in the index."""
    from lazy_harness.recall.embed import static_model

    ms.write_jsonl(os.path.join(paths.memory_dir(project), files.DECISIONS), [ms.decision(NOW, NIGHTLY, "audit")])
    text = ask(project, PROMPT)
    last = hook_log(paths.claude_dir())[-1]
    scored = re.search(r" semantic=(\d+)/(\d+) best_sim=(\d\.\d\d) ", last)
    assert scored and int(scored.group(1)) >= 1, last
    conn = store.connect(paths.recall_index_file())
    try:  # every text of every entry has its vector now: the next prompt waits for nothing
        have, total = ms.vector_counts(conn, static_model.MODEL_ID)
    finally:
        conn.close()
    assert total > 0 and have == total
    assert "advisory locks" in text


def test_vectors_survive_a_restart_and_only_an_edited_entry_is_embedded_again(project):
    from lazy_harness.recall.embed import static_model

    ask(project, PROMPT)
    conn = store.connect(paths.recall_index_file())
    try:
        before = dict(conn.execute("SELECT key, v FROM vec").fetchall())
    finally:
        conn.close()
    path = os.path.join(paths.memory_dir(project), files.DECISIONS)
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    lines[1] = lines[1].replace("Keep the stylesheet in one file", "Keep the stylesheet in two files")
    with open(path, "w", encoding="utf-8") as fh:  # edited by hand: the whole file is read again
        fh.write("\n".join(lines) + "\n")
    ask(project, PROMPT, sid="after-edit")
    conn = store.connect(paths.recall_index_file())
    try:
        after = dict(conn.execute("SELECT key, v FROM vec").fetchall())
        have, total = ms.vector_counts(conn, static_model.MODEL_ID)
    finally:
        conn.close()
    assert have == total
    added = set(after) - set(before)
    assert all(after[k] == before[k] for k in before if k in after)  # kept, not made again
    assert len(added) == 1, added  # the edited entry's whole text alone


def test_with_semantic_off_the_log_says_so(project, isolated_home):
    write_recall_config(isolated_home, "semantic = false\n")
    assert "advisory locks" in ask(project, PROMPT)
    assert " semantic=off " in hook_log(paths.claude_dir())[-1]
