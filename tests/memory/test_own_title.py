"""memory/own_title.py: the one rule for a title this project's learning and another project's both
have (ADR 0071), as the session start, prompt recall and ``lh memory search`` use it."""

from lazy_harness.memory import own_title


def test_the_title_of_a_file_without_one_is_its_names():
    assert own_title.title_of("", "/l/2026-01/2026-01-02-orders-table.md") == own_title.title_of("Orders table", "")


def test_titles_among_finds_this_projects_learning_of_a_title_spelt_otherwise():
    rows = [("l-1", "Order cache lifetime", "/l/a.md"), ("l-2", "Кэш заказов", "/l/b.md"),
            ("l-3", "", "/l/2026-01/2026-01-02-retries-on-export.md"), ("l-4", "Order cache lifetime", "/l/c.md")]
    wanted = [("order-cache-lifetime", "/x.md"), ("кэш_заказов", "/y.md"), ("Retries on export", "/z.md")]
    got = own_title.titles_among(rows, wanted)
    assert got == {"order cache lifetime": "l-1", "кэш заказов": "l-2", "retries on export": "l-3"}
    assert own_title.titles_among(rows, [("Deploy windows", "/d.md")]) == {}


def test_the_first_word_sifts_only_ascii_titles():
    # an accent written as its own code point is not found by the first word's letters; such a title is
    # always worked out
    rows = [("l-1", "Cafe\u0301 menu prices", "/l/a.md")]
    assert own_title.titles_among(rows, [("café-menu-prices", "/x.md")]) == {"café menu prices": "l-1"}


def test_own_title_wins_leaves_out_the_other_projects_learning_after_this_ones():
    ranked = [{"t": "Orders table", "own": True}, {"t": "orders_table", "own": False}, {"t": "Other", "own": False}]
    kept = list(own_title.own_title_wins(ranked, lambda h: h["own"], lambda h: own_title.title_of(h["t"], "")))
    assert [h["t"] for h in kept] == ["Orders table", "Other"]
