"""recall/readback/digest.py: what a new session is told, in which order, within which budget."""

import json
import os
import re
import time

import pytest
import yaml

from tests.support import memory_samples as ms
from lazy_harness import config, paths
from lazy_harness.memory import files, ids
from lazy_harness.recall.readback import digest as recall
from lazy_harness.recall.readback import learnings as heads
from lazy_harness.memory.fence import FENCE

APPROVED = "approved by hand"  # a learning the person approved: shown in every project (ADR 0032)
NOW = time.time()
NOON = time.mktime(time.localtime(NOW)[:3] + (12, 0, 0, 0, 0, -1))  # seconds apart stay on one day


def cfg(**context) -> dict:
    values = config.defaults()
    values["context"].update(context)
    return values


@pytest.fixture
def project(tmp_path):
    return ms.make_project(tmp_path, "proj", branch="feature/read-back")


def mem(project) -> str:
    return paths.memory_dir(project, os.environ)


def ldir() -> str:
    return paths.learnings_dir(None, os.environ)


def build(project, **context):
    """The digest as SessionStart builds it (with the queue's word on failing distillation)."""
    from lazy_harness.hooks.session_start import trouble_of

    return recall.digest(project, cfg(**context), os.environ, NOW, "startup", trouble=trouble_of(os.environ))


def small_memory(project) -> None:
    m = mem(project)
    ms.write_handoff(m, ["wire the SessionStart hook", "document the budget"], "sess-aaa", NOW - 2 * ms.DAY)
    ms.write_jsonl(os.path.join(m, files.FAILURES), [
        ms.failure(NOW - 3 * ms.DAY, "pytest collected a stale worktree", "the worktree folder is in .gitignore"),
    ])
    ms.write_jsonl(os.path.join(m, files.DECISIONS), [
        ms.decision(NOW - 4 * ms.DAY, "hooks read files, never run git", "a git subprocess costs 5 ms"),
    ])
    ms.write_learning(ldir(), "Tail reads keep hooks flat", "proj", NOW - 5 * ms.DAY,
                      learning="Reading a JSONL file backwards costs the same at any size.")


def test_empty_project_gives_nothing(project):
    text, stats = build(project)
    assert text is None
    assert stats["shown"] == {"handoff": 0, "failures": 0, "decisions": 0, "learnings": 0}
    assert not os.path.exists(mem(project))  # reading never creates the memory dir


def test_other_projects_learnings_alone_give_nothing(project):
    ms.write_learning(ldir(), "someone else's lesson", "elsewhere", NOW - ms.DAY)
    text, stats = build(project)
    assert text is None and stats["learning_candidates"] == 1 and stats["own_learnings"] == 0


def test_own_learnings_alone_are_memory(project):
    ms.write_learning(ldir(), "a lesson of this project", "proj", NOW - 2 * ms.DAY)
    ms.write_learning(ldir(), "someone else's lesson", "elsewhere", NOW - ms.DAY, deprecated_reason=APPROVED)
    text, stats = build(project)
    assert text.index("a lesson of this project") < text.index("someone else's lesson")
    assert stats["shown"]["learnings"] == 2


def test_sections_in_priority_order_each_naming_its_source(project):
    small_memory(project)
    text, stats = build(project)
    lines = text.split("\n")
    assert lines[0] == FENCE and "proj" in lines[1] and mem(project) in text
    order = [text.index(s) for s in ("wire the SessionStart hook", "the worktree folder is in .gitignore",
                                     "hooks read files, never run git", "Tail reads keep hooks flat")]
    assert order == sorted(order)
    headings = [ln for ln in lines if ln.startswith("## ")]
    assert len(headings) == 4
    for heading, source in zip(headings, ("handoff.md", "failures.jsonl", "decisions.jsonl", "learnings/"),
                               strict=True):
        assert source in heading, heading
    # each open item with its id, and when and by which session it was opened
    opened = ms.iso(NOW - 2 * ms.DAY)[:16].replace("T", " ")
    assert (f"- open item {ids.handoff_id('wire the SessionStart hook')}, {opened}, from session sess-aaa: "
            "wire the SessionStart hook") in text
    assert "a git subprocess costs 5 ms" in text  # the decision's rationale
    day = ms.iso(NOW - 5 * ms.DAY)[:10]
    assert f"learnings/{day[:7]}/{day}-tail-reads-keep-hooks-flat.md" in text
    assert stats["shown"] == {"handoff": 2, "failures": 1, "decisions": 1, "learnings": 1}
    assert stats["chars"] == len(text)


