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


def test_a_merged_entrys_use_counts_for_the_one_it_was_merged_into_as_in_lh_memory_usage(server, seeded):
    now = time.time()
    kept = ids.entry_id("decision", "Keep the recall index in SQLite FTS5")
    gone = "d-0badc0de"  # merged into ``kept`` by a consolidation
    line = usage_log.line
    usage_log.append(seeded.mdir, [line("shown", now - 60, session="s1", id=kept, chars=200),
                                   line("shown", now - 60, session="s1", id=gone, chars=200),
                                   line("used", now - 30, session="s1", id=gone, evidence="FTS5")])
    with open(f"{seeded.mdir}/marks.jsonl", "a") as fh:
        fh.write(f'{{"op": "merge", "id": "{gone}", "by": "{kept}", "ts": {now - 10}, "run": "r1"}}\n')
    section = _section(server)
    never_used = section.split('class="entries never-used"', 1)[1] if "never-used" in section else ""
    assert kept not in never_used  # the merged entry's use is the kept one's


def test_a_damaged_usage_line_is_said_on_the_page_as_lh_memory_usage_says_it(server, seeded):
    """A hand edit that lost a quote drops a showing from every figure: the page names the file and the
    line not counted, and says it no more once the line is mended."""
    now = time.time()
    used = ids.entry_id("decision", "Keep the recall index in SQLite FTS5")
    usage_log.append(seeded.mdir, [usage_log.line("shown", now - 60, session="s1", id=used, chars=200)])
    path = usage_log.path_of(seeded.mdir)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write('{"ts": "2026-01-01T00:00:00Z", "op": "shown", "session": "s2, "id": "x"}\n')
    section = _section(server)
    assert f"{path}: 1 line(s) skipped (2:" in section and "not counted" in section, section[:600]
    assert "1 session(s), 1 shown" in section
    with open(path, encoding="utf-8") as fh:
        first = fh.readline()
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(first)
    assert "not counted" not in _section(server)
