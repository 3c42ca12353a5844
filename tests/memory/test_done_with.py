"""What the usage lists leave out (``memory.done_with``): decided in the store from the heads its
callers read, so the page (ui/) and ``lh memory usage`` (cli/) share one rule and memory/ reads
nothing through recall/."""

import ast
import os
import time

import lazy_harness
from lazy_harness.memory import handoff, learnings, marks
from lazy_harness.memory.done_with import done_with
from lazy_harness.recall.readback.learnings import learning_id, read_head
from tests.support import memory_samples as ms

NOW = time.time()
SRC = os.path.dirname(os.path.abspath(lazy_harness.__file__))


def _heads(paths_: list[str]) -> list[tuple[str, dict]]:
    return [(learning_id(h), h) for h in map(read_head, paths_) if h is not None]


def test_forgotten_marked_closed_and_deprecated_are_left_out_and_the_rest_kept(tmp_path):
    mdir, ldir = str(tmp_path / "mem"), str(tmp_path / "learnings")
    os.makedirs(mdir)
    live = ms.write_learning(ldir, "Regenerate protobuf stubs after a schema change", "app", NOW - 60)
    dropped = ms.write_learning(ldir, "Vendored stubs need regen_stubs.sh", "app", NOW - 60, status="deprecated",
                                deprecated_by=learnings.id_of(live))
    forgotten = ms.write_learning(ldir, "Billing queue state lives in billing/queue_store.py", "app", NOW - 60,
                                  status="forgotten")
    texts = ["Finish porting `scripts/migrate_ledger.py`", "Close out `docs/release.md` before the tag"]
    handoff.append(mdir, [handoff.record("open", t, "s0", "t0", NOW - 120) for t in texts]
                   + [handoff.record("close", texts[1], "s1", "t1", NOW - 90, "done")])
    open_h, closed_h = (handoff.record("open", t, "", "", 0)["id"] for t in texts)
    hidden_d = "d-0badc0de"  # marks name an id whether or not its line is still there
    ms.write_jsonl(marks.path_of(mdir), [{"op": "forget", "id": hidden_d, "reason": "r", "ts": "t", "run": "x"}])
    lids = [learnings.id_of(p) for p in (live, dropped, forgotten)]
    wanted = {*lids, open_h, closed_h, hidden_d}
    gone = done_with(mdir, wanted, _heads([live, dropped, forgotten]))
    assert gone == {lids[1], lids[2], closed_h, hidden_d}
    # an id not asked about is never answered, even when it is done with
    assert done_with(mdir, {lids[0], open_h}, _heads([live, dropped, forgotten])) == set()


def test_a_learning_live_in_one_file_of_two_is_not_done_with(tmp_path):
    ldir = str(tmp_path / "learnings")
    old = ms.write_learning(ldir, "Vendored stubs need regen_stubs.sh", "app", NOW - 30 * ms.DAY, slug="older")
    new = ms.write_learning(ldir, "Vendored stubs need regen_stubs.sh", "app", NOW - 60, status="deprecated")
    lid = learnings.id_of(new)
    assert learnings.id_of(old) == lid
    assert done_with(str(tmp_path), {lid}, _heads([new, old])) == set()
    assert done_with(str(tmp_path), {lid}, _heads([new])) == {lid}


def test_the_heads_are_not_read_when_no_learning_is_asked_about(tmp_path):
    def unread():
        raise AssertionError("learning heads read for no learning")
        yield  # pragma: no cover

    assert done_with(str(tmp_path), {"h-0123456789"}, unread()) == set()


def _imports(rel: str) -> set[str]:
    with open(os.path.join(SRC, rel), encoding="utf-8") as fh:
        tree = ast.parse(fh.read())
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            out |= {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.FunctionDef):
            out.add(f"def {node.name}")
    return out


def test_the_page_and_the_command_call_the_store_s_rule_and_keep_no_copy():
    for rel in ("ui/usage_section.py", "cli/memory_usage.py"):
        found = _imports(rel)
        assert "lazy_harness.memory.done_with.done_with" in found, rel
        assert not {"def done_with", "def _learnings_not_in_use"} & found, rel
        assert "lazy_harness.ui.usage_section.done_with" not in found, rel