def test_plain_statements_not_instructions(project):
    small_memory(project)
    text, _ = build(project)
    for phrase in ("you must", "you should", "important:", "always ", "never forget", "system:", "<system"):
        assert phrase not in text.lower()


def test_budget_fair_shares_then_priority_with_an_accurate_left_out_line(project):
    m = mem(project)
    ms.write_handoff(m, [f"open item {i} " + "h" * 80 for i in range(3)], "sess-b", NOW - ms.DAY)
    ms.write_jsonl(os.path.join(m, files.FAILURES),
                   [ms.failure(NOW - ms.DAY + i, f"failure {i}", f"prevention {i} " + "p" * 150) for i in range(5)])
    ms.write_jsonl(os.path.join(m, files.DECISIONS),
                   [ms.decision(NOW - ms.DAY + i, f"decision {i}", "r" * 100) for i in range(8)])
    for i in range(6):
        ms.write_learning(ldir(), f"learning {i}", "proj", NOW - ms.DAY - i)
    # why 1700: every item carries its kind, id, date and origin and the block opens with the fence line
    text, stats = build(project, max_chars=1700)
    assert len(text) <= 1700
    shown, left = stats["shown"], stats["left_out"]
    assert all(f"open item {i}" in text for i in range(3 - shown["handoff"], 3))  # the newest kept
    # fairness: every non-empty section keeps a share, so each shows something; the rest went by priority
    order = ("handoff", "failures", "decisions", "learnings")
    assert all(shown[s] >= 1 for s in order), (shown, left, text)
    assert left["learnings"] >= 1 and shown["failures"] >= shown["learnings"]
    for s in order:
        assert shown[s] + left[s] == stats["available"][s]
    last = text.split("\n")[-1]
    assert last.startswith("Left out for space:") and "lh memory show" in last
    counted = re.finditer(r"(\d+) (open items?|failures?|decisions?|learnings?)", last)
    said = {m.group(2): int(m.group(1)) for m in counted}
    named = {"open item": "handoff", "open items": "handoff", "failure": "failures", "failures": "failures",
             "decision": "decisions", "decisions": "decisions", "learning": "learnings", "learnings": "learnings"}
    assert {named[k]: v for k, v in said.items()} == {s: n for s, n in left.items() if n}
    # and the shown items are the newest ones
    assert "failure 4" in text and "prevention 4" in text


def test_everything_fits_so_no_left_out_line(project):
    small_memory(project)
    text, stats = build(project)
    assert "Left out" not in text and not any(stats["left_out"].values())


@pytest.mark.parametrize("budget", [0, 40, 300])
def test_tiny_budgets_are_respected(project, budget):
    small_memory(project)
    text, _ = build(project, max_chars=budget)
    assert text is None or len(text) <= budget


@pytest.mark.parametrize("budget", [200, 300, 420])
def test_a_small_budget_never_cuts_the_header_or_the_footer_mid_word(project, budget):
    """Below what the header and one item need (the config refuses such a value; the builder does not
    trust it), whole lines are dropped, the footer first: never a line cut short."""
    small_memory(project)
    whole = build(project)[0].splitlines()
    text, _ = build(project, max_chars=budget)
    assert text is None or len(text) <= budget
    for line in (text or "").splitlines():
        footer = line.startswith("Left out for space: ") and line.endswith("`lh memory show --all` prints all of it.")
        assert line in whole or footer, (budget, line)


def test_the_store_and_the_config_agree_on_the_hard_cap():
    assert recall.CONTEXT_HARD_CAP == config.CONTEXT_HARD_CAP


def test_never_over_the_hard_cap_even_when_config_is_bypassed(project):
    m = mem(project)
    ms.write_handoff(m, [f"item {i} " + "x" * 400 for i in range(40)], "sess-c", NOW)
    text, stats = build(project, max_chars=50_000)
    assert len(text) <= config.CONTEXT_HARD_CAP
    assert stats["max_chars"] == config.CONTEXT_HARD_CAP


