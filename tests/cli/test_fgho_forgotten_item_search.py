"""A forgotten open handoff item is found by ``lh memory search`` (labelled ``[forgotten]``, as a
forgotten decision is) and listed by ``lh memory show`` with the same tag, so a person can bring it
back; prompt recall and the SessionStart read-back never show it; ``lh memory undo`` of the forget
makes it an open item again, listed without a label. An item closed as done stays out of search."""

import json
import os
import time

import pytest

from lazy_harness import config, paths
from lazy_harness.memory import files, handoff, ids
from lazy_harness.recall.prompt import recall as recall_prompt
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()
FORGET = "check the billing ledger export after the cron rerun fix"
KEEP = "ledger refunds report still counts the cron rerun twice"
DONE = "ledger export cron moved to the ops repository"
DECISION = "The billing ledger export keeps a run marker for the cron"


@pytest.fixture
def root(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), [ms.decision(NOW - 60, DECISION, "ledger reruns")])
    ms.write_handoff(mdir, [FORGET, KEEP, DONE], "sess-1", NOW - 120)
    return root


def item_id(root: str, text: str) -> str:
    state, _ = handoff.load(paths.memory_dir(root))
    [hid] = [i["id"] for i in state.values() if i["text"] == text]
    return hid


def forget_item(root: str) -> str:
    hid = item_id(root, FORGET)
    done = invoke("memory", "forget", hid, "--project", root)
    assert done.code == 0 and done.out.startswith(f"forgot {hid}"), done.err
    return hid


def line_of(out: str, eid: str) -> str:
    [line] = [ln for ln in out.splitlines() if eid in ln]
    return line


def open_listed(rest: str) -> list[str]:
    """The ids ``lh memory show`` lists under "Open handoff items" (its lines ``  - open item h-..., ...``)."""
    lines = rest.split("Open handoff items (", 1)[1].splitlines()[1:]
    listed = []
    for ln in lines:
        if not ln.startswith("  - open item "):
            break
        listed.append(ln.split()[3].rstrip(","))
    return sorted(listed)


def test_search_lists_a_forgotten_open_item_labelled_as_a_forgotten_decision_is(root):
    hid = forget_item(root)
    did = ids.entry_id("decision", DECISION)
    assert invoke("memory", "forget", did, "--project", root).code == 0
    for extra in ([], ["--all"], ["--kind", "handoff"]):
        found = invoke("memory", "search", "ledger", "export", *extra, "--project", root)
        assert found.code == 0, found.err
        line = line_of(found.out, hid)
        assert line.startswith("handoff") and "[forgotten]" in line, (extra, found.out)
        if not extra or extra == ["--all"]:
            label = line_of(found.out, did).split("  [", 1)[1].split("]")[0]
            assert label == "forgotten" and line.split("  [", 1)[1].startswith(label + "]")
    js = invoke("memory", "search", "--json", "--kind", "handoff", "ledger", "export", "--project", root)
    [obj] = [json.loads(ln) for ln in js.out.splitlines() if json.loads(ln)["id"] == hid]
    assert obj["state"] == "forgotten" and obj["mark"] == "forgotten" and obj["summary"] == FORGET


def test_an_item_closed_as_done_is_not_listed_by_search(root):
    closed = invoke("memory", "close", item_id(root, DONE), "--project", root)
    assert closed.code == 0, closed.err
    forget_item(root)
    found = invoke("memory", "search", "--all", "ledger", "--project", root)
    assert found.code == 0, found.err
    assert item_id(root, DONE) not in found.out and item_id(root, KEEP) in found.out


def test_show_lists_the_forgotten_item_tagged_forgotten_and_not_among_the_open_ones(root):
    hid = forget_item(root)
    out = invoke("memory", "show", "--project", root)
    assert out.code == 0, out.err
    ctx, rest = out.out.split("\n==== ", 1)
    line = line_of(rest, hid)
    assert line.endswith("[forgotten]") and FORGET in line
    assert open_listed(rest) == sorted([item_id(root, KEEP), item_id(root, DONE)])
    assert rest.split("Open handoff items (", 1)[1].startswith("2,")
    assert FORGET not in ctx and KEEP in ctx  # the SessionStart text: the open item only


def test_prompt_recall_and_session_start_never_show_a_forgotten_item(root):
    hid, keep = forget_item(root), item_id(root, KEEP)
    ms.index_now()
    cfg = config.defaults()
    cfg["recall"]["semantic"] = False
    text, info = recall_prompt.context_for("the billing ledger export after the cron rerun fix and refunds report",
                                           root, cfg, os.environ)
    ranked = [c["id"] for c in info["ranked"]]
    assert keep in ranked and hid not in ranked  # the open item with the same words is a candidate
    assert FORGET not in text
    from lazy_harness.recall.readback import digest

    start, _ = digest.digest(root, config.load_checked(os.environ), os.environ, NOW, "startup")
    assert KEEP in start and FORGET not in start and hid not in start


def test_undo_of_the_forget_brings_the_item_back_open_and_unlabelled(root):
    hid = forget_item(root)
    assert "[forgotten]" in line_of(invoke("memory", "search", "ledger", "--project", root).out, hid)
    undone = invoke("memory", "undo", "--project", root)
    assert undone.code == 0, undone.err
    line = line_of(invoke("memory", "search", "ledger", "--project", root).out, hid)
    assert "[" not in line.split(FORGET, 1)[1], line
    rest = invoke("memory", "show", "--project", root).out.split("\n==== ", 1)[1]
    assert hid in open_listed(rest) and rest.split("Open handoff items (", 1)[1].startswith("3,")
    assert not line_of(rest, hid).endswith("]")
