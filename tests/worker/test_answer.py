import json

import pytest

from lazy_harness.errors import ModelError
from lazy_harness.worker import answer as a
from lazy_harness.worker import answer_parse as ap

# Trimmed from what the real CLI 2.1.328 printed for `claude -p --output-format json --json-schema ...`
# against the loopback stand-in (tests/e2e): the fields a parser may rely on, in their order.
REAL_ENVELOPE = {
    "duration_api_ms": 264, "stop_reason": "tool_use", "session_id": "de66627d-316b-49e7-b7e7-281e4b24619f",
    "total_cost_usd": 0.00094, "permission_denials": [], "terminal_reason": "completed", "is_error": False,
    "num_turns": 2, "subtype": "success", "api_error_status": None, "result": "{\"handoff\":[\"x\"]}",
    "structured_output": {"handoff": ["x"]}, "type": "result", "duration_ms": 1008,
}

GOOD = {
    "decisions": [{"summary": "Keep the queue in Postgres", "context": "billing jobs", "alternatives": ["Redis"],
                   "rationale": "already backed up", "tags": ["queue", "postgres"],
                   "cues": ["where should background jobs live"]}],
    "failures": [{"summary": "Migration timed out", "root_cause": "lock on invoices", "resolution": "retry",
                  "prevention": "lock_timeout 5s", "tags": ["deploy"],
                  "cues": ["the deploy hangs on the schema change", "release stuck at migrate"]}],
    "learnings": [{"title": "Set lock_timeout on migrations", "learning": "Use SET lock_timeout = '5s'.",
                   "context": "deploy failure", "scope": "general", "tags": ["postgres"], "cues": []}],
    "handoff": ["Write notes/deploy-failure.md"],
}


def envelope(**fields) -> str:
    return json.dumps({**REAL_ENVELOPE, **fields})


# --- parse_envelope ------------------------------------------------------------------------------

def test_structured_output_wins():
    assert ap.parse_envelope(envelope()) == {"handoff": ["x"]}
    assert ap.parse_envelope(envelope(structured_output=GOOD, result="ignored")) == GOOD


def test_result_bare_json():
    out = ap.parse_envelope(envelope(structured_output=None, result=json.dumps(GOOD)))
    assert out == GOOD


def test_result_fenced_block():
    text = "Here is the answer:\n```json\n" + json.dumps(GOOD, indent=2) + "\n```\nDone."
    assert ap.parse_envelope(envelope(structured_output=None, result=text)) == GOOD


def test_result_object_after_prose_with_braces_in_strings():
    obj = {"handoff": ["fix the {weird} \"quoted\" } brace"], "decisions": []}
    text = "I looked at it {not json}. The answer: " + json.dumps(obj) + " -- hope that helps {"
    assert ap.parse_envelope(envelope(structured_output=None, result=text)) == obj


def test_warning_line_before_the_envelope():
    assert ap.parse_envelope("warning: something\n" + envelope()) == {"handoff": ["x"]}


def test_is_error_raises_with_subtype_and_snippet():
    with pytest.raises(ModelError) as info:
        ap.parse_envelope(envelope(is_error=True, subtype="error_during_execution",
                                  result="API Error: 529 overloaded " + "x" * 500, structured_output=None))
    msg = str(info.value)
    assert "error_during_execution" in msg and "API Error: 529" in msg and len(msg) < 300


def test_is_error_with_subtype_success_names_the_terminal_reason_not_success():
    """Offline, claude 2.1.330 prints is_error true with subtype "success" (issue 26, item 11)."""
    with pytest.raises(ModelError) as info:
        ap.parse_envelope(envelope(is_error=True, subtype="success", terminal_reason="api_error",
                                  result="API Error: Connection refused (ECONNREFUSED)", structured_output=None))
    assert str(info.value) == "claude reported an error (api_error): API Error: Connection refused (ECONNREFUSED)"
    with pytest.raises(ModelError) as info:
        ap.parse_envelope(envelope(is_error=True, subtype="success", terminal_reason="completed", result="",
                                  structured_output=None))
    assert str(info.value) == "claude reported an error: it gave no detail"


