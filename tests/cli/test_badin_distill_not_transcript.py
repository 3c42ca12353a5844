"""``lh distill FILE`` on a file no line of which is a JSON object (notes, a binary file) is refused
with one line naming the file and the first line that is not, exit 1, and no queue state is written
for it. A transcript with a damaged line among its records, and an empty transcript, are read as
before."""

import os

import pytest

from lazy_harness import paths
from tests.cli.lhrun import invoke
from tests.cli.test_badin_missing_project import snapshot
from tests.support.sessions import place

NOT_TRANSCRIPTS = {
    "text": (b"my notes\nline two\nline three\n", "line 1: not JSON"),
    "blank-first": (b"\n   \nmy notes\n", "line 3: not JSON"),
    "array": (b"[1, 2]\n\"a string\"\n", "line 1: not a JSON object"),
    "binary": (bytes(range(256)) * 4, "line 1: not JSON"),
    "no-newline": (b"x" * 3_000_000, "line 1: not JSON"),
}


@pytest.mark.parametrize("dry_run", [False, True], ids=["run", "dry-run"])
@pytest.mark.parametrize("name", list(NOT_TRANSCRIPTS))
def test_a_file_with_no_json_object_is_not_a_transcript(isolated_home, tmp_path, monkeypatch, name, dry_run):
    data, why = NOT_TRANSCRIPTS[name]
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "notes.txt").write_bytes(data)
    monkeypatch.chdir(tmp_path / "proj")
    before = snapshot(tmp_path)
    r = invoke("distill", "notes.txt", *(["--dry-run"] if dry_run else []))
    assert r.code == 1, (r.out, r.err)
    assert r.out == "" and r.err == f"lh: notes.txt: not a transcript ({why})\n", r.err
    assert snapshot(tmp_path) == before
    assert not os.path.exists(os.path.join(paths.queue_dir(), "state"))


def test_a_damaged_line_before_the_records_is_still_a_transcript(isolated_home, tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    transcript = place(project)["transcript_path"]
    with open(transcript, "rb") as fh:
        records = fh.read()
    with open(transcript, "wb") as fh:
        fh.write(b"\x00\x00 cut by a crash\n" + records)
    r = invoke("distill", transcript, "--dry-run")
    assert r.code == 0, r.err
    assert "not a transcript" not in r.err and "untrusted session data" in r.out


def test_an_empty_transcript_is_still_skipped_as_empty(isolated_home, tmp_path):
    empty = tmp_path / "0a1b2c3d-0000-4000-8000-000000000000.jsonl"
    empty.write_bytes(b"")
    r = invoke("distill", str(empty))
    assert r.code == 0, r.err
    assert r.out.startswith("skipped: not an interactive session (empty)"), r.out


def test_a_record_longer_than_what_is_read_at_once_is_not_refused(isolated_home, tmp_path):
    big = tmp_path / "0a1b2c3d-0000-4000-8000-000000000001.jsonl"
    big.write_text('{"type": "summary", "summary": "' + "x" * 3_000_000 + '"}\n')
    r = invoke("distill", str(big), "--dry-run")
    assert r.code == 0, r.err
    assert "not a transcript" not in r.err
