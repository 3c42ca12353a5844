"""Handoff items: the fold, what an answer opens and closes, handoff.md and its hand edits."""

import json
import os
import random
import subprocess
import sys

import pytest

from lazy_harness import paths
from lazy_harness.memory import files, handoff, handoff_answer, handoff_markdown, held, ids, store
from lazy_harness.recall.readback import digest as recall

NOW = 1_760_000_000.0
DAY = 86400.0
A = {"project": "proj", "session_id": "sess-a", "task_id": "t-a"}
B = {"project": "proj", "session_id": "sess-b", "task_id": "t-b"}


@pytest.fixture
def mdir(tmp_path) -> str:
    folder = str(tmp_path / "memory")
    os.makedirs(folder)
    return folder


def state_of(mdir: str) -> dict:
    return handoff.fold(handoff.read_records(mdir) or [])


def open_texts(mdir: str) -> list[str]:
    return [i["text"] for i in handoff.open_items(handoff.load(mdir)[0])]


def state_bytes(mdir: str) -> bytes:
    try:
        with open(os.path.join(mdir, handoff.STATE), "rb") as fh:
            return fh.read()
    except FileNotFoundError:
        return b""


def answer(mdir, opened=(), closed=(), meta=A, when=NOW, now=None):
    return handoff_answer.apply_answer(mdir, list(opened), list(closed), meta, when, now if now is not None else when)


# --- the fold -------------------------------------------------------------------------------------

def _records() -> list[dict]:
    recs = []
    for k in range(6):
        text = f"item {k}"
        recs.append(handoff.record("open", text, "s1", "t1", NOW + k))
        recs.append(handoff.record("open", text.upper(), "s2", "t2", NOW + 10 + k))  # restated later
        if k % 2:
            recs.append(handoff.record("close", text, "s3", "t3", NOW + 5 + 2 * k))
    recs.append(handoff.record("open", "tie", "s1", "t1", NOW + 50))
    recs.append(handoff.record("close", "tie", "s9", "t9", NOW + 50))  # same time: the close wins
    return recs


def test_fold_of_lines_in_any_order_gives_the_same_state():
    recs = _records()
    want = handoff.fold(recs)
    rng = random.Random(7)
    for _ in range(50):
        shuffled = list(recs)
        rng.shuffle(shuffled)
        assert handoff.fold(shuffled) == want
    # two machines' files concatenated, in either order, with a line duplicated by the union
    assert handoff.fold(recs[5:] + recs[:5] + recs[:3]) == want
    assert want[ids.handoff_id("tie")]["state"] == "closed"


def test_close_beats_open_at_the_same_time_and_the_newest_record_wins():
    recs = _records()
    state = handoff.fold(recs)
    for k in range(6):
        item = state[ids.handoff_id(f"item {k}")]
        # item 1 closed at +7, reopened by s2 at +11: open; item 3 closed at +11 vs restated at +13: open;
        # item 5 closed at +15, restated at +15: closed
        assert item.is_open == (k in (0, 1, 2, 3, 4)), (k, item)
    assert state[ids.handoff_id("item 0")]["opened_by"] == "s1"  # the first open, not the restatement
    assert state[ids.handoff_id("item 1")]["opened_by"] == "s2"  # reopened after its close
    five = state[ids.handoff_id("item 5")]
    assert five["closed_by"] == "s3" and five["opened_by"] == "s1"


def test_torn_and_foreign_lines_are_skipped(mdir):
    answer(mdir, ["first"])
    with open(os.path.join(mdir, handoff.STATE), "a", encoding="utf-8") as fh:
        fh.write('{"op": "open", "id": "not-an-id", "text": "x", "ts": "2026-01-01T00:00:00Z"}\n[1, 2]\n{"op": "op')
    assert open_texts(mdir) == ["first"]
    answer(mdir, ["second"], when=NOW + 1)  # the torn line is ended first, so this one parses
    assert open_texts(mdir) == ["first", "second"]


# --- what an answer changes -------------------------------------------------------------------------

