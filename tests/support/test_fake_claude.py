"""The fake ``claude`` itself: concurrent calls never tear a record, whoever reads while they write."""

import json
import subprocess

from tests.support import fake_claude

CALLS = 8
BIG = 1_500_000  # a record of this size takes many pages, so one write() is not seen whole at once


def _start(exe, tmp_path, i: int) -> subprocess.Popen:
    """One call reading its prompt from a file, so every call starts at once."""
    prompt = tmp_path / f"prompt-{i}"
    prompt.write_bytes(f"{fake_claude.FENCE} LHTOK-call{i} ".encode() + b"x" * (BIG + i))
    with open(prompt, "rb") as stdin:
        return subprocess.Popen([str(exe), "-p"], stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_a_reader_polling_while_calls_write_never_sees_a_torn_record(tmp_path):
    gate = tmp_path / "go"
    exe = fake_claude.install(tmp_path / "bin", template={"handoff": ["@TOKEN@"]}, gate=str(gate))
    procs = [_start(exe, tmp_path, i) for i in range(CALLS)]
    polls, seen = 0, 0
    # why a gate: every call in flight is polled at least once, then they answer and write their end
    # records while the loop below polls on, whatever the machine's speed
    while sum(r["event"] == "start" for r in fake_claude.records(tmp_path / "bin")) < CALLS:
        polls += 1
        assert all(p.poll() is None for p in procs), [p.poll() for p in procs]
    gate.touch()
    while seen < 2 * CALLS:  # bounded by the processes: each writes exactly two records, then exits
        recs = fake_claude.records(tmp_path / "bin")  # raises on a torn line
        polls += 1
        assert len(recs) >= seen
        seen = len(recs)
        for rec in recs:
            if rec["event"] == "start":
                assert rec["stdin_len"] == len(rec["stdin"]) > BIG
        if all(p.poll() is not None for p in procs):
            break
    outs = [p.stdout.read() for p in procs]
    for p in procs:
        p.wait(timeout=60)
        p.stdout.close()
        p.stderr.close()
    assert [p.returncode for p in procs] == [0] * CALLS
    assert polls > 1
    calls = fake_claude.calls(tmp_path / "bin")
    assert sorted(c["n"] for c in calls) == list(range(1, CALLS + 1))  # numbered under the lock
    assert all(c["end"] is not None for c in calls)
    assert sorted(c["token"] for c in calls) == sorted(f"LHTOK-call{i}" for i in range(CALLS))
    answers = sorted(json.loads(out)["structured_output"]["handoff"][0] for out in outs)
    assert answers == sorted(f"LHTOK-call{i}" for i in range(CALLS))


def test_a_last_line_without_its_newline_is_left_out(tmp_path):
    bin_dir = tmp_path / "bin"
    fake_claude.install(bin_dir)
    whole = json.dumps({"event": "start", "pid": 1, "t": 0.0}) + "\n"
    (bin_dir / fake_claude.RECORDS).write_text(whole + '{"event": "end", "pi')
    assert fake_claude.records(bin_dir) == [json.loads(whole)]
    assert fake_claude.calls(bin_dir) == [dict(json.loads(whole), end=None)]


def test_fail_times_counts_calls_and_version_answers(tmp_path):
    exe = fake_claude.install(tmp_path / "bin", fail_times=1)
    first = subprocess.run([str(exe), "-p"], input=b"hi", capture_output=True)
    second = subprocess.run([str(exe), "-p"], input=b"hi", capture_output=True)
    assert (first.returncode, b"overloaded" in first.stderr) == (1, True)
    assert second.returncode == 0
    assert json.loads(second.stdout)["structured_output"] == fake_claude.DEFAULT_ANSWER
    version = subprocess.run([str(exe), "--version"], capture_output=True, text=True)
    assert version.stdout.startswith("2.1.") and fake_claude.calls(tmp_path / "bin")[1]["n"] == 2
