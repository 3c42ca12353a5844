"""memory/usage.py and memory/usage_log.py: the showings a hook records, the usage record, the counts
and the feedback order (ADR 0036)."""

import json
import os

from lazy_harness import paths, queue
from lazy_harness.memory import usage, usage_log
from lazy_harness.sync.drivers import merge_lines

SID = "11111111-2222-4333-8444-555555555555"


def test_a_showing_is_one_appended_line_read_back_in_order(isolated_home):
    usage.note(None, SID, "startup", 900, [("f-00000001", 120), ("d-00000002", 80)], 100.0)
    usage.note(None, SID, "prompt", 300, [("l-00000003", 290)], 160.5)
    with open(usage.seen_file(None, SID)) as fh:
        assert len(fh.read().splitlines()) == 2
    got = usage.read_seen(None, SID)
    assert got == [(100.0, "startup", 900, [("f-00000001", 120), ("d-00000002", 80)]),
                   (160.5, "prompt", 300, [("l-00000003", 290)])]


def test_the_seen_file_sits_beside_the_queues_state_of_the_session(isolated_home):
    for sid in (SID, "odd/../id with spaces", ""):
        assert usage.seen_file(None, sid) == queue.state_file(paths.queue_dir(), sid, "seen")


def _mdir(tmp_path) -> str:
    d = tmp_path / "mem"
    d.mkdir()
    return str(d)


def _lines(mdir, *records):
    usage_log.append(mdir, [usage_log.line(op, when, **fields) for op, when, fields in records])


def test_counts_are_of_distinct_sessions_and_the_totals_agree_with_the_entries(isolated_home, tmp_path):
    mdir = _mdir(tmp_path)
    _lines(mdir, ("session", 10.0, {"session": "a", "chars": 500}),
           ("shown", 10.0, {"session": "a", "id": "f-00000001", "chars": 200}),
           ("shown", 10.0, {"session": "a", "id": "d-00000002", "chars": 100}),
           ("used", 11.0, {"session": "a", "id": "f-00000001", "evidence": "echo hi"}),
           ("session", 20.0, {"session": "b", "chars": 300}),
           ("shown", 20.0, {"session": "b", "id": "f-00000001", "chars": 200}),
           ("recurred", 21.0, {"session": "b", "id": "f-00000001"}))
    _lines(mdir, ("shown", 10.0, {"session": "a", "id": "f-00000001", "chars": 200}))  # a repeat counts once
    report = usage_log.tally(usage_log.read(mdir)).report()
    rows = {e["id"]: e for e in report["entries"]}
    assert rows["f-00000001"]["shown"] == 2 and rows["f-00000001"]["used"] == 1 and rows["f-00000001"]["recurred"] == 1
    assert rows["d-00000002"] == {"id": "d-00000002", "kind": "decision", "shown": 1, "used": 0, "recurred": 0,
                                  "last_shown": rows["d-00000002"]["last_shown"], "last_used": None}
    assert rows["f-00000001"]["kind"] == "failure" and rows["f-00000001"]["last_used"].startswith("19")
    assert report["shown"] == sum(e["shown"] for e in report["entries"]) == 3
    assert report["used"] == sum(e["used"] for e in report["entries"]) == 1
    assert report["recurrences"] == 1 and report["sessions"] == 2 and report["injected_chars"] == 800


def test_a_reset_starts_an_entrys_counts_over_and_nothing_is_rewritten(isolated_home, tmp_path):
    mdir = _mdir(tmp_path)
    _lines(mdir, *[("shown", float(k), {"session": f"s{k}", "id": "f-00000001", "chars": 10}) for k in range(6)])
    before = open(usage_log.path_of(mdir)).read()
    usage_log.reset(None, mdir, "f-00000001", 100.0)
    assert open(usage_log.path_of(mdir)).read().startswith(before)  # appended, never rewritten
    assert "f-00000001" not in usage_log.tally(usage_log.read(mdir)).entries
    assert usage.load_ranks(None, mdir, 5).get("f-00000001") == usage.PEER  # the counts the cuts read, too
    _lines(mdir, ("shown", 101.0, {"session": "later", "id": "f-00000001", "chars": 10}))
    assert len(usage_log.tally(usage_log.read(mdir)).entries["f-00000001"].shown) == 1


def test_ranks_used_first_never_used_after_n_sessions_last_each_group_in_its_order(isolated_home, tmp_path):
    mdir = _mdir(tmp_path)
    recs = [("shown", float(k), {"session": f"s{k}", "id": "f-0000000a", "chars": 10}) for k in range(5)]
    recs += [("shown", float(k), {"session": f"s{k}", "id": "f-0000000b", "chars": 10}) for k in range(4)]
    recs += [("shown", 1.0, {"session": "s1", "id": "f-0000000c", "chars": 10}),
             ("used", 2.0, {"session": "s1", "id": "f-0000000c", "evidence": "x"})]
    _lines(mdir, *recs)
    usage_log.refresh_ranks(None, mdir)
    ranks = usage.load_ranks(None, mdir, 5)
    got = {i: ranks.get(i) for i in ("f-0000000a", "f-0000000b", "f-0000000c", "f-0000000d")}
    assert got == {"f-0000000a": usage.UNUSED, "f-0000000b": usage.PEER,  # b: shown 4 times, not yet 5
                   "f-0000000c": usage.USED, "f-0000000d": usage.PEER}
    items = ["f-0000000a", "f-0000000d", "f-0000000b", "f-0000000c", "f-0000000e"]
    assert usage.order(items, str, ranks) == ["f-0000000c", "f-0000000d", "f-0000000b", "f-0000000e", "f-0000000a"]
    assert not usage.load_ranks(None, mdir, 0)  # usage.unused_after = 0: usage changes no order
    assert usage.order(items, str, usage.load_ranks(None, mdir, 0)) == items