def test_open_then_restate_writes_nothing_twice(mdir):
    written, _, _ = answer(mdir, ["fix the flaky test", "write the docs"])
    assert [r["op"] for r in written] == ["open", "open"]
    before = state_bytes(mdir)
    hid = ids.handoff_id("fix the flaky test")
    for again in (["fix the flaky test", "write the docs"], ["  FIX the flaky test! "],
                  [f"[{hid}] fix the flaky test, reworded"]):
        written, notes, problems = answer(mdir, again, meta=B, when=NOW + 60)
        # why restate records: B said the item is still open, which keeps a close of it closed when B
        # is read again (memory/handoff_log.py); once per session and item, and they open nothing
        assert all(r["op"] == "restate" for r in written) and problems == [] and notes
    after = state_bytes(mdir)
    assert after.startswith(before)
    added = [json.loads(line) for line in after[len(before):].decode().splitlines()]
    assert [(r["op"], r["session_id"]) for r in added] == [("restate", B["session_id"])] * 2
    assert open_texts(mdir) == ["fix the flaky test", "write the docs"]


def test_empty_answer_changes_nothing(mdir):
    answer(mdir, ["keep me"])
    before = (state_bytes(mdir), os.stat(os.path.join(mdir, files.HANDOFF)).st_mtime_ns)
    assert answer(mdir, [], [], meta=B, when=NOW + DAY) == ([], [], [])
    assert (state_bytes(mdir), os.stat(os.path.join(mdir, files.HANDOFF)).st_mtime_ns) == before


def test_close_by_id_and_by_exact_text(mdir):
    answer(mdir, ["one", "Two things", "three"])
    written, _, problems = answer(mdir, closed=[ids.handoff_id("one"), "  two THINGS. "], meta=B, when=NOW + 5)
    assert problems == [] and [(r["op"], r["text"]) for r in written] == [("close", "one"), ("close", "Two things")]
    assert open_texts(mdir) == ["three"]
    closed = handoff.closed_items(state_of(mdir))
    assert {i["text"]: i["closed_by"] for i in closed} == {"one": "sess-b", "Two things": "sess-b"}
    assert written[0]["ts"] == handoff.stamp(NOW + 5)  # the session's time


def test_a_close_by_id_closes_that_item_even_when_an_older_items_text_is_its_id(mdir):
    """The page's Close button sends the item's id; an older item whose text is that id (handoff text
    is the model's or a synced machine's) is not the one closed."""
    from lazy_harness.memory import by_hand

    target = ids.handoff_id("Rerun the flaky e2e test")
    answer(mdir, [target])  # the decoy, opened first
    answer(mdir, ["Rerun the flaky e2e test"], meta=B, when=NOW + 5)
    assert by_hand.open_item(mdir, target) == (target, "Rerun the flaky e2e test")
    assert by_hand.open_item(mdir, f"[{target}]")[0] == target
    assert by_hand.open_item(mdir, ids.handoff_id(target)) == (ids.handoff_id(target), target)  # the decoy by id


def test_unknown_id_or_text_is_ignored_and_reported(mdir):
    answer(mdir, ["one"])
    before = state_bytes(mdir)
    written, _, problems = answer(mdir, closed=["h-00000000", "a text never opened"], meta=B, when=NOW + 5)
    assert written == [] and state_bytes(mdir) == before
    assert problems == ["handoff_closed: no open item 'h-00000000'; ignored",
                        "handoff_closed: no open item 'a text never opened'; ignored"]


