"""memory/migrate.py: old files leave Claude Code's auto-memory folder once, merged, never lost."""

import json
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from lazy_harness import paths
from lazy_harness.memory import handoff, migrate
from lazy_harness.project_identity import project_root

from tests.cli.lhrun import invoke
from tests.hooks.hookrun import hook_log, run_hook

NOW = 1_780_000_000.0
CLAUDE_FILES = {"MEMORY.md": "- [topic](topic.md)\n", "topic.md": "# topic\nthe user likes tabs\n",
                "notes.json": '{"x": 1}\n', ".consolidate-lock": "", "sub/deep.md": "deep\n"}


def rec(summary: str, kind: str = "decision", **extra) -> dict:
    return {"ts": "2026-05-01T10:00:00+00:00", "type": kind, "project": "proj", "session_id": "s1",
            "task_id": "t1", "summary": summary, **extra}


def line(r: dict) -> str:
    return json.dumps(r, ensure_ascii=False)


@pytest.fixture
def project(tmp_path):
    p = tmp_path / "work" / "proj"
    p.mkdir(parents=True)
    return str(p)


def legacy(project: str, key: str | None = None) -> str:
    folder = paths.claude_memory_dir(key or paths.project_key(project))
    os.makedirs(folder, exist_ok=True)
    return folder


def plant_claude_files(folder: str) -> dict[str, tuple[bytes, int]]:
    for name, text in CLAUDE_FILES.items():
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as fh:
            fh.write(text)
    return claude_state(folder)


def claude_state(folder: str) -> dict[str, tuple[bytes, int]]:
    out = {}
    for name in CLAUDE_FILES:
        path = os.path.join(folder, name)
        with open(path, "rb") as fh:
            out[name] = (fh.read(), os.stat(path).st_mtime_ns)
    return out


def write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


def read_records(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(ln) for ln in fh if ln.strip()]


def run_migration(project: str) -> list[str]:
    root = project_root(project)
    return migrate.migrate(paths.project_memory_dir(root), paths.project_key(root), root, None, NOW)


def seed(folder: str) -> None:
    decisions = [line(rec("Use a Maildir queue", rationale="atomic renames")),
                 line(rec("Keep hooks stdlib-only")),
                 '{"ts": "2026-05-01T10:00:00+00:00", "type": "decision", "summ',  # torn by a kill
                 line({"ts": "x", "type": "decision", "note": "hand-written, no summary"})]
    write(os.path.join(folder, "decisions.jsonl"), "\n".join(decisions) + "\n")
    write(os.path.join(folder, "failures.jsonl"), line(rec("Worker crashed on a FIFO", "failure")) + "\n")
    write(os.path.join(folder, "handoff.md"), "# Open items for the next session\n\n- finish the docs\n")


def test_old_files_move_and_claude_codes_own_files_stay_untouched(project):
    old = legacy(project)
    before = plant_claude_files(old)
    seed(old)
    lines = run_migration(project)
    new = paths.project_memory_dir(project)
    assert sorted(os.listdir(old)) == sorted({n.split("/")[0] for n in CLAUDE_FILES})
    assert claude_state(old) == before  # same bytes, same mtimes
    decisions = read_records(os.path.join(new, "decisions.jsonl"))
    assert [d.get("summary") for d in decisions] == ["Use a Maildir queue", "Keep hooks stdlib-only", None]
    assert decisions[0]["rationale"] == "atomic renames"
    assert [f["summary"] for f in read_records(os.path.join(new, "failures.jsonl"))] == ["Worker crashed on a FIFO"]
    with open(os.path.join(new, "handoff.md")) as fh:
        assert "- finish the docs" in fh.read()
    assert any("1 unreadable line(s) skipped" in ln for ln in lines), lines
    assert run_migration(project) == []  # once: nothing left to do