@pytest.mark.parametrize("stdout, needle", [
    ("", "no JSON result"),
    ("Segmentation fault", "no JSON result"),
    ("[1, 2]", "no JSON result"),
    (envelope(structured_output=None, result="I cannot help with that."),
     "answered with text, not the structured answer"),
    (envelope(structured_output="a string", result=None), "no usable answer"),
])
def test_unusable_output_raises(stdout, needle):
    with pytest.raises(ModelError) as info:
        ap.parse_envelope(stdout)
    assert needle in str(info.value)


def test_the_scanner_tries_a_bounded_number_of_objects_in_big_garbage(monkeypatch):
    # why counted, not timed: each try is one linear scan, so a bound on the tries is what keeps a
    # megabyte of garbage linear (its speed: benchmarks/bench_answer_parse.py)
    text = '{"a": "' + "x" * 1_000_000 + " {" * 5000
    tries = []
    balanced_end = ap._balanced_end
    monkeypatch.setattr(ap, "_balanced_end", lambda *a, **k: tries.append(a[1]) or balanced_end(*a, **k))
    assert ap.extract_object(text) is None
    assert 0 < len(tries) <= 100  # a few dozen of its 5,001 opening brackets, not each


# --- validate: the good path ---------------------------------------------------------------------

def test_good_answer_kept_as_is():
    out, problems = a.validate(GOOD)
    assert problems == []
    assert out == GOOD


def test_missing_sections_are_empty_lists():
    out, problems = a.validate({})
    assert out == {"decisions": [], "failures": [], "learnings": [], "handoff": []}
    assert problems == []


def test_optional_fields_filled_with_defaults():
    out, problems = a.validate({"decisions": [{"summary": "Only a summary"}],
                                "learnings": [{"title": "T", "learning": "L"}]})
    assert out["decisions"] == [{"summary": "Only a summary", "context": "", "alternatives": [], "rationale": "",
                                 "tags": [], "cues": []}]
    assert out["learnings"][0]["scope"] == "project"
    assert problems == []


# --- validate: hostile answers -------------------------------------------------------------------

def test_required_fields():
    out, problems = a.validate({
        "decisions": [{"context": "no summary"}, {"summary": "  "}, {"summary": "kept"}],
        "failures": [{"summary": "no cause or prevention", "resolution": "x"}, {"summary": "ok", "prevention": "p"}],
        "learnings": [{"title": "no text"}, {"learning": "no title"}],
        "handoff": ["", "   ", "real item"],
    })
    assert [d["summary"] for d in out["decisions"]] == ["kept"]
    assert [f["summary"] for f in out["failures"]] == ["ok"]
    assert out["learnings"] == []
    assert out["handoff"] == ["real item"]
    assert "decisions[0]: missing summary, dropped" in problems
    assert "decisions[1]: missing summary, dropped" in problems
    assert "failures[0]: neither root_cause nor prevention, dropped" in problems
    assert "learnings[0]: missing learning, dropped" in problems
    assert "learnings[1]: missing title, dropped" in problems
    assert "handoff[0]: empty, dropped" in problems


def test_path_traversal_title_stays_plain_text():
    out, problems = a.validate({"learnings": [{"title": "../../etc/passwd", "learning": "x"}]})
    assert out["learnings"][0]["title"] == "../../etc/passwd"  # the store slugs it; here it is just text
    assert problems == []


def test_newlines_and_yaml_keys_smuggled_in_a_title():
    out, problems = a.validate({"learnings": [{"title": "x\nstatus: deprecated\r\n---\ttitle: evil",
                                               "learning": "line one\nline two", "scope": "general\nstatus: x"}]})
    item = out["learnings"][0]
    assert item["title"] == "x status: deprecated --- title: evil"
    assert "\n" not in item["title"] and "\n" not in item["scope"]
    assert item["learning"] == "line one\nline two"  # long text keeps its newlines
    assert item["scope"] == "project"  # neither project nor general: stored as project
    assert any(p.startswith("learnings[0]: title: made one line") for p in problems)