def test_lh_sync_merges_usage_lines_from_both_sides_as_a_set(tmp_path):
    base = b""
    a = usage_log.line("shown", 1.0, session="a", id="f-00000001", chars=3)
    b = usage_log.line("used", 2.0, session="b", id="f-00000001", evidence="x")
    ours = (json.dumps(a) + "\n").encode()
    theirs = (json.dumps(b) + "\n" + json.dumps(a) + "\n").encode()
    merged = merge_lines(base, ours, theirs).decode().splitlines()
    assert sorted(merged) == sorted([json.dumps(a), json.dumps(b)])
    attributes = __import__("lazy_harness.sync.repo_setup", fromlist=["ATTRIBUTES"]).ATTRIBUTES
    assert "*.jsonl merge=lh-lines" in attributes  # usage.jsonl is merged by that driver


def test_a_recurrence_is_told_once_per_project(isolated_home):
    usage.keep_recurred(None, "proj-a", ["f-00000001"])
    usage.keep_recurred(None, "proj-b", ["f-00000002"])
    assert usage.untold_recurred(None, "proj-a") == ["f-00000001"]
    usage.told_recurred(None, "proj-a", ["f-00000001"])
    assert usage.untold_recurred(None, "proj-a") == []
    assert usage.untold_recurred(None, "proj-b") == ["f-00000002"]
    assert os.path.exists(os.path.join(paths.state_dir(), usage.RECURRED_TOLD))


def test_the_count_file_finds_each_of_thousands_of_entries(isolated_home, tmp_path):
    mdir = _mdir(tmp_path)
    made = [f"d-{k * 7919:08x}" for k in range(3000)]
    recs = [("shown", float(k % 9), {"session": f"s{k % 9}", "id": eid, "chars": 1}) for k, eid in enumerate(made)]
    recs += [("used", 1.0, {"session": "s0", "id": eid, "evidence": "x"}) for eid in made[::3]]
    recs += [("shown", 2.0, {"session": "other", "id": eid, "chars": 1}) for eid in made[1::3]]
    with open(usage_log.path_of(mdir), "w") as fh:  # one write: 5,000 appends would each fsync
        fh.write("".join(json.dumps(usage_log.line(op, when, **fields)) + "\n" for op, when, fields in recs))
    usage_log.refresh_ranks(None, mdir)
    with open(usage.ranks_file(None, mdir)) as fh:
        assert len(fh.read()) == usage.LINE * 3000
    ranks = usage.load_ranks(None, mdir, 2)
    want = {eid: usage.USED if k % 3 == 0 else usage.UNUSED if k % 3 == 1 else usage.PEER for k, eid in enumerate(made)}
    assert {eid: ranks.get(eid) for eid in made} == want
    assert ranks.get("d-ffffffff") == ranks.get("a") == usage.PEER


def test_after_a_merge_lh_sync_writes_the_counts_again(isolated_home):
    from lazy_harness.sync.rounds import recount_usage

    data = paths.data_dir()
    mdir = os.path.join(paths.memory_root(None), "some-key")
    os.makedirs(mdir)
    _lines(mdir, ("shown", 1.0, {"session": "a", "id": "f-00000001", "chars": 1}),
           ("used", 2.0, {"session": "a", "id": "f-00000001", "evidence": "x"}))
    assert not usage.load_ranks(None, mdir, 5)  # merged in, not counted yet
    recount_usage(data, [os.path.relpath(usage_log.path_of(mdir), data)], None)
    assert usage.load_ranks(None, mdir, 5).get("f-00000001") == usage.USED


def test_a_synced_line_nested_past_the_stack_is_skipped_not_raised(isolated_home, tmp_path):
    # why: usage.jsonl comes from other machines through sync; one hostile line must not stop the round
    mdir = str(tmp_path)
    _lines(mdir, ("shown", 1.0, {"session": "a", "id": "f-00000001", "chars": 1}))
    with open(usage_log.path_of(mdir), "a", encoding="utf-8") as fh:
        fh.write("[" * 200_000 + "\n")
    _lines(mdir, ("used", 2.0, {"session": "a", "id": "f-00000001", "evidence": "x"}))
    assert [rec["op"] for rec in usage_log.read(mdir)] == ["shown", "used"]


def test_the_count_file_finds_an_id_lengthened_past_a_collision_beside_its_short_twin(isolated_home, tmp_path):
    mdir = _mdir(tmp_path)
    made = ["d-6e80f7ab", "d-6e80f7ab9", "d-00000001", "f-6e80f7ab0123456789"]
    recs = [("shown", float(k), {"session": f"s{k}", "id": eid, "chars": 1}) for k, eid in enumerate(made)]
    recs += [("shown", 9.0, {"session": "other", "id": eid, "chars": 1}) for eid in made]
    recs += [("used", 1.0, {"session": "s0", "id": "d-6e80f7ab9", "evidence": "x"})]
    with open(usage_log.path_of(mdir), "w") as fh:
        fh.write("".join(json.dumps(usage_log.line(op, when, **fields)) + "\n" for op, when, fields in recs))
    usage_log.refresh_ranks(None, mdir)
    ranks = usage.load_ranks(None, mdir, 2)
    assert {eid: ranks.get(eid) for eid in made} == {"d-6e80f7ab": usage.UNUSED, "d-6e80f7ab9": usage.USED,
                                                     "d-00000001": usage.UNUSED, "f-6e80f7ab0123456789": usage.UNUSED}
    assert ranks.get("d-6e80f7ab90") == ranks.get("d-6e80f7a") == usage.PEER
