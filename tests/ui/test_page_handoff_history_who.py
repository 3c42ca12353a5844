"""The history of an open handoff item on the page names who changed it in words, as ``lh memory show
--history`` does: an item opened by a hand edit of handoff.md, closed by ``lh memory close`` and opened
again, reads "by a hand edit of handoff.md" and "by hand (lh memory close)", never "by session
hand-edit" or "by session by hand"; a reason that only repeats who closed it is not shown again."""

import html
import re

from lazy_harness.memory import handoff
from lazy_harness.memory.handoff_log import HAND_EDIT
from tests.ui.conftest import DAY, NOW
from tests.ui.test_server import cookie, page, request


def _history(server, text: str) -> list[str]:
    status, _, body = request(server, "GET", page(server, "/"), cookie(server))
    assert status == 200, body[:300]
    section = body.split('<section id="handoff">', 1)[1].split("</section>", 1)[0]
    [item] = [li for li in re.findall(r'<li class="entry [a-z]+".*?</details>', section, re.S) if text in li]
    return [re.sub(r"<[^>]+>", "", html.unescape(li)) for li in re.findall(r"<li>(.*?)</li>", item, re.S)]


def test_a_hand_edit_and_a_close_by_hand_read_as_who_made_them(server, seeded):
    text = "ask ops for a staging slot"
    handoff.append(seeded.mdir, [
        handoff.record("open", text, HAND_EDIT, "", NOW - 3 * DAY),
        handoff.record("close", text, "by hand", "", NOW - 2 * DAY, "closed by hand"),
        handoff.record("open", text, "sess-d", "t4", NOW - DAY),
    ])
    lines = _history(server, text)
    assert len(lines) == 3, lines
    assert lines[0].endswith("open by a hand edit of handoff.md"), lines
    assert lines[1].endswith("close by hand (lh memory close)"), lines
    assert lines[2].endswith("open by session sess-d"), lines
    assert not any("session hand-edit" in ln or "session by hand" in ln for ln in lines), lines


def test_a_reason_that_says_more_is_still_shown(server, seeded):
    text = "wire the release workflow"
    handoff.append(seeded.mdir, [
        handoff.record("close", text, "sess-e", "t5", NOW - DAY, "the workflow was dropped"),
        handoff.record("open", text, "sess-f", "t6", NOW - DAY / 2),
    ])
    lines = _history(server, text)
    assert any(ln.endswith("close by session sess-e: the workflow was dropped") for ln in lines), lines


def test_an_item_a_codex_session_opened_says_codex_as_lh_memory_show_does(server, seeded):
    """``lh memory show`` and the session's digest read ``from Codex session 01a24b37``; the page said
    ``opened ... by session 01a24b37-...``, as if Claude Code's session had opened it."""
    text = "migrate the remaining cache readers"
    opened = dict(handoff.record("open", text, "01a24b37-17e9-7903-8232-2f81a02f7f6d", "t5", NOW - DAY), agent="codex")
    handoff.append(seeded.mdir, [opened])
    lines = _history(server, text)
    assert len(lines) == 1 and lines[0].endswith("open by Codex session 01a24b37-17e9-7903-8232-2f81a02f7f6d"), lines
    status, _, body = request(server, "GET", page(server, "/"), cookie(server))
    section = body.split('<section id="handoff">', 1)[1].split("</section>", 1)[0]
    heads = re.findall(r'<span class="meta">(opened [^<]*)</span>', html.unescape(section))
    assert any(h.endswith("by Codex session 01a24b37-17e9-7903-8232-2f81a02f7f6d") for h in heads), heads
