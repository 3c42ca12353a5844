"""The page's usage section (ADR 0036): the weekly plot of shown against used, the recurrences and the
never-used entries, each with forget at hand (the page's forget: journalled, undoable)."""

import time
from urllib.parse import urlencode

from lazy_harness.memory import ids, marks, usage_log
from tests.ui.test_server import cookie, page, request, server_key


def _section(server) -> str:
    body = request(server, "GET", page(server), cookie(server))[2]
    return body.split('id="usage"', 1)[1].split("</section>", 1)[0]


def test_the_usage_section_plots_the_weeks_and_lists_the_never_used_with_forget(server, seeded):
    now = time.time()
    used = ids.entry_id("decision", "Keep the recall index in SQLite FTS5")
    never = ids.entry_id("decision", "Render handoff.md from handoff.jsonl")
    line = usage_log.line
    usage_log.append(seeded.mdir, [
        line("shown", now - 60, session="s1", id=used, chars=200), line("shown", now - 60, session="s1", id=never,
                                                                        chars=300),
        line("used", now - 30, session="s1", id=used, evidence="FTS5"),
        line("shown", now - 20, session="s2", id=never, chars=300), line("recurred", now - 10, session="s2", id=never),
    ])
    section = _section(server)
    assert "<svg" in section and "entries shown and used per week" in section
    assert f"week of {usage_log.monday(now)}: 3 shown, 1 used" in section
    never_used = section.split('class="entries never-used"', 1)[1]
    assert never in never_used and used not in never_used
    assert "Render handoff.md from handoff.jsonl" in never_used and "shown in 2 session(s), never used" in never_used
    assert "recurred in 1 session(s)" in section
    form = urlencode({"project": server_key(server, seeded), "id": never, "token": server.form_token})
    status, _, _ = request(server, "POST", page(server, "/action/forget"), cookie(server), body=form)
    assert status == 303 and never in marks.hidden(seeded.mdir)
    after = _section(server)
    assert "never-used" not in after and "forgotten ones are not listed" in after  # forgotten: off the list


def test_without_usage_the_section_says_so(server, seeded):
    assert "No entry shown to a distilled session yet" in _section(server)
