"""An item closed on two machines before their rounds met (``lh memory close`` on each, or a session
of each that said it was done) holds one open and two closes once synced: ``lh memory show
--history`` and the page then said ``opened ? by session ?`` of it, the opener lost, though its open
record was in the log."""

from lazy_harness.memory.handoff_log import CLOSE, OPEN, closed_items, fold, record

T0 = 1_780_000_000.0
TEXT = "Benchmark memcached and twemproxy"


def _opened() -> dict:
    return record(OPEN, TEXT, "sess-raised", "task-1", T0)


def test_an_item_closed_twice_keeps_who_opened_it_and_when():
    opened = _opened()
    laptop = record(CLOSE, TEXT, "by hand", "run-a", T0 + 10, reason="done on laptop", hid=opened["id"])
    desktop = record(CLOSE, TEXT, "by hand", "run-b", T0 + 11, reason="done on desktop", hid=opened["id"])
    for order in ([opened, laptop, desktop], [desktop, laptop, opened]):  # fold reads any order
        [item] = closed_items(fold(order))
        assert item["opened"] == opened["ts"] and item["opened_by"] == "sess-raised", item
        assert item["opened_task"] == "task-1" and item["text"] == TEXT


def test_a_reopened_item_closed_twice_names_its_last_opening():
    opened = _opened()
    again = record(OPEN, TEXT, "sess-again", "task-2", T0 + 20, hid=opened["id"])
    recs = [opened, record(CLOSE, TEXT, "by hand", "r1", T0 + 10, hid=opened["id"]), again,
            record(CLOSE, TEXT, "by hand", "r2", T0 + 30, hid=opened["id"]),
            record(CLOSE, TEXT, "sess-x", "r3", T0 + 31, hid=opened["id"])]
    [item] = closed_items(fold(recs))
    assert item["opened_by"] == "sess-again" and item["opened"] == again["ts"], item