def test_an_older_session_reprocessed_cannot_reopen_what_a_newer_one_closed(mdir):
    answer(mdir, ["migrate the table"], meta=A, when=NOW)
    answer(mdir, closed=["migrate the table"], meta=B, when=NOW + 3600)
    before = state_bytes(mdir)
    # session A again (handoff-now --session A, or its task re-queued): its time is its transcript's
    written, notes, _ = answer(mdir, ["migrate the table", "a new item of A"], meta=A, when=NOW, now=NOW + DAY)
    assert [r["text"] for r in written] == ["a new item of A"]
    assert any("closed by a newer session" in n for n in notes)
    assert open_texts(mdir) == ["a new item of A"]
    assert handoff.read_records(mdir)[-1]["ts"] == handoff.stamp(NOW)  # never stamped "now"
    assert len(state_bytes(mdir)) > len(before)
    # and an older session's close cannot close what a newer one restated
    answer(mdir, ["restated"], meta=B, when=NOW + 7200)
    written, notes, _ = answer(mdir, closed=["restated"], meta=A, when=NOW + 100)
    assert written == [] and "restated" in open_texts(mdir)


def test_a_newer_session_reopens_a_closed_item(mdir):
    answer(mdir, ["flaky test"], meta=A, when=NOW)
    answer(mdir, closed=["flaky test"], meta=B, when=NOW + 10)
    answer(mdir, ["flaky test"], meta=B, when=NOW + DAY)
    item = handoff.open_items(state_of(mdir))[0]
    assert item["text"] == "flaky test" and item["opened_by"] == "sess-b"
    assert item["opened"] == handoff.stamp(NOW + DAY)


# --- handoff.md -------------------------------------------------------------------------------------

def read_md(mdir: str) -> str:
    with open(os.path.join(mdir, files.HANDOFF), encoding="utf-8") as fh:
        return fh.read()


def test_rendered_markdown_lists_open_items_with_id_time_session_and_stale_mark(mdir):
    answer(mdir, ["old item"], meta=A, when=NOW - 20 * DAY, now=NOW)
    answer(mdir, ["new item"], meta=B, when=NOW, now=NOW)
    text = read_md(mdir)
    lines = text.split("\n")
    assert lines[0] == handoff_markdown.TITLE and lines[1].startswith(files.HANDOFF_MARK + " session=sess-b task=t-b")
    old, new = ids.handoff_id("old item"), ids.handoff_id("new item")
    marker = files.marker_fields(lines[1])
    assert marker["ids"] == f"{old},{new}" and marker["project"] == "proj"
    i = lines.index(f"- [{old}] old item")
    assert lines[i + 1].startswith("  opened ") and "by session sess-a; stale: open 20 days" in lines[i + 1]
    j = lines.index(f"- [{new}] new item")
    assert "by session sess-b" in lines[j + 1] and "stale" not in lines[j + 1]
    assert not handoff_markdown.edited(*handoff_markdown.parse_markdown(text))


def test_hand_added_and_hand_deleted_lines_become_items(mdir):
    answer(mdir, ["keep", "delete me", "tick me"], meta=A, when=NOW)
    text = read_md(mdir)
    kept, gone, ticked = (ids.handoff_id(t) for t in ("keep", "delete me", "tick me"))
    text = text.replace(f"- [{gone}] delete me\n", "").replace(f"- [{ticked}]", f"- [x] [{ticked}]")
    text += "- added by hand\n"
    path = os.path.join(mdir, files.HANDOFF)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.utime(path, (NOW + 100, NOW + 100))
    # a reader already sees the edit; nothing is written by reading
    before = state_bytes(mdir)
    assert open_texts(mdir) == ["keep", "added by hand"]
    assert state_bytes(mdir) == before
    # the next writer records it before its own change
    written, _, _ = answer(mdir, ["from the answer"], meta=B, when=NOW + 200)
    by_hand = [(r["op"], r["text"]) for r in written if r["session_id"] == handoff_markdown.HAND_EDIT]
    assert sorted(by_hand) == [("close", "delete me"), ("close", "tick me"), ("open", "added by hand")]
    assert open_texts(mdir) == ["keep", "added by hand", "from the answer"]
    closed = {i["text"]: i for i in handoff.closed_items(state_of(mdir))}
    assert closed["delete me"]["closed_by"] == handoff_markdown.HAND_EDIT and closed["delete me"]["reason"]
    assert closed["delete me"]["closed"] == handoff.stamp(NOW + 100)  # when the file was edited
    assert f"- [{kept}] keep" in read_md(mdir)
    assert not handoff_markdown.edited(*handoff_markdown.parse_markdown(read_md(mdir)))
    # done once: the next writer finds nothing to import
    assert answer(mdir, ["from the answer"], meta=B, when=NOW + 300)[0] == []


