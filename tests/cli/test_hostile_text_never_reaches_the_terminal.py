"""Text a command prints that someone else chose: a project folder's name (a cloned repository's URL
picks it), a learning file's name (any clone of the sync remote writes one), a session's transcript.
An escape sequence in it (OSC 0 retitles the window, OSC 52 writes the clipboard, ESC [2J clears the
screen), an 8-bit CSI, a backspace run or a bidi override is shown as its escape (``\\u001b``), never
sent to the terminal raw. Each scenario printed the character raw before the fix."""

import json
import os
import time

import click

from lazy_harness import cli as lh_cli, paths
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time() - 3600
# a window title, a clipboard write, a cleared screen, an 8-bit CSI, a backspace run, a bidi override
HOSTILE = "\x1b]0;owned\x07\x1b]52;c;Y3VybA==\x07\x1b[2J\x9b31m\x08\x08\u202eX"
RAW = ("\x1b", "\x07", "\x9b", "\x08", "\u202e")


def _raw(text: str) -> list[str]:
    return [repr(c) for c in RAW if c in text]


def test_history_of_a_project_with_no_changes_names_it_escaped(tmp_path, monkeypatch):
    root = ms.make_project(tmp_path, "repo" + HOSTILE)
    done = invoke("memory", "history", "--project", root)
    assert done.code == 0, done.err
    assert "no changes recorded for repo\\u001b]0;owned" in done.out
    assert _raw(done.out + done.err) == []


def test_doctor_names_a_synced_learning_file_escaped(tmp_path, monkeypatch):
    monkeypatch.chdir(ms.make_project(tmp_path, "proj"))
    month = os.path.join(paths.learnings_dir(), "2026-12")
    os.makedirs(os.path.join(month, "2026-12-06-folder" + HOSTILE + ".md"))
    with open(os.path.join(month, "2026-12-06-yaml" + HOSTILE + ".md"), "w", encoding="utf-8") as fh:
        fh.write("---\ntitle: [unclosed\n---\nbody\n")
    os.symlink("/nowhere" + HOSTILE, os.path.join(month, "2026-12-06-link" + HOSTILE + ".md"))
    done = invoke("doctor")
    warned = [line for line in done.out.splitlines()
              if line.startswith("warn  learning files: ") and "2026-12-06-" in line]
    assert len(warned) == 3, done.out
    assert all("\\u001b]0;owned" in line for line in warned), warned
    assert _raw(done.out + done.err) == []


def test_an_error_line_names_a_hostile_folder_escaped(tmp_path, monkeypatch):
    monkeypatch.chdir(ms.make_project(tmp_path, "repo" + HOSTILE))
    done = invoke("knowledge", "handoff-now")
    assert done.code == 1
    assert done.err.startswith("lh: no interactive Claude Code session found for "), done.err
    assert "repo\\u001b]0;owned" in done.err
    assert _raw(done.out + done.err) == []


def _with_hostile_prompt(transcript: str) -> None:
    """The session's first typed prompt ends with :data:`HOSTILE` (what a pasted log or a tool's
    output brings into a transcript)."""
    records = [json.loads(line) for line in open(transcript, encoding="utf-8").read().splitlines()]
    first = next(r for r in records if r.get("type") == "user" and isinstance(r["message"].get("content"), str))
    first["message"]["content"] += " pasted " + HOSTILE
    with open(transcript, "w", encoding="utf-8") as fh:
        fh.write("".join(json.dumps(r) + "\n" for r in records))


def test_distill_dry_run_prints_the_transcripts_text_escaped(isolated_home, tmp_path, monkeypatch):
    from tests.support import fake_claude
    from tests.support.sessions import place

    fake_claude.use(tmp_path, monkeypatch)
    project = tmp_path / "proj"
    project.mkdir()
    transcript = place(project)["transcript_path"]
    _with_hostile_prompt(transcript)
    done = invoke("distill", transcript, "--dry-run")
    assert done.code == 0, done.err
    [line] = [line for line in done.out.splitlines() if " pasted " in line]
    assert "\\u009b31m" in line and "\\u202eX" in line, repr(line)
    assert _raw(done.out + done.err) == []


def test_handoff_now_wait_prints_a_failed_calls_stderr_escaped(isolated_home, tmp_path, monkeypatch):
    from tests.hooks.hookrun import enable_loop
    from tests.support import fake_claude
    from tests.support.sessions import place

    enable_loop(isolated_home, retry_backoff_seconds=0, max_attempts=1)
    fake_claude.use(tmp_path, monkeypatch, answer={"__fail__": "claude reported an error: " + HOSTILE})
    project = tmp_path / "proj"
    project.mkdir()
    place(project)
    monkeypatch.chdir(project)
    done = invoke("knowledge", "handoff-now", "--wait")
    assert done.code == 1
    [failed] = [line for line in done.out.splitlines() if line.startswith("failed: ")]
    assert "claude reported an error: \\u001b]0;owned" in failed, repr(failed)
    assert _raw(done.out + done.err) == []


def test_consolidate_prints_a_failed_calls_stderr_escaped(isolated_home, tmp_path, monkeypatch):
    from tests.hooks.hookrun import enable_loop
    from tests.support import fake_claude

    enable_loop(isolated_home, retry_backoff_seconds=0, max_attempts=1)
    fake_claude.use(tmp_path, monkeypatch, answer={"__fail__": "claude reported an error: " + HOSTILE})
    root = ms.make_project(tmp_path, "proj")
    ms.write_jsonl(os.path.join(paths.project_memory_dir(root), "decisions.jsonl"),
                   [ms.decision(NOW - i, f"Use SQLite for the index, take {i}", "one file") for i in range(30)])
    done = invoke("memory", "consolidate", "--project", root)
    assert done.code == 1
    assert done.out.startswith("failed: ") and "claude reported an error: \\u001b]0;owned" in done.out, done.out
    assert _raw(done.out + done.err) == []


@click.command()
@click.option("--json", "as_json", is_flag=True)
def _careless(as_json: bool) -> None:
    """What a new command might do: print a text others chose with no escape of its own."""
    if as_json:
        click.echo(json.dumps({"title": HOSTILE + "\u180b"}, ensure_ascii=False))
        return
    click.echo("title: " + HOSTILE + "\n\tsecond line")
    click.echo("why: " + HOSTILE, err=True)


def test_a_command_that_forgets_the_escape_prints_nothing_raw(monkeypatch):
    monkeypatch.setitem(lh_cli.COMMANDS, "careless", (__name__, "_careless", "prints what others chose"))
    done = invoke("careless")
    assert done.code == 0, done.err
    assert _raw(done.out + done.err) == []
    assert done.out.startswith("title: \\u001b]0;owned\\u0007\\u001b]52;c;"), done.out
    assert done.out.endswith("\\u202eX\n\tsecond line\n"), done.out  # newlines and tabs stay
    assert done.err.startswith("why: \\u001b]0;owned"), done.err
    as_json = invoke("careless", "--json")
    assert _raw(as_json.out) == [] and "\u180b" not in as_json.out
    assert json.loads(as_json.out) == {"title": HOSTILE + "\u180b"}  # the escapes are JSON's: nothing lost
