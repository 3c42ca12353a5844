"""claude's output cut short (a process killed while it printed, a pipe closed early) is read in time
that grows with its length: a string the cut left open ends the search for a closing bracket, since
nothing after it is outside the string. Before, every quote after it was tried as the start of a
string and read to the end of the text (a cut output of 100 KB took 27 s, the worker's lock held;
benchmarks/bench_answer_parse.py). Whole answers are found as before."""

import json

import pytest

from lazy_harness.errors import ModelError
from lazy_harness.worker import answer_parse

ANSWER = {"decisions": [{"summary": "Use the pooled connection", "rationale": "the load test ran out (see {pool})"}],
          "failures": [], "learnings": [], "handoff": ["Finish the \"orders\" migration"]}


def _envelope(result: str) -> str:
    return json.dumps({"type": "result", "subtype": "success", "is_error": False, "result": result,
                       "total_cost_usd": 0.2})


@pytest.mark.parametrize("text", ['{"a": "b } c', '{"a": "b } c\\', '{"a": ["b", "c]}'])
def test_a_bracket_inside_a_string_left_open_closes_nothing(text):
    assert answer_parse._balanced_end(text, 0) is None


def test_a_bracket_inside_a_closed_string_is_text():
    text = '{"a": "}", "b": "\\"}"} and more'
    assert answer_parse._balanced_end(text, 0) == text.index(" and more")


@pytest.mark.parametrize("cut", [0.25, 0.5, 0.75, 0.99])
def test_a_cut_output_holds_no_answer(cut):
    whole = _envelope(json.dumps(ANSWER))
    with pytest.raises(ModelError, match="printed no JSON result"):
        answer_parse.parse_envelope(whole[:int(len(whole) * cut)])


def test_an_answer_cut_inside_a_whole_envelope_is_text():
    text = json.dumps(ANSWER)
    with pytest.raises(ModelError, match="answered with text"):
        answer_parse.parse_envelope(_envelope(text[:len(text) // 2]))


def test_a_quote_left_open_in_the_prose_before_the_answer_loses_nothing():
    prose = 'Keep a dict like {x "y and then the answer: '
    assert answer_parse.parse_envelope(_envelope(prose + json.dumps(ANSWER))) == ANSWER
    assert answer_parse.parse_envelope('warning: the "cache\n' + _envelope(json.dumps(ANSWER))) == ANSWER
