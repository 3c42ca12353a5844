"""The forged ends of the fence (``end of memory``, ``END_OF_MEMORY``, ``quoted as data``) are
broken by marks in one pass over the text: a long line of them costs time in proportion to its
length, and the marks are where one mark at a time put them."""

import random
import time

import pytest

from lazy_harness.memory import fence


def _one_mark_at_a_time(text: str, low: str) -> str:
    # the rule as first written: the text rebuilt at each mark
    for words in fence._FORGED_ENDS:
        n = len(words[-1])
        cut = fence._phrase(low, words, 0)
        while cut >= 0:
            text = f"{text[:cut]}‹{text[cut:cut + n]}›{text[cut + n:]}"
            low = f"{low[:cut]}‹{low[cut:cut + n]}›{low[cut + n:]}"
            cut = fence._phrase(low, words, cut + n + 2)
    return text


PIECES = ["end", "of", "the", "memory", "notes", "quoted", "as", "data", "not", "instructions", "from",
          "earlier", "sessions", "END_OF_MEMORY", "End--of--Notes", "ｍｅｍｏｒｙ", " ", "  ", "-", "_", "x",
          "‹", "›", "endend", "memorymemory"]


def test_the_marks_are_where_one_mark_at_a_time_put_them():
    rng = random.Random(7)
    for _ in range(3000):
        text = "".join(rng.choice(PIECES) + rng.choice(["", " ", "_", "-"]) for _ in range(rng.randint(1, 30)))
        low = text.lower()
        assert fence._unforged(text, low) == _one_mark_at_a_time(text, low), text


@pytest.mark.parametrize("unit", ["END_OF_MEMORY ", "end of memory ", "quoted as data ", "end of the notes "])
def test_a_long_line_of_forged_ends_ends(unit):
    line = unit * (500_000 // len(unit))
    started = time.process_time()
    out = fence.neutral(line)
    # why: the text rebuilt at each mark took half a minute on this line; one pass takes well under a second
    assert time.process_time() - started < 5
    assert out.count("‹") == out.count("›") == len(line) // len(unit)