def test_entries_merge_into_an_existing_file_without_duplicates(project):
    old = legacy(project)
    seed(old)
    new = paths.project_memory_dir(project)
    os.makedirs(new)
    # the new file already has one of them (spelled differently), and a torn last line of its own
    write(os.path.join(new, "decisions.jsonl"), line(rec("  use a MAILDIR   queue ")) + "\n" + '{"ts": "torn')
    run_migration(project)
    with open(os.path.join(new, "decisions.jsonl")) as fh:
        raw = fh.read().splitlines()
    assert raw[1] == '{"ts": "torn'  # the fragment stays, healed onto its own line
    summaries = [json.loads(x).get("summary") for x in raw if x != '{"ts": "torn']
    assert summaries == ["  use a MAILDIR   queue ", "Keep hooks stdlib-only", None]


def test_a_project_handoff_and_the_old_one_are_merged_item_by_item(project):
    old = legacy(project)
    write(os.path.join(old, "handoff.md"), "# Open items\n\n- old item\n- shared item\n")
    new = paths.project_memory_dir(project)
    os.makedirs(new)
    write(os.path.join(new, "handoff.md"), "# Open items\n\n- new item\n- shared item\n")
    lines = run_migration(project)
    assert any("merged into" in ln for ln in lines), lines
    assert not os.path.exists(os.path.join(old, "handoff.md"))
    texts = sorted(item["text"] for item in handoff.open_items(handoff.load(new)[0]))
    assert texts == ["new item", "old item", "shared item"]
    assert run_migration(project) == []  # done once


def test_a_handoff_state_file_counts_as_an_existing_handoff(project):
    old = legacy(project)
    write(os.path.join(old, "handoff.md"), "- old item\n")
    new = paths.project_memory_dir(project)
    os.makedirs(new)
    write(os.path.join(new, "handoff.jsonl"), "")
    run_migration(project)
    assert not os.path.exists(os.path.join(old, "handoff.md"))
    assert [i["text"] for i in handoff.open_items(handoff.load(new)[0])] == ["old item"]


def test_the_key_an_older_version_computed_for_an_emoji_path_is_migrated_too(tmp_path):
    p = tmp_path / "emoji-🚀"
    p.mkdir()
    old_key = paths.legacy_project_key(str(p))
    assert old_key != paths.project_key(str(p))
    old = legacy(str(p), old_key)
    write(os.path.join(old, "decisions.jsonl"), line(rec("from the old key")) + "\n")
    run_migration(str(p))
    got = read_records(os.path.join(paths.project_memory_dir(str(p)), "decisions.jsonl"))
    assert [d["summary"] for d in got] == ["from the old key"]
    assert os.listdir(old) == []


def test_a_symlink_in_place_of_an_old_file_is_not_followed(project, tmp_path):
    old = legacy(project)
    target = tmp_path / "elsewhere.jsonl"
    target.write_text(line(rec("not ours to take")) + "\n")
    os.symlink(target, os.path.join(old, "decisions.jsonl"))
    assert run_migration(project) == []
    assert os.path.islink(os.path.join(old, "decisions.jsonl"))
    assert target.read_text().count("not ours") == 1


def test_our_stale_temp_files_go_and_other_dot_files_stay(project):
    old = legacy(project)
    seed(old)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    ours = f".handoff.md.{dead.stdout.strip()}.deadbeef.tmp"
    for name in (ours, ".consolidate-lock", f".MEMORY.md.{dead.stdout.strip()}.ab.tmp"):
        write(os.path.join(old, name), "x")
    run_migration(project)
    # the MEMORY.md temp is ours too: drop_stale_lines rewrites that file (tests/test_killed_writer_temps_named.py)
    assert sorted(os.listdir(old)) == [".consolidate-lock"]


# --- a SIGKILL anywhere loses nothing; the next run completes the move ---------------------------

