"""Two new texts of one title that met in a sync round are settled (ADR 0063, ``store.settle_met``) when
one of them carries no ``text_digest`` as the rewrite rule reads it: written before the field, or the
field edited by hand into something that is no digest (ADR 0071, 3). Such a file is taken as written,
as a later correction of the title takes it; it is no hand edit of the text, which stays the person's."""

import re

import pytest

from lazy_harness.memory import store
from tests.memory.test_learning_new_text import DAY, NOW, World
from tests.memory.test_rewrite_settle_killed import _met, w  # noqa: F401  (the fixture)


def _digest(path: str, line: str) -> None:
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    new = re.sub(r"(?m)^text_digest: .*\n", line, text, count=1)
    assert new != text
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(new)


@pytest.mark.parametrize("line", ["", "text_digest: 0\n", "text_digest: not a digest\n"],
                         ids=["written-before-digests", "zero-by-hand", "words-by-hand"])
def test_new_texts_that_met_are_settled_when_one_has_no_digest(w: World, line):  # noqa: F811
    old, mine, theirs = _met(w)
    _digest(w.files()[mine]["path"], line)
    report = store.settle_met(w.mdir, w.ldir, NOW + 2 * DAY)
    assert report.rewritten == [mine]
    [shown] = w.shown()
    assert "integer cents" in shown["text"] and w.files()[mine]["by"] == theirs


def test_a_text_edited_by_hand_is_still_not_settled(w: World):  # noqa: F811
    old, mine, theirs = _met(w)
    path = w.files()[mine]["path"]
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text.replace("crypto", "crypto and FX", 1) if "crypto" in text else text + "\nChecked by hand.\n")
    assert store.settle_met(w.mdir, w.ldir, NOW + 2 * DAY).rewritten == []
    assert len(w.shown()) == 2