def test_large_memory_is_bounded_and_shows_the_newest(project):
    facts = ms.build_large(project, os.environ, NOW)
    text, stats = build(project)
    assert len(text) <= 6000
    assert facts["newest_decision"] in text
    assert facts["newest_prevention"] in text
    assert facts["oldest_decision"] not in text
    assert "finish the read-back docs" in text
    assert stats["shown"]["decisions"] == 8 and stats["shown"]["failures"] == 5
    # same-origin learnings first: the newest learning of "proj" is number 2997 (i % 3 == 0)
    assert "learning number 2997" in text
    assert stats["learning_candidates"] <= recall.CANDIDATES


def test_learnings_ranked_same_origin_then_recency_then_overlap(project):
    L = ldir()
    day = ms.DAY
    base = NOON - 30 * day
    ms.write_learning(L, "other origin newest", "elsewhere", base + 20 * day, slug="o1", deprecated_reason=APPROVED)
    ms.write_learning(L, "same origin old", "proj", base + 10 * day, slug="s1")
    ms.write_learning(L, "same origin plain", "proj", base + 12 * day, slug="s2")
    ms.write_learning(L, "same origin about read-back", "proj", base + 12 * day - 60, slug="s3")
    ms.write_learning(L, "proj feature read-back notes", "proj", base + 12 * day - 120, slug="s4")
    ms.write_learning(L, "deprecated one", "proj", base + 25 * day, slug="d1", status="deprecated")
    ms.write_jsonl(os.path.join(mem(project), files.DECISIONS), [ms.decision(NOW, "something", "why")])
    text, stats = build(project, learnings=5)
    titles = [t for t in ("proj feature read-back notes", "same origin about read-back", "same origin plain",
                          "same origin old", "other origin newest") if t in text]
    assert len(titles) == 5
    assert sorted(titles, key=text.index) == titles
    assert "deprecated one" not in text


def test_branch_words_decide_between_learnings_of_one_day(tmp_path):
    L = ldir()
    t = NOON - 3 * ms.DAY
    ms.write_learning(L, "cache invalidation", "proj", t, slug="a")
    ms.write_learning(L, "retry budget", "proj", t - 10, slug="b")
    for branch, first in (("fix/cache-invalidation", "cache invalidation"), ("retry-budget", "retry budget")):
        proj = ms.make_project(tmp_path / branch.replace("/", "_"), "proj", branch=branch)
        ms.write_jsonl(os.path.join(mem(proj), files.DECISIONS), [ms.decision(NOW, "x", "y")])
        text, _ = recall.build_context(proj, cfg(), os.environ, NOW, "startup")
        assert text.index(first) < text.index(({"cache invalidation", "retry budget"} - {first}).pop())


def test_only_the_newest_candidates_are_considered(project, monkeypatch):
    monkeypatch.setattr(recall, "CANDIDATES", 5)
    L = ldir()
    ms.write_learning(L, "old same-origin learning", "proj", NOW - 100 * ms.DAY, slug="old")
    for i in range(5):
        ms.write_learning(L, f"recent foreign {i}", "elsewhere", NOW - i * ms.DAY, slug=f"f{i}")
    ms.write_jsonl(os.path.join(mem(project), files.DECISIONS), [ms.decision(NOW, "x", "y")])
    text, stats = build(project)
    assert "old same-origin learning" not in text
    assert stats["learning_candidates"] == 5


TRICKY = ["plain title", "Use: colons \"and\" quotes", "it's", "- dash first", "ü ñ 日本", "# hash", "  lead",
          "null", "true", "123", "multi\nline\n\nparagraph", "tab\there", "\x07bell", "é\u2028z", "x\u2028\u2028y",
          "a\u2029b", "a\x85b", "a\r\nb", "a #b",
          "trailing ", "back\\slash \"q\"", "x" * 300, "'quoted'", '"dq"', "{brace}", "[bracket]"]