CHILD = textwrap.dedent("""
    import os, signal, sys
    from lazy_harness import atomic, paths
    from lazy_harness.memory import migrate
    where, n = sys.argv[2], int(sys.argv[3])
    count = [0]
    def tick():
        count[0] += 1
        if count[0] == n:
            os.kill(os.getpid(), signal.SIGKILL)
    if where == "append":
        real = atomic.append_line
        def append_line(path, line, *a, **k):
            tick()
            return real(path, line, *a, **k)
        atomic.append_line = append_line
    elif where == "append-half":  # the kill lands inside one write: half a line on disk
        def append_line(path, line, *a, **k):
            count[0] += 1
            if count[0] == n:
                with open(path, "ab") as fh:
                    fh.write((line + "\\n").encode()[: len(line) // 2])
                os.kill(os.getpid(), signal.SIGKILL)
            real(path, line, *a, **k)
        real = atomic.append_line
        atomic.append_line = append_line
    elif where == "unlink":
        real = os.unlink
        def unlink(path, *a, **k):
            if os.path.basename(path) in migrate.NAMES:
                tick()
            return real(path, *a, **k)
        os.unlink = unlink
    elif where == "write":
        real = atomic.atomic_write
        def atomic_write(*a, **k):
            out = real(*a, **k)
            tick()
            return out
        atomic.atomic_write = atomic_write
    root = sys.argv[1]
    migrate.migrate(paths.project_memory_dir(root), paths.project_key(root), root, None, 0.0)
    print("finished")
""")


@pytest.mark.parametrize("where,n", [("append", 1), ("append", 3), ("append-half", 2), ("append-half", 3),
                                     ("unlink", 1), ("unlink", 2), ("unlink", 3), ("write", 1)])