def _hand_write(mdir, text, mtime):
    path = os.path.join(mdir, files.HANDOFF)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.utime(path, (mtime, mtime))


@pytest.mark.parametrize("text, left", [
    ("\n", []),  # emptied to a blank line (a 0-byte file is read as missing: an editor saving in place)
    ("# my list\n\n- write the changelog\n", ["write the changelog"]),  # rewritten as the person's own list
    ("- [h-00000000] keep\n", ["keep"])])  # the header comment deleted, one line kept
def test_a_handoff_md_without_its_header_closes_what_it_no_longer_lists(mdir, text, left):
    """Emptying handoff.md, or writing one's own list over it, closes the items the last render listed
    and the file no longer holds; before, every item came back at the next render."""
    answer(mdir, ["keep", "fix the flaky test", "document the queue"], meta=A, when=NOW)
    _hand_write(mdir, text.replace("h-00000000", ids.handoff_id("keep")), NOW + 100)
    assert open_texts(mdir) == left  # a reader sees it at once
    answer(mdir, ["next thing"], meta=B, when=NOW + 200)
    assert open_texts(mdir) == [*left, "next thing"]
    assert not any(t in read_md(mdir) for t in {"keep", "fix the flaky test", "document the queue"} - set(left))


def test_an_item_closed_then_added_back_by_hand_stays_when_the_clock_is_behind_the_close(mdir):
    """The close carries a later time than the edit's mtime (a machine's clock ahead, or this one's
    stepped back): the person's line still opens the item again, as a deleted line closes one."""
    answer(mdir, ["rerun the flaky e2e test", "other"], meta=A, when=NOW)
    answer(mdir, [], ["rerun the flaky e2e test"], meta=B, when=NOW + 2000)
    _hand_write(mdir, read_md(mdir) + "- rerun the flaky e2e test\n", NOW + 1500)
    assert open_texts(mdir) == ["other", "rerun the flaky e2e test"]
    answer(mdir, ["next thing"], meta=B, when=NOW + 2100)
    assert "rerun the flaky e2e test" in open_texts(mdir) and "rerun the flaky e2e test" in read_md(mdir)


def test_legacy_handoff_md_without_state_is_imported(mdir):
    legacy = ("# Open items for the next session\n"
              "<!-- lazy-harness handoff session=old-sess task=1-old written=2025-10-09T08:53:20+00:00"
              " project=p -->\n\n"
              "Written 2025-10-09T08:53:20+00:00 at the end of session old-sess.\n\n"
              "- first legacy item\n- second one\n  continued here\n- [x] done already\n")
    with open(os.path.join(mdir, files.HANDOFF), "w", encoding="utf-8") as fh:
        fh.write(legacy)
    assert open_texts(mdir) == ["first legacy item", "second one continued here"]  # read back as is
    answer(mdir, ["new"], meta=B, when=NOW + DAY)
    state = state_of(mdir)
    first = state[ids.handoff_id("first legacy item")]
    assert first.is_open and first["opened_by"] == "old-sess" and files.iso_epoch(first["opened"]) == 1760000000.0
    assert open_texts(mdir) == ["first legacy item", "second one continued here", "new"]


def test_hand_written_file_without_marker_is_imported_as_hand_edit(mdir):
    path = os.path.join(mdir, files.HANDOFF)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("# my notes\n\n- do this\n* and that\n")
    os.utime(path, (NOW, NOW))
    answer(mdir, [], ["do this"], meta=B, when=NOW + 10)
    state = state_of(mdir)
    assert [i["text"] for i in handoff.open_items(state)] == ["and that"]
    assert state[ids.handoff_id("do this")]["opened_by"] == handoff_markdown.HAND_EDIT


