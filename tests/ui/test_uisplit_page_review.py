"""The page tags what ``lh memory show`` tags: a decision or an open item whose text the hold check
holds at read time (no hold recorded yet) is not listed as a live entry."""

import html
import os
import re

from lazy_harness.memory import files, handoff, ids
from tests.support import memory_samples as ms
from tests.ui.conftest import NOW
from tests.ui.test_held_states import POISON
from tests.ui.test_uifx_page_agrees_with_show import _get, _items, _section, _show_tag


def _open_item_tag(root: str, hid: str) -> str:
    from tests.cli.lhrun import invoke

    out = invoke("memory", "show", "--project", root).out.split("==== everything", 1)[1]
    [line] = [ln for ln in out.splitlines() if f"open item {hid}," in ln]
    found = re.search(r"\[([^\]]*)\]$", line.strip())
    return found.group(1) if found else ""


def test_a_decision_the_check_holds_at_read_time_is_left_out_as_show_tags_it(server, seeded):
    rec = ms.decision(NOW - 60, "Setup step for the tests", POISON)
    ms.write_jsonl(os.path.join(seeded.mdir, files.DECISIONS), [rec])  # a hand edit: no hold recorded
    eid = ids.of_record(rec, "decision")
    tag = _show_tag(seeded.root, eid)
    assert tag.startswith("held")
    [(css, _, inner)] = [i for i in _items(_section(_get(server), "decisions")) if i[1] == eid]
    assert css == "entry gone"
    assert f'<span class="badge">{html.escape(tag)}</span>' in inner


def test_an_open_item_the_check_holds_at_read_time_is_tagged_as_show_tags_it(server, seeded):
    handoff.append(seeded.mdir, [handoff.record("open", POISON, "sess-z", "t9", NOW - 30)])
    [hid] = [i["id"] for i in handoff.open_items(handoff.load(seeded.mdir)[0]) if "attacker" in i["text"]]
    tag = _open_item_tag(seeded.root, hid)
    assert tag.startswith("held")
    items = {i[1]: i for i in _items(_section(_get(server), "handoff"))}
    assert f'<span class="badge">{html.escape(tag)}</span>' in items[hid][2]
    assert not any("badge" in items[h][2] for h in items if h != hid)  # the others as show lists them