def test_control_and_bidi_characters_removed():
    out, problems = a.validate({"decisions": [{"summary": "a\x00b\x1b[31mc\u202ed\u2028e", "tags": ["T\x07ag"]}]})
    assert out["decisions"][0]["summary"] == "ab[31mcd e"  # why a space: U+2028 breaks a line
    assert out["decisions"][0]["tags"] == ["tag"]
    assert any("control characters removed" in p for p in problems)


def test_wrong_types():
    out, problems = a.validate({
        "decisions": "not a list",
        "failures": {"summary": "one object", "root_cause": "rc"},
        "learnings": 42,
        "handoff": "a single open item",
    })
    assert out["decisions"] == []
    assert [f["summary"] for f in out["failures"]] == ["one object"]
    assert out["learnings"] == []
    assert out["handoff"] == ["a single open item"]  # one item, not one per character
    assert "decisions: a str instead of a list, taken as one item" in problems
    assert "decisions[0]: a str, not an object, dropped" in problems
    assert "learnings: a int instead of a list, ignored" in problems


def test_string_where_list_expected_inside_items():
    out, _ = a.validate({"decisions": [{"summary": "s", "alternatives": "Redis", "tags": "Queue Storage"}]})
    d = out["decisions"][0]
    assert d["alternatives"] == ["Redis"]
    assert d["tags"] == ["queue-storage"]


def test_non_object_list_elements_and_nested_garbage():
    out, problems = a.validate({
        "decisions": [None, 3, ["x"], {"summary": {"nested": {"deep": [1, 2, {"x": None}]}}},
                      {"summary": "fine", "context": ["a", "b"], "tags": [{"t": 1}, None, "ok", 5]}],
        "handoff": [None, {"x": 1}, ["nested"], 7, "open"],
    })
    assert [d["summary"] for d in out["decisions"]] == ["fine"]
    assert out["decisions"][0]["context"] == ""
    assert out["decisions"][0]["tags"] == ["ok", "5"]
    assert out["handoff"] == ["7", "open"]
    assert "decisions[0]: a NoneType, not an object, dropped" in problems
    assert "decisions[2]: a list, not an object, dropped" in problems
    assert any(p.startswith("decisions[3]: missing summary") for p in problems)
    assert "handoff[1]: a dict, not text, dropped" in problems


def test_megabyte_fields_capped():
    huge = "y" * 2_000_000
    out, problems = a.validate({"decisions": [{"summary": huge, "context": huge, "alternatives": [huge] * 50,
                                               "tags": [huge] * 50}],
                                "handoff": [huge]})
    d = out["decisions"][0]
    assert len(d["summary"]) == a.SHORT_CHARS
    assert len(d["context"]) == a.LONG_CHARS
    assert len(d["alternatives"]) == a.MAX_ALTERNATIVES and all(len(x) == a.ALT_CHARS for x in d["alternatives"])
    assert d["tags"] == ["y" * a.TAG_CHARS]  # capped, then de-duplicated
    assert len(out["handoff"][0]) <= 2 * a.SHORT_CHARS
    assert any("summary: cut from 2000000 to 200 characters" in p for p in problems)
    assert len(json.dumps(out)) < 30_000


def test_every_string_capped_at_2000():
    long = "word " * 2000
    out, _ = a.validate({k: [{f: long for f in ("summary", "title", "learning", "context", "rationale",
                                                "root_cause", "resolution", "prevention")}] for k in
                         ("decisions", "failures", "learnings")})

    def strings(o):
        if isinstance(o, str):
            yield o
        elif isinstance(o, dict):
            for v in o.values():
                yield from strings(v)
        elif isinstance(o, list):
            for v in o:
                yield from strings(v)
    assert all(len(s) <= 2000 for s in strings(out))