def test_a_kill_at_any_step_loses_nothing_and_a_rerun_completes(project, tmp_path, where, n):
    old = legacy(project)
    before = plant_claude_files(old)
    seed(old)
    child = subprocess.run([sys.executable, "-c", CHILD, project, where, str(n)], capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert child.returncode == -signal.SIGKILL, (child.stdout, child.stderr)
    run_migration(project)
    new = paths.project_memory_dir(project)
    decisions = [d.get("summary") for d in _whole_records(os.path.join(new, "decisions.jsonl"))]
    assert decisions == ["Use a Maildir queue", "Keep hooks stdlib-only", None]
    assert [f["summary"] for f in _whole_records(os.path.join(new, "failures.jsonl"))] == ["Worker crashed on a FIFO"]
    with open(os.path.join(new, "handoff.md")) as fh:
        assert fh.read() == "# Open items for the next session\n\n- finish the docs\n"
    assert claude_state(old) == before and not set(os.listdir(old)) & set(migrate.NAMES)


def _whole_records(path: str) -> list[dict]:
    out = []
    with open(path, encoding="utf-8") as fh:
        for ln in fh:
            try:
                out.append(json.loads(ln))
            except ValueError:
                continue  # a line cut by the kill: never an entry
    return out


# --- who runs it --------------------------------------------------------------------------------

def test_session_start_moves_old_files_and_reads_them_back(project):
    old = legacy(project)
    before = plant_claude_files(old)
    seed(old)
    payload = {"session_id": "s-1", "transcript_path": "/nonexistent.jsonl", "cwd": project,
               "hook_event_name": "SessionStart", "source": "startup"}
    p = run_hook("SessionStart", payload)
    assert p.returncode == 0, p.stderr
    context = json.loads(p.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "Use a Maildir queue" in context and "finish the docs" in context
    assert paths.project_memory_dir(project) in context
    assert claude_state(old) == before and not set(os.listdir(old)) & set(migrate.NAMES)
    assert any("migrate:" in ln for ln in hook_log(paths.claude_dir()))


def test_lh_memory_path_prints_the_folders_and_lh_memory_show_moves_old_files(project, monkeypatch):
    old = legacy(project)
    seed(old)
    out = invoke("memory", "path", "--project", project)
    assert out.code == 0 and out.out == paths.project_memory_dir(project) + "\n"
    assert "wait in" in out.err and os.path.exists(os.path.join(old, "decisions.jsonl"))  # named, not moved
    shown = invoke("memory", "show", "--project", project)
    assert "migrate:" in shown.err and not os.path.exists(os.path.join(old, "decisions.jsonl"))
    monkeypatch.chdir(project)
    assert invoke("memory", "path").out == paths.project_memory_dir(project) + "\n"
    assert invoke("memory", "path", "--learnings").out == paths.learnings_dir() + "\n"


def test_lh_memory_path_follows_the_config(project, tmp_path, monkeypatch):
    cfg = tmp_path / "cfg" / "config.toml"
    cfg.parent.mkdir()
    cfg.write_text('[memory]\npath = "mem"\n[knowledge]\npath = "$HOME/notes"\n')
    monkeypatch.setenv("LH_CONFIG", str(cfg))
    assert invoke("memory", "path", "--project", project).out.strip() == str(
        tmp_path / "cfg" / "mem" / paths.project_key(project))
    assert invoke("memory", "path", "--learnings").out.strip() == os.path.join(os.environ["HOME"], "notes", "learnings")


# --- Claude Code's MEMORY.md listing the moved handoff.md -----------------------------------------

INDEX_BEFORE = ("- [topic](topic.md) \u2014 the user likes tabs\n- [handoff](handoff.md)\n"
                "- [notes on handoff.md](notes.md)\n")


def test_a_memory_md_line_linking_to_the_moved_handoff_is_removed_and_nothing_else(project):
    old = legacy(project)
    seed(old)
    write(os.path.join(old, "MEMORY.md"), INDEX_BEFORE)
    os.chmod(os.path.join(old, "MEMORY.md"), 0o644)
    lines = run_migration(project)
    with open(os.path.join(old, "MEMORY.md"), encoding="utf-8") as fh:
        assert fh.read() == "- [topic](topic.md) \u2014 the user likes tabs\n- [notes on handoff.md](notes.md)\n"
    assert os.stat(os.path.join(old, "MEMORY.md")).st_mode & 0o777 == 0o644
    assert any("1 line(s) linking to the moved handoff.md removed" in ln for ln in lines), lines
    assert run_migration(project) == []


def test_a_memory_md_written_after_the_move_is_mended_by_the_next_start(project):
    old = legacy(project)
    seed(old)
    assert run_migration(project)
    # Claude Code's startup scan saw handoff.md before the hook moved it, and wrote its index after
    write(os.path.join(old, "MEMORY.md"), INDEX_BEFORE)
    root = project_root(project)
    assert migrate.stale_index(paths.project_key(root), root) == [os.path.join(old, "MEMORY.md")]
    p = run_hook("SessionStart", {"session_id": "s-2", "transcript_path": "/nonexistent.jsonl", "cwd": project,
                                  "hook_event_name": "SessionStart", "source": "startup"})
    assert p.returncode == 0, p.stderr
    with open(os.path.join(old, "MEMORY.md"), encoding="utf-8") as fh:
        assert "](handoff.md)" not in fh.read()
    assert migrate.stale_index(paths.project_key(root), root) == []


def test_a_memory_md_link_stays_while_a_handoff_md_is_still_there(project):
    old = legacy(project)
    write(os.path.join(old, "MEMORY.md"), INDEX_BEFORE)
    write(os.path.join(old, "handoff.md"), "# notes the person keeps there\n")  # not moved (yet)
    root = project_root(project)
    assert migrate.stale_index(paths.project_key(root), root) == []
    assert migrate.drop_stale_lines(os.path.join(old, "MEMORY.md")) is None
    with open(os.path.join(old, "MEMORY.md"), encoding="utf-8") as fh:
        assert fh.read() == INDEX_BEFORE


def test_an_empty_old_file_is_said_as_empty_not_as_0_of_0_entries_added(project):
    old = legacy(project)
    write(os.path.join(old, "failures.jsonl"), "\n")
    lines = run_migration(project)
    assert not any("0 of 0" in ln for ln in lines), lines
    [said] = [ln for ln in lines if "failures.jsonl" in ln]
    assert said.endswith("failures.jsonl: no entries in it: removed"), said
    assert not os.path.exists(os.path.join(old, "failures.jsonl"))


def test_an_old_file_whose_entries_are_all_here_says_so(project):
    old = legacy(project)
    new = paths.project_memory_dir(project)
    os.makedirs(new)
    write(os.path.join(new, "decisions.jsonl"), line(rec("Use a Maildir queue")) + "\n")
    write(os.path.join(old, "decisions.jsonl"), line(rec("use a maildir queue")) + "\n")
    [said] = [ln for ln in run_migration(project) if "decisions.jsonl" in ln]
    assert said.endswith(": its 1 entry is held here already: removed"), said
