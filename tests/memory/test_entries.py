"""decisions/failures entries: one whole line each, and a de-dup scan that reads the file itself."""

import json

from lazy_harness.memory import entries
from lazy_harness.memory.sanitize import normalise

NOW = 1_760_000_000.0
META = {"project": "proj", "session_id": "sess-1", "task_id": "t-1", "cwd": "/x"}


def decision(summary: str, **extra) -> dict:
    return {"summary": summary, "context": "ctx", "alternatives": ["a", "b"], "rationale": "why", "tags": ["t"],
            **extra}


def write_lines(path: str, lines: list[str], end: str = "\n") -> None:
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + end)


def test_record_field_order_and_types():
    rec = entries.record("failure", {"summary": "boom", "root_cause": "rc", "resolution": "res",
                                     "prevention": "p", "tags": "single", "unknown": "dropped"}, META, NOW)
    assert list(rec) == ["ts", "type", "id", "project", "session_id", "task_id", "summary", "root_cause",
                         "resolution", "prevention", "tags", "cues",
                         "project_folder", "via", "machine", "author", "text_digest"]  # provenance
    assert rec["type"] == "failure" and rec["tags"] == ["single"] and rec["task_id"] == "t-1"
    rec = entries.record("decision", {"summary": "s", "alternatives": None}, META, NOW)
    assert rec["alternatives"] == [] and rec["context"] == "" and rec["rationale"] == ""


def test_json_line_is_one_line_whatever_the_text():
    hostile = "a\nb\r\nc\u2028d\u2029e\x85f\x00g\x1eh\ud800i"
    rec = entries.record("decision", decision(hostile, context=hostile, alternatives=[hostile]), META, NOW)
    line = entries.json_line(rec)
    assert "\n" not in line and "\r" not in line
    assert len(line.splitlines()) == 1 and len(line.encode("utf-8").split(b"\n")) == 1
    back = json.loads(line)
    assert back["context"] == hostile.replace("\ud800", "?")
    assert "\n" not in back["summary"] and back["summary"].startswith("a b c d e f")


def test_recorded_finds_normalised_summaries_and_ignores_other_fields(tmp_path):
    path = str(tmp_path / "decisions.jsonl")
    lines = [entries.json_line(entries.record("decision", decision("Use the queue folder."), META, NOW)),
             # the same words inside another field must not count as a recorded summary
             entries.json_line(entries.record("decision", decision("Other", context='"summary": "Use X"'), META, NOW)),
             json.dumps({"summary": "Compact  FORM!"}, separators=(",", ":")),  # a hand-written line
             json.dumps({"summary": "Ünïcode Über \"quoted\" \\path"}, ensure_ascii=False),
             json.dumps({"summary": "Straße für alle"}),  # ensure_ascii: \u00df escapes
             json.dumps({"summary": "日本語の要約"}, ensure_ascii=False),
             "not json at all"]
    write_lines(path, lines)
    keys = {normalise(s) for s in ("use the queue folder", "Use X", "compact form", "other",
                                   "ünïcode über \"quoted\" \\path", "STRASSE FÜR ALLE", "日本語の要約。",
                                   "never written")}
    assert entries.recorded(path, keys) == keys - {"use x", "never written"}


def test_recorded_never_counts_a_torn_line(tmp_path):
    path = str(tmp_path / "decisions.jsonl")
    whole = entries.json_line(entries.record("decision", decision("kept"), META, NOW))
    torn = entries.json_line(entries.record("decision", decision("torn apart"), META, NOW))[:-20]
    write_lines(path, [whole, torn], end="")
    assert entries.recorded(path, {"kept", "torn apart"}) == {"kept"}
    assert entries.heal_tail(path) is True
    assert entries.heal_tail(path) is False  # already ends with a newline
    with open(path, "rb") as fh:
        assert fh.read().endswith(torn.encode() + b"\n")


def test_recorded_skips_a_line_cut_inside_a_summary_with_escapes_and_reads_on(tmp_path):
    path = str(tmp_path / "decisions.jsonl")
    cut = json.dumps({"summary": 'Say "cut here" and stop'})
    cut = cut[:cut.index("here")]  # the string never closes on its line
    after = json.dumps({"summary": 'Read "on" after it'})
    write_lines(path, [cut, after])
    assert entries.recorded(path, {normalise('say "cut'), normalise('read "on" after it')}) == {
        normalise('read "on" after it')}


def test_recorded_missing_or_empty_file(tmp_path):
    path = str(tmp_path / "none.jsonl")
    assert entries.recorded(path, {"x"}) == set()
    open(path, "w").close()
    assert entries.recorded(path, {"x"}) == set()
    assert entries.recorded(path, set()) == set()


def test_recorded_scans_ten_thousand_entries(tmp_path):
    """Correct at the size the issue names; its timing lives in benchmarks, not here."""
    path = str(tmp_path / "decisions.jsonl")
    write_lines(path, [entries.json_line(entries.record("decision", decision(f"decision number {i}"), META, NOW))
                       for i in range(10_000)])
    assert entries.recorded(path, {"decision number 0", "decision number 9999", "decision number 10000"}) == {
        "decision number 0", "decision number 9999"}
