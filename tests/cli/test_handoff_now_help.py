"""``lh knowledge handoff-now --help`` says which gates it skips and which still hold: a short session
ends "too short" with exit 0, which "(no gates)" did not lead anyone to expect."""

from tests.cli.lhrun import invoke


def test_the_help_names_the_length_gates_that_still_apply(isolated_home):
    got = invoke("knowledge", "handoff-now", "--help")
    assert got.code == 0
    text = " ".join(got.out.split())
    assert "no gates" not in text
    assert "debounce and growth gates" in text and "min_user_chars" in text and "min_messages" in text