def test_list_caps():
    out, problems = a.validate({
        "decisions": [{"summary": f"d{i}"} for i in range(50)],
        "handoff": [f"h{i}" for i in range(100)],
        "learnings": [{"title": "t", "learning": "l", "tags": [f"t{i}" for i in range(30)]}],
    })
    assert len(out["decisions"]) == 20 and out["decisions"][-1]["summary"] == "d19"
    assert len(out["handoff"]) == 30
    assert out["learnings"][0]["tags"] == [f"t{i}" for i in range(10)]
    # past the cap, the items are returned to be written held and named (issue 37), not dropped
    assert any(p.startswith("decisions: 50 items, kept the first 20; 30 more written held") for p in problems)
    assert len(out[a.OVER_CAP]) == 30 and out[a.OVER_CAP][0] == ["decisions", out[a.OVER_CAP][0][1]]
    assert "handoff: 100 items, kept the first 30" in problems


def test_cues_capped_one_line_and_without_repeats():
    raw = ["why is the deploy stuck", "why is the deploy stuck", "line one\nline two", {"a": 1}, "x" * 500,
           "fifth", "sixth"]
    out, problems = a.validate({"decisions": [{"summary": "s", "cues": raw}]})
    cues = out["decisions"][0]["cues"]
    assert cues[:2] == ["why is the deploy stuck", "line one line two"]  # the repeat counts once
    assert len(cues) == a.MAX_CUES == 4 and len(cues[2]) <= a.CUE_CHARS and cues[3] == "fifth"
    assert problems == ["decisions[0]: cues: a non-string element dropped; cues: 5, kept 4"]
    out, problems = a.validate({"failures": [{"summary": "s", "prevention": "p", "cues": "one cue as a string"}]})
    assert out["failures"][0]["cues"] == ["one cue as a string"]


def test_unknown_keys_ignored_and_reported():
    out, problems = a.validate({"decisions": [{"summary": "s", "status": "deprecated", "path": "/etc"}],
                                "extra": 1, "__proto__": {}})
    assert set(out) == {"decisions", "failures", "learnings", "handoff"}
    assert set(out["decisions"][0]) == {"summary", "context", "alternatives", "rationale", "tags", "cues"}
    assert "answer: unknown keys ignored: __proto__, extra" in problems
    assert "decisions[0]: unknown keys ignored: path, status" in problems


def test_not_an_object_at_all():
    out, problems = a.validate(["decisions"])
    assert out == {"decisions": [], "failures": [], "learnings": [], "handoff": []}
    assert problems == ["answer: a list, not an object; nothing kept"]


def test_numbers_as_text_and_bools_rejected():
    out, problems = a.validate({"decisions": [{"summary": 42}, {"summary": True}]})
    assert [d["summary"] for d in out["decisions"]] == ["42"]
    assert any(p.startswith("decisions[1]: missing summary") for p in problems)


def test_handoff_closed_is_optional_and_validated_like_handoff():
    out, problems = a.validate({"handoff": ["new item"], "handoff_closed": ["h-1a2b3c4d", "  the exact\ntext ", 7,
                                                                          None, ""]})
    assert out["handoff"] == ["new item"]
    assert out["handoff_closed"] == ["h-1a2b3c4d", "the exact text", "7"]
    assert "handoff_closed[3]: a NoneType, not text, dropped" in problems
    assert "handoff_closed[4]: empty, dropped" in problems
    out, problems = a.validate({"handoff_closed": "h-1a2b3c4d"})
    assert out["handoff_closed"] == ["h-1a2b3c4d"]
    assert "handoff_closed: a str instead of a list, taken as one item" in problems
    out, _ = a.validate({"handoff": []})
    assert "handoff_closed" not in out and out["handoff"] == []