def test_merge_markdown_opens_only_what_is_not_open(mdir):
    answer(mdir, ["already open"], meta=A, when=NOW)
    text = "- already open\n- [ ] brand new\n- [x] finished\n- brand new\n"
    assert handoff.merge_markdown(mdir, text, NOW + 5, "migration") == 1
    assert handoff.merge_markdown(mdir, text, NOW + 6, "migration") == 0
    item = state_of(mdir)[ids.handoff_id("brand new")]
    assert item["opened_by"] == "migration" and item["opened"] == handoff.stamp(NOW + 5)
    assert "brand new" in read_md(mdir)


# --- through the store and the read-back ---------------------------------------------------------------

def test_store_plan_shows_changes_and_problems_and_apply_agrees(tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    mdir_, ldir = paths.memory_dir(str(project)), paths.learnings_dir()
    meta = {**A, "session_time": NOW}
    store.persist({"handoff": ["one", "two"]}, mdir_, ldir, meta, NOW + 999)
    assert handoff.read_records(mdir_)[0]["ts"] == handoff.stamp(NOW)  # session time, not processing time
    p = store.plan({"handoff": ["two", "three"], "handoff_closed": ["one", "h-12345678"]}, mdir_, ldir,
                   {**B, "session_time": NOW + 50}, NOW + 999)
    assert [(r[0], r[2]) for r in p.describe()] == [
        ("close", f"[{ids.handoff_id('one')}] one"), ("open", f"[{ids.handoff_id('three')}] three"),
        ("keep", f"still open: [{ids.handoff_id('two')}] two")]
    assert p.problems == ["handoff_closed: no open item 'h-12345678'; ignored"]
    report = store.apply(p)
    assert (report.handoff, report.opened, report.closed) == ("written", 1, 1)
    assert store.read_handoff(mdir_)["items"] == ["two", "three"]


def test_recall_shows_ids_opened_time_and_stale_marks(mdir):
    answer(mdir, ["ancient"], meta=A, when=NOW - 30 * DAY)
    answer(mdir, ["fresh"], meta=B, when=NOW - DAY)
    head, items = recall._handoff(mdir, NOW, 14, held.Screen(set()), {})
    assert "2" not in head[1] and any("stale" in h for h in head)
    old = ids.handoff_id("ancient")
    # newest first: the order the budget keeps them in (the digest prints them back in date order)
    assert items[1].startswith(f"- open item {old}, ")
    assert "from session sess-a: ancient; stale: open 30 days" in items[1]
    assert items[0].startswith(f"- open item {ids.handoff_id('fresh')}, ") and items[0].endswith(": fresh")
    _, items = recall._handoff(mdir, NOW, 60, held.Screen(set()), {})  # none stale, none dropped
    assert len(items) == 2 and not any("stale" in i for i in items)


# --- two sessions at once: real processes ------------------------------------------------------------

WRITER = r"""
import os, sys
from lazy_harness.memory import store
mdir, ldir, name, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
print("ready", flush=True)
sys.stdin.readline()  # the start signal: every writer is ready before any starts
for r in range(rounds):
    meta = {"project": "proj", "session_id": name, "task_id": f"{name}-{r}", "session_time": 1760000000.0 + r}
    store.persist({"handoff": [f"{name} item {r}.{j}" for j in range(3)]}, mdir, ldir, meta, 1760000000.0 + r)
"""


def test_two_sessions_distilled_at_once_both_keep_their_items(tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    mdir_, ldir = paths.memory_dir(str(project)), paths.learnings_dir()
    os.makedirs(mdir_)
    names, rounds = ("s1", "s2", "s3"), 15
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, mdir_, ldir, n, str(rounds)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE) for n in names]
    assert [p.stdout.readline() for p in procs] == [b"ready\n"] * 3
    for p in procs:
        p.stdin.write(b"go\n")
        p.stdin.flush()
    assert [p.wait(timeout=60) for p in procs] == [0, 0, 0]
    for p in procs:
        p.stdin.close()
        p.stdout.close()
    records = handoff.read_records(mdir_)
    want = {f"{n} item {r}.{j}" for n in names for r in range(rounds) for j in range(3)}
    assert sorted(r["text"] for r in records) == sorted(want)  # each opened exactly once
    assert set(open_texts(mdir_)) == want
    marker, lines = handoff_markdown.parse_markdown(read_md(mdir_))
    assert not handoff_markdown.edited(marker, lines) and len(lines) == len(want)