@pytest.mark.parametrize("title", TRICKY)
def test_frontmatter_reader_agrees_with_yaml(tmp_path, title):
    path = ms.write_learning(str(tmp_path / "l"), title, "proj", NOW, slug="t",
                             tags=["yes", "a b", title], learning="The learning text.\nSecond line.")
    with open(path, encoding="utf-8") as fh:
        expected = yaml.safe_load(fh.read().split("---\n")[1])
    head = heads.read_head(path)
    assert head["title"] == expected["title"]
    assert head["tags"] == expected["tags"]
    assert head["origin"] == "proj" and head["status"] == "active" and head["deprecated_by"] is None
    assert head["learning"] == "The learning text. Second line."


def test_frontmatter_reader_tolerates_a_datetime_and_a_long_head(tmp_path):
    path = tmp_path / "2026-01-02-x.md"
    path.write_text("---\ntitle: " + "t" * 6000 + "\ncreated: 2026-01-02 03:04:05.5+00:00\ntags: []\n---\n\n"
                    "## Learning\n\nBody.\n", encoding="utf-8")
    head = heads.read_head(str(path))
    assert head["title"] == "t" * 6000 and head["tags"] == [] and head["learning"] == "Body."
    assert files.iso_epoch(head["created"]) == pytest.approx(1767323045.5)
    assert heads.read_head(str(tmp_path / "missing.md")) is None


@pytest.mark.parametrize("text", ["2026-04-13T18:32:45-03:00", "2026-04-13T21:32:45+00:00",
                                  "2026-12-31T23:59:59.250+05:30", "2024-02-29 12:00:00+01:00"])
def test_iso_epoch_agrees_with_datetime(text):
    import datetime as dt

    assert files.iso_epoch(text) == pytest.approx(dt.datetime.fromisoformat(text).timestamp())


def test_iso_epoch_edge_cases():
    assert files.iso_epoch("2026-04-13T21:32:45Z") == files.iso_epoch("2026-04-13T18:32:45-03:00")
    assert files.iso_epoch("2026-04-13") is not None
    for bad in ("not a date", "", "2026-13-45T99:00:00", None, 42):
        assert files.iso_epoch(bad) is None


def _fail_task(q: str, name: str, mtime: float) -> None:
    folder = os.path.join(q, "failed")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, name)
    with open(path, "w") as fh:
        fh.write("cwd=/x\n")
    with open(path + ".error", "w") as fh:
        fh.write("boom\n")
    os.utime(path, (mtime, mtime))
    os.utime(folder, (mtime, mtime))


def _worker_state(q: str, last_success: float | None) -> None:
    os.makedirs(os.path.join(q, "state"), exist_ok=True)
    data = {"last_success": ms.iso(last_success)} if last_success else {"processed": 0}
    with open(os.path.join(q, "state", "worker.json"), "w") as fh:
        json.dump(data, fh)


def test_failing_distillation_is_one_line(project):
    small_memory(project)
    q = paths.queue_dir(os.environ)
    _fail_task(q, "100-a.task", NOW - 50)
    _fail_task(q, "200-b.task", NOW - 40)
    _worker_state(q, NOW - 45)
    text, stats = build(project)
    note = [ln for ln in text.split("\n") if "lh queue" in ln]
    assert len(note) == 1 and "1 distillation task" in note[0] and ms.iso(NOW - 45) in note[0]
    assert stats["distill_failed"] == 1
    _worker_state(q, NOW - 10)
    text, stats = build(project)
    assert "lh queue" not in text and stats["distill_failed"] == 0
    os.unlink(os.path.join(q, "state", "worker.json"))
    text, stats = build(project)
    assert stats["distill_failed"] == 2 and "none has succeeded" in text


def _done_task(q: str, name: str, mtime: float, outcome: str = "processed") -> None:
    from lazy_harness import queue as spool

    folder = os.path.join(q, "done")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, name)
    with open(path, "w") as fh:
        fh.write(spool.format_task({"cwd": "/x", "outcome": outcome}))
    os.utime(path, (mtime, mtime))


