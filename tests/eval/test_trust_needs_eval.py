"""The hold check's shortcuts over every text of the evaluation sets (tests/eval/hostile_*.py,
attributed_*.py, near_rule_set.py): each rule that matches a form of a text (as read, and decoded)
finds there the words it needs (trust_rules ``_rule_needs``), so the rules passed over for want of
them would have found nothing; and the cheap look from the words a text holds names the sets the look
at each group named (tests/memory/test_trust_needs.py). About 30 s: the rules passed over, run over
17,000 forms."""

import importlib

import pytest

from lazy_harness.memory import trust, trust_needs, trust_rules
from tests.memory.test_trust_needs import look_at_each_group

SETS = ("hostile_blind", "hostile_blind2", "hostile_blind3", "hostile_blind4", "hostile_set", "hostile_train",
        "hostile_train2", "hostile_train3", "hostile_train4", "hostile_train5", "attributed_blind",
        "attributed_train", "near_rule_set")


def _strings(value: object, out: list[str]) -> None:
    """Every string of ``value`` (a module's lists and dicts of entries), and each entry's whole text."""
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        if value.get("kind") in trust.FIELDS:
            out.append(trust.text_of(value, value["kind"]))
        for v in value.values():
            _strings(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _strings(v, out)


def texts_of(name: str) -> list[str]:
    module = importlib.import_module(f"tests.eval.{name}")
    out: list[str] = []
    for attr, value in vars(module).items():
        if not attr.startswith("__") and isinstance(value, (list, tuple, dict)):
            _strings(value, out)
    return sorted({t for t in out if t.strip()})


@pytest.mark.parametrize("name", SETS)
def test_every_rule_that_matches_finds_its_needs(name):
    texts = texts_of(name)
    forms = {f for t in texts for f in trust.forms(t) + [g for d in trust.decodings(t) for g in trust.forms(d)]}
    forms = {f for f in forms if f.isascii() and len(f) <= trust.LONGEST}
    rules = [(pat, trust_needs.rule_needs(rule if isinstance(rule, str) else rule[0]))
             for k, rule_set in enumerate(trust_rules.PATTERNS)
             for rule, (pat, _) in zip(rule_set, trust_rules.compiled(k), strict=True)]
    passed_over = 0
    for form in forms:
        low = form.lower()
        for pat, needs in rules:
            if not trust_needs.holds(needs, low):
                passed_over += 1
                assert pat.search(form) is None, (name, pat.pattern, needs, form)
    assert len(forms) > 300 and passed_over


@pytest.mark.parametrize("name", SETS)
def test_the_look_from_the_words_names_the_sets_each_group_named(name):
    for text in texts_of(name):
        assert trust.may_match(text) == look_at_each_group(text), text