def test_records_are_json_lines_in_the_documented_shape(mdir):
    answer(mdir, ["x"])
    answer(mdir, closed=["x"], meta=B, when=NOW + 1)
    with open(os.path.join(mdir, handoff.STATE), encoding="utf-8") as fh:
        lines = [json.loads(line) for line in fh]
    assert [list(r) for r in lines] == [["op", "id", "text", "session_id", "task_id", "ts"]] * 2
    assert lines[1]["op"] == "close" and lines[1]["id"] == lines[0]["id"] == ids.handoff_id("x")


def test_hostile_project_name_cannot_forge_the_digest_or_close_items(mdir):
    meta = {**A, "project": "evil --> digest=00000000 ids=h-00000000 session=x"}
    handoff_answer.apply_answer(mdir, ["stays open", "-> arrow --> item"], [], meta, NOW, NOW)
    text = read_md(mdir)
    header = text.split("\n")[1]
    assert header.count("-->") == 1 and header.endswith(" -->")
    marker, lines = handoff_markdown.parse_markdown(text)
    assert marker["session"] == "sess-a" and marker["ids"].count("h-") == 2
    assert not handoff_markdown.edited(marker, lines)
    written = answer(mdir, ["stays open"], meta=B, when=NOW + 1)[0]
    assert not [r for r in written if r.get("session_id") == handoff_markdown.HAND_EDIT]  # nothing read as a hand edit
    assert open_texts(mdir) == ["stays open", "-> arrow --> item"]


def test_the_read_back_cache_follows_every_change_of_the_log_and_the_file(tmp_path):
    mdir = str(tmp_path / "mem")
    meta = {"session_id": "s1", "task_id": "t1"}
    handoff_answer.apply_answer(mdir, ["first item", "second item"], [], meta, NOW - 100, NOW)
    cache = os.path.join(mdir, handoff.OPEN_CACHE)
    assert os.path.exists(cache)
    texts = lambda: [i["text"] for i in handoff.open_for_reading(mdir)]  # noqa: E731
    assert texts() == ["first item", "second item"] == [i["text"] for i in handoff.open_items(handoff.load(mdir)[0])]
    # a record appended without a render (a writer killed in between): the stamp no longer matches
    handoff.append(mdir, [handoff.record("close", "first item", "s2", "t2", NOW - 50)])
    assert texts() == ["second item"]
    # a hand edit of handoff.md
    path = os.path.join(mdir, files.HANDOFF)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write("- added by hand\n")
    assert "added by hand" in texts()
    # a cache that lies (same stamp, other items) is what readers would trust: prove it is read
    handoff.write_markdown(mdir, meta, NOW)
    with open(cache, encoding="utf-8") as fh:
        data = json.load(fh)
    data["open"] = [{**data["open"][0], "text": "from the cache"}]
    handoff.atomic_write(cache, json.dumps(data))
    assert texts() == ["from the cache"]
    os.unlink(cache)
    assert "second item" in texts()


def test_items_of_one_answer_keep_their_order_whatever_the_sub_millisecond_time(tmp_path):
    texts = [f"item number {n}" for n in range(12)]
    for base in (NOW + 0.0005, NOW + 0.0015, NOW + 0.9995, NOW + 0.25):
        mdir = str(tmp_path / f"m{base}")
        handoff_answer.apply_answer(mdir, texts, [], {"session_id": "s", "task_id": "t"}, base, base)
        assert [i["text"] for i in handoff.open_items(handoff.load(mdir)[0])] == texts, base