def test_failing_distillation_counts_the_successes_worker_json_has_not_recorded(project):
    """Issue 35, item 6: "1 distillation task failed and none has succeeded yet" while 37 had: a lingering
    worker saves worker.json when its drain ends, and lh distill never does; done/ holds them."""
    from lazy_harness import logfile

    small_memory(project)
    q = paths.queue_dir(os.environ)
    _done_task(q, "300-c.task", NOW - 40)
    _done_task(q, "400-d.task", NOW - 20, outcome="skipped")  # a skip is no success
    _fail_task(q, "100-a.task", NOW - 50)
    text, stats = build(project)
    assert stats["distill_failed"] == 0 and "none has succeeded" not in text and "lh queue" not in text
    _fail_task(q, "500-e.task", NOW - 30)
    text, stats = build(project)
    assert stats["distill_failed"] == 1
    assert f"1 distillation task failed since the last successful one at {logfile.stamp(NOW - 40)}" in text


def test_failing_distillation_is_said_even_without_memory(project):
    ms.write_learning(ldir(), "someone else's lesson", "elsewhere", NOW - ms.DAY)
    _fail_task(paths.queue_dir(os.environ), "100-a.task", NOW - 50)
    text, stats = build(project)
    assert text.split("\n")[-1].startswith("Distillation is failing: 1 distillation task failed")
    assert "someone else's lesson" not in text and len(text.split("\n")) == 4


def test_corrupt_and_mistyped_records_do_not_break_the_rest(project):
    small_memory(project)
    path = os.path.join(mem(project), files.DECISIONS)
    with open(path, "ab") as fh:
        fh.write(b"\xff\xfe not json\n[1, 2]\n")
        fh.write(json.dumps({"ts": 5, "summary": ["a", "list"], "rationale": {"x": 1}}).encode() + b"\n")
        fh.write(b'{"summary": "torn line without newline')
    text, stats = build(project)
    assert "wire the SessionStart hook" in text and "hooks read files" in text
    assert not stats["errors"]


def test_an_unreadable_source_leaves_the_other_sections(project):
    small_memory(project)
    path = os.path.join(mem(project), files.DECISIONS)
    os.unlink(path)
    os.mkdir(path)  # reading a folder fails even as root
    text, stats = build(project)
    assert "wire the SessionStart hook" in text and "Tail reads keep hooks flat" in text
    assert stats["errors"] and stats["errors"][0].startswith("decisions:")


def test_ranking_only_the_top_gives_the_same_top(tmp_path):
    import random

    rnd = random.Random(7)
    learnings = []
    for k in range(300):
        day = f"2026-0{rnd.randint(1, 3)}-1{rnd.randint(0, 2)}"
        learnings.append({"path": f"/k/learnings/{day[:7]}/{day}-l{k}.md", "origin": rnd.choice(["proj", "x", "y"]),
                      "title": " ".join(rnd.sample(["cache", "queue", "hook", "read", "back", "misc", "docs"], 2)),
                      "created": f"{day}T{rnd.randint(10, 23)}:00:00+00:00", "learning": "",
                      "status": rnd.choice(["active"] * 5 + ["deprecated"])})
    full = heads.rank_learnings(learnings, "proj", "read-back")
    assert all(h["status"] == "active" for h in full)
    for n in (0, 1, 6, 50, 400):
        assert heads.rank_learnings(learnings, "proj", "read-back", n) == full[:n]


def test_reads_back_what_the_store_writes(project):
    """The write side (memory/store.py) and this reader agree on every format."""
    from lazy_harness.memory import store

    distilled = {
        "decisions": [{"summary": "Spool tasks as files", "context": "hooks must be fast", "alternatives": ["sqlite"],
                       "rationale": "rename is atomic", "tags": ["queue"]}],
        "failures": [{"summary": "Worker hung on a prompt", "root_cause": "stdin open", "resolution": "devnull",
                      "prevention": "run claude -p with stdin from /dev/null", "tags": []}],
        "learnings": [{"title": "Titles: with 'quotes', \"double\" and # marks",
                       "learning": "First line.\nSecond line.",
                       "context": "Anywhere.", "scope": "general", "tags": ["yaml", "no"]}],
        "handoff": ["check the -> arrow item", "[ ] a box still open"],
    }
    meta = {"project": "proj", "session_id": "sess-store-1", "task_id": "123-abc", "cwd": project}
    store.persist(distilled, mem(project), ldir(), meta, NOW - 60, os.environ)
    text, stats = build(project)
    assert stats["shown"] == {"handoff": 2, "failures": 1, "decisions": 1, "learnings": 1}, stats
    for expected in ("check the -> arrow item", "a box still open", "from session sess-sto:",
                     ms.iso(NOW - 60)[:16].replace("T", " "),
                     "Prevention: run claude -p with stdin from /dev/null.", "Spool tasks as files.",
                     "Rationale: rename is atomic.", "Titles: with 'quotes', \"double\" and # marks",
                     "from session sess-sto in proj: ", ".md): First line. Second line."):
        assert expected in text, (expected, text)


