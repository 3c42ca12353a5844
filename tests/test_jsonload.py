"""jsonload.loads gives what json.loads gives, and rejects what it rejects."""

import json
import math
import os
import subprocess
import sys

import pytest

import lazy_harness
from lazy_harness import jsonload
from tests.conftest import FIXTURES

PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(lazy_harness.__file__)))
DOCUMENTS = [
    '{"session_id": "5f0c2a8e", "transcript_path": "/home/u/.claude/projects/-x/5f0c2a8e.jsonl"}',
    '  \n\t{"a": [1, -2, 3.5, 1e400, -0.0, 12345678901234567890123, true, false, null]}\r\n',
    '{"text": "caf\\u00e9 \\ud83d\\ude00 \\"quoted\\" back\\\\slash \\n tab\\t", "raw": "über 😀"}',
    '{"lone": "\\ud800", "empty": {}, "list": [], "nested": {"a": {"b": {"c": [[[]]]}}}}',
    '"just a string"',
    "42",
    "[]",
    '{"dup": 1, "dup": 2}',
]
BAD = ['', '   ', '{', '{"a": }', '{"a" 1}', '[1, 2', '{"a": 1} x', '{"a": 1}{"b": 2}', "{'a': 1}",
       '{"a": "line\nbreak"}', "nan", "[01]", '\ufeff{"a": 1}', "{\"a\": 1,}"]


@pytest.mark.parametrize("text", DOCUMENTS)
def test_same_result_as_json(text):
    assert jsonload.loads(text) == json.loads(text)
    assert jsonload.loads(text.encode("utf-8")) == json.loads(text.encode("utf-8"))


def test_constants_are_the_same_as_json():
    got = jsonload.loads('[NaN, Infinity, -Infinity]')
    assert math.isnan(got[0]) and got[1:] == [math.inf, -math.inf]


@pytest.mark.parametrize("text", BAD)
def test_rejects_what_json_rejects_with_the_same_error(text):
    with pytest.raises(ValueError) as theirs:
        json.loads(text)
    with pytest.raises(ValueError) as ours:
        jsonload.loads(text)
    assert (type(ours.value), str(ours.value)) == (type(theirs.value), str(theirs.value))


def test_a_fresh_process_decodes_without_importing_json_and_still_reports_bad_input():
    # why: the C scanner can only build its error when json.decoder is loaded; bad input must still
    # end in json's JSONDecodeError, and good input must not load json at all
    code = ("import sys\nfrom lazy_harness import jsonload\n"
            "assert jsonload.loads(b'{\"a\": [1, \"x\"]}') == {'a': [1, 'x']}\n"
            "assert 'json' not in sys.modules and 're' not in sys.modules, sorted(sys.modules)\n"
            "try:\n    jsonload.loads('{this is not json')\nexcept ValueError as exc:\n"
            "    print(type(exc).__name__, exc)\n")
    env = dict(os.environ, PYTHONPATH=PACKAGE_PARENT)
    p = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("JSONDecodeError Expecting property name enclosed in double quotes"), p.stdout


def test_every_recorded_hook_payload_decodes_as_with_json():
    lines = (FIXTURES / "transcripts" / "hook-payloads.jsonl").read_bytes().splitlines()
    assert len(lines) > 10
    for line in lines:
        assert jsonload.loads(line) == json.loads(line)
        payload = json.loads(line)["payload"]
        raw = json.dumps(payload).encode()
        assert jsonload.loads(raw) == payload


def test_bytes_with_a_bom_or_in_utf16_decode_like_json():
    doc = {"session_id": "é"}
    for raw in (b"\xef\xbb\xbf" + json.dumps(doc).encode(), json.dumps(doc).encode("utf-16"),
                json.dumps(doc).encode("utf-16-le")):
        assert jsonload.loads(raw) == json.loads(raw) == doc


def test_bytes_that_are_not_utf8_raise_a_value_error():
    with pytest.raises(ValueError):
        jsonload.loads(b'{"a": "\xff\xfe\xfa"}')


def test_without_the_c_scanner_json_itself_is_used(monkeypatch):
    monkeypatch.setattr(jsonload, "_scanner", False)
    assert jsonload.loads(DOCUMENTS[1]) == json.loads(DOCUMENTS[1])
    with pytest.raises(ValueError):
        jsonload.loads("{")


@pytest.mark.parametrize("value", [
    {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "é ✓ \"q\" \\ \n\t\u2028 𝄞"}},
    [1, -2, True, False, None, "x", [], {}],
    {"n": 10 ** 30, "nested": [{"a": ["b", {"c": None}]}]},
    {"t": 1723456789.125, "neg": -0.0, "tiny": 5e-324, "inf": [math.inf, -math.inf], "big": 1e300},
    {7: "int key", 2.5: "float key", True: "bool key", None: "none key", "s": ("a", "tuple")},
    {"heads": {f"/l/{i}.md": [i, 1723456789.5 + i, None, {"title": f"t {i}"}] for i in range(300)}},
])
def test_dumps_is_json_dumps(value):
    import json

    assert jsonload.dumps(value) == json.dumps(value)


def test_dumps_rejects_what_json_dumps_rejects():
    looped: list = []
    looped.append(looped)
    for value in ({"a": object()}, {"a": {1, 2}}, looped):
        with pytest.raises((TypeError, ValueError)) as ours:
            jsonload.dumps(value)
        with pytest.raises(type(ours.value)) as theirs:
            json.dumps(value)
        assert str(ours.value) == str(theirs.value)


def test_a_fresh_process_dumps_numbers_and_any_key_without_importing_json():
    """A float (a time, a score) or a number as a key used to send the whole value to ``json.dumps``,
    whose import costs a hook 16 to 27 ms (``re``, ``enum``...): the C encoder writes them itself."""
    code = ("import sys\nfrom lazy_harness import jsonload\n"
            "print(jsonload.dumps({'t': 1723456789.125, 3: [0.1, float('inf')], 'ok': True}))\n"
            "print('json' in sys.modules, 're' in sys.modules)\n")
    env = dict(os.environ, PYTHONPATH=PACKAGE_PARENT)
    p = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == ['{"t": 1723456789.125, "3": [0.1, Infinity], "ok": true}', "False False"]


def test_without_the_c_encoder_json_itself_is_used(monkeypatch):
    monkeypatch.setattr(jsonload, "_encoder", ())
    value = {"a": [1, 2.5, None], 3: "x"}
    assert jsonload.dumps(value) == json.dumps(value)
