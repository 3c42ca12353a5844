"""``lh memory close ID`` of an item closed already says so, when and by whom, as a second ``forget``
says "already forgotten", instead of "no open handoff item" (the person just saw it in the list, or
closed it a moment ago); an id no item ever had is still "no open handoff item"."""

import time

from lazy_harness import paths
from lazy_harness.memory import handoff
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()
ITEM = "measure the canary error budget"


def test_closing_an_item_twice_says_it_is_closed_already(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    handoff.append(mdir, [handoff.record("open", ITEM, "sess-a", "t1", NOW - 60)])
    hid = handoff.id_for({}, ITEM)
    first = invoke("memory", "close", hid, "--project", root)
    assert first.code == 0, first.err
    again = invoke("memory", "close", hid, "--project", root)
    assert again.code == 1
    said = again.err.strip()
    assert said.startswith(f"lh: {hid} is closed already ("), said
    assert "by hand (lh memory close)" in said and repr(ITEM) in said, said
    assert "hint: lh memory show --history" in said, said
    assert "no open handoff item" not in said, said


def test_an_id_no_item_had_is_no_open_item(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    out = invoke("memory", "close", "h-0badc0de", "--project", root)
    assert out.code == 1
    assert out.err.strip().startswith("lh: no open handoff item 'h-0badc0de'"), out.err