def test_300_long_handoff_items_do_not_push_out_the_newest_prevention(project):
    m = mem(project)
    ms.write_handoff(m, [f"long open item {i} " + "x" * 400 for i in range(300)], "sess-many", NOW - ms.DAY)
    ms.write_jsonl(os.path.join(m, files.FAILURES),
                   [ms.failure(NOW - ms.DAY + i, f"failure {i}", f"prevention number {i}") for i in range(5)])
    ms.write_jsonl(os.path.join(m, files.DECISIONS), [ms.decision(NOW - ms.DAY, "the newest decision", "why")])
    text, stats = build(project)
    assert len(text) <= 6000
    assert "prevention number 4" in text and "the newest decision" in text
    assert stats["shown"]["handoff"] >= 1 and stats["left_out"]["handoff"] >= 250


def test_an_item_added_by_hand_reads_by_hand_not_from_by_hand():
    """Issue 35, item 6: a hand-added handoff item read "from by hand"."""
    from lazy_harness.memory import handoff, handoff_markdown
    from lazy_harness.recall.prompt import rank

    item = handoff.Item(id="h-1a2b3c4d", opened="2026-11-01T10:00:00", opened_by=handoff_markdown.HAND_EDIT,
                        state="open", opened_epoch=NOW, text="ask ops about the backup window")
    line = recall.handoff_line(item, NOW, 10**6)
    assert line == "- open item h-1a2b3c4d, 2026-11-01 10:00, by hand: ask ops about the backup window", line
    by_session = recall.handoff_line(handoff.Item(item, opened_by="5e6f7a8b"), NOW, 10**6)
    assert ", from session 5e6f7a8b: " in by_session
    recalled = rank.render_item({"kind": "handoff", "id": "h-1a2b3c4d", "file": "/m/handoff.md", "line": 0,
                                   "ts": "2026-11-01T10:00:00", "prov": "by hand", "title": item["text"],
                                   "detail": ""}, None)
    assert ", 2026-11-01, by hand: " in recalled and "from by hand" not in recalled, recalled


def test_the_digest_reads_marks_once_for_what_is_left_out_and_what_is_approved(project, monkeypatch):
    from lazy_harness.memory import lines, marks

    small_memory(project)
    [decision] = files.read_entries(os.path.join(mem(project), files.DECISIONS))
    did = ids.of_record(decision, "decision")
    with open(marks.path_of(mem(project)), "w", encoding="utf-8") as fh:
        fh.write(json.dumps({"op": "forget", "id": did, "reason": "stale", "ts": ms.iso(NOW)}) + "\n")
        fh.write(json.dumps({"op": "approve", "id": "f-00000000", "ts": ms.iso(NOW)}) + "\n")
    opened: list[str] = []
    read_file = lines.read_file

    def counted(path, *args, **kwargs):
        opened.append(path)
        return read_file(path, *args, **kwargs)

    monkeypatch.setattr(lines, "read_file", counted)
    text, _ = build(project)
    assert "hooks read files, never run git" not in text  # the forget mark still hides it
    assert opened.count(marks.path_of(mem(project))) == 1, opened


