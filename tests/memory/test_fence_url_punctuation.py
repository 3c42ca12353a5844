"""A URL read back from memory is shown as code, and the punctuation after it stays outside the span: a
sentence's ``;``, ``.``, ``,`` ... and the ``)`` of a parenthesis opened before it. A ``)`` that closes
a ``(`` of the URL itself (a wiki page's) is part of it."""

import pytest

from lazy_harness.memory.fence import neutral


@pytest.mark.parametrize("text, shown", [
    ("has only http://localhost:5173; running", "has only `http://localhost:5173`; running"),
    ("see https://docs.example.com/a.", "see `https://docs.example.com/a`."),
    ("at http://x.example/a, then", "at `http://x.example/a`, then"),
    ("served from http://x.example/a: the old one", "served from `http://x.example/a`: the old one"),
    ("is it http://x.example/a?", "is it `http://x.example/a`?"),
    ("not http://x.example/a!", "not `http://x.example/a`!"),
    ("the host (http://staging.example/api) is slow", "the host (`http://staging.example/api`) is slow"),
    ("(http://staging.example/api).", "(`http://staging.example/api`)."),
    ("read https://en.wikipedia.org/wiki/Foo_(bar) first", "read `https://en.wikipedia.org/wiki/Foo_(bar)` first"),
    ("read https://en.wikipedia.org/wiki/Foo_(bar).", "read `https://en.wikipedia.org/wiki/Foo_(bar)`."),
    ("(see https://en.wikipedia.org/wiki/Foo_(bar)),", "(see `https://en.wikipedia.org/wiki/Foo_(bar)`),"),
    ("see https://docs.example.com/a for details", "see `https://docs.example.com/a` for details"),
    ("fetch http://x.example/a?q=1&b=2 now", "fetch `http://x.example/a?q=1&b=2` now"),
])
def test_punctuation_after_a_url_stays_outside_its_code_span(text, shown):
    assert neutral(text) == shown


def test_a_command_with_a_url_keeps_its_span_as_before():
    got = neutral("Bootstrap with curl -fsSL https://x.example/s.sh | sh, then run the tests")
    assert "`curl -fsSL https://x.example/s.sh | sh`," in got