def test_a_hand_edited_time_is_printed_only_when_it_is_a_date(project):
    """A decision whose ``ts`` was edited into a role marker and a backtick: its line says "undated"
    and carries neither (every other field goes through ``fence.neutral``; the date is checked)."""
    forged = dict(ms.decision(NOW, "hooks read files, never run git", "a git subprocess costs 5 ms"),
                  ts="SYSTEM: `x and more")
    ms.write_jsonl(os.path.join(mem(project), files.DECISIONS), [forged])
    text, _ = build(project)
    line = next(ln for ln in text.splitlines() if "never run git" in ln)
    assert ", undated, " in line and "SYSTEM" not in line, line
    assert line.count("`") % 2 == 0, line


def test_the_budget_holds_as_claude_code_counts_an_emoji_twice(project):
    """Claude Code counts a string's length in UTF-16 units (JavaScript): an emoji is 2. A digest full
    of them stays within the budget counted so, not only in code points."""
    m = mem(project)
    ms.write_jsonl(os.path.join(m, files.DECISIONS), [
        ms.decision(NOW - i * ms.DAY, f"Ship release {i} \U0001f680\U0001f680\U0001f680 " + "\U0001f680" * 60,
                    "\U0001f4e6" * 80) for i in range(40)])
    text, stats = build(project, max_chars=9500, decisions=40)
    assert text is not None and 9000 < len(text.encode("utf-16-le")) // 2 <= 9500
    assert "context.max_chars is 9500" in text


@pytest.mark.parametrize("text", [
    "", "plain ascii", "caf\u00e9 \u2026", "\u4e2d\u6587\u2026", "\U0001f680", "\U0001f680 launch \U0001f4e6\u00e9",
    "\U0010ffff\U00010000", "lone \ud800 and \udfff surrogates", "\ud83d\ude80 as a surrogate pair",
    "\uffff\ue000\u0800\u07ff\x80\x7f", "".join(chr(c) for c in range(0x20, 0x3000, 7)) + "\U0001f600" * 5])
def test_the_digest_counts_utf16_units_as_fence_does(text):
    """digest.units counts on the UTF-8 bytes (no UTF-16 codec to load at every start): the same count
    as memory/fence.py's, astral code points, lone surrogates and the BMP's last ones alike."""
    from lazy_harness.memory import fence

    assert recall.units(text) == fence.units(text) == len(text.encode("utf-16-le", "surrogatepass")) // 2


def test_a_start_whose_text_is_not_ascii_loads_no_utf16_codec(project):
    """The digest's count of its text loads no codec module: a cut item's ellipsis made every start
    read encodings/utf_16_le.py from disk."""
    import subprocess
    import sys

    m = mem(project)
    ms.write_jsonl(os.path.join(m, files.DECISIONS), [
        ms.decision(NOW - i * ms.DAY, f"Decision {i} caf\u00e9", "why " * 200) for i in range(10)])
    code = ("import sys, os, time\n"
            "from lazy_harness import config\n"
            "from lazy_harness.recall.readback import digest\n"
            "text, _ = digest.build_context(sys.argv[1], config.defaults(), os.environ, time.time(), 'startup')\n"
            "assert text and not text.isascii(), text\n"
            "print(sorted(m for m in sys.modules if m.startswith('encodings.utf_16')))\n")
    out = subprocess.run([sys.executable, "-c", code, project], capture_output=True, text=True, env=os.environ)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]", out.stdout


def test_a_session_that_wrote_many_entries_still_gets_the_others_at_its_compaction(tmp_path):
    """The running session's own entries are left out at a compact or a resume (ADR 0034): read past
    once by 40 lines, a session that wrote 45 decisions got 4 of the 8 older ones its limit allows."""
    mem = str(tmp_path / "mem")
    older = [ms.decision(NOW - 9000 + i, f"Older decision {i}", session_id="s-old") for i in range(10)]
    own = [ms.decision(NOW - 100 + i, f"Own decision {i}", session_id="s-now") for i in range(45)]
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), older + own)
    got = [r["summary"] for r in recall.live_tail(mem, files.DECISIONS, "decision", 8, set(), "s-now")]
    assert got == [f"Older decision {i}" for i in range(2, 10)]
    # a new session reads no farther than its limit: the newest are its to see
    assert [r["summary"] for r in recall.live_tail(mem, files.DECISIONS, "decision", 3, set(), "s-new")] == [
        "Own decision 42", "Own decision 43", "Own decision 44"]
