"""Damaged lines in the memory files: salvaged when that is sure, else skipped; either way counted and
named by file and line (lh memory check, lh doctor) and logged once per file state by the hook."""

import json
import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import damage, files, handoff, handoff_log, lines
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import hook_log, run_hook, spawned_workers_gone
from tests.support import memory_samples as ms

NOW = time.time()


# --- one line ------------------------------------------------------------------------------------

def test_a_clean_line_and_a_blank_one():
    assert lines.records_of(b'{"a": 1}') == ([{"a": 1}], "")
    assert lines.records_of(b"   ") == ([], "")


@pytest.mark.parametrize("raw, how", [
    (b'\x00\x00\x00\x00{"summary": "after a crash"}', "salvaged: NUL bytes"),
    (b'{"summary": "caf\xe9 after a hand edit"}', "salvaged: not UTF-8"),
    (b'{"summary": "one"}{"summary": "two"}', "salvaged: not JSON"),
    (b'{"summary": "torn by a ki{"summary": "whole"}', "salvaged: not JSON"),
])
def test_salvaged_lines(raw, how):
    recs, said = lines.records_of(raw)
    assert said == how and recs and all("summary" in r for r in recs)


@pytest.mark.parametrize("raw, how", [
    (b"\x00" * 40, "skipped: NUL bytes"),
    (b"\xff\xfe garbage \x81", "skipped: not UTF-8"),
    (b"not json at all", "skipped: not JSON"),
    (b"[1, 2]", "skipped: not a JSON object"),
    (b"x" * (lines.MAX_LINE + 1), "skipped: longer than 1 MiB"),
])
def test_skipped_lines(raw, how):
    assert lines.records_of(raw) == ([], how)


# --- the scribbled handoff log: why items went missing, and what comes back -----------------------

def scribbled_handoff(mdir: str) -> tuple[list[str], dict[str, int]]:
    """30 open items; four lines scribbled as a disk or stray write does. Returns the items' texts
    and, by kind of damage, the line (1-based) it hit."""
    texts = [f"item number {i} of the release checklist" for i in range(30)]
    handoff.append(mdir, [handoff_log.record("open", t, "s1", "t1", NOW - 3600 + i) for i, t in enumerate(texts)])
    path = os.path.join(mdir, files.HANDOFF_STATE)
    rows = open(path, "rb").read().split(b"\n")
    hit = {"key": 5, "text": 12, "nul": 20, "newline": 26}
    rows[hit["key"] - 1] = rows[hit["key"] - 1].replace(b'"session_id"', b'"se\xf1\xc2k0n_id')  # a key broken
    rows[hit["text"] - 1] = rows[hit["text"] - 1].replace(b'checklist", ', b"check\xbd\xf2!, ")  # its text
    rows[hit["nul"] - 1] = b"\x00" * 16 + rows[hit["nul"] - 1]  # a crash's zeroed block before a record
    rows[hit["newline"] - 1] = rows[hit["newline"] - 1] + rows.pop(hit["newline"])  # a lost newline
    with open(path, "wb") as fh:
        fh.write(b"\n".join(rows))
    return texts, hit


def test_the_scribbled_handoff_keeps_every_item_whose_id_still_matches_its_text(tmp_path):
    mdir = str(tmp_path / "mem")
    texts, hit = scribbled_handoff(mdir)
    state, _ = handoff.load(mdir)
    shown = {i["text"] for i in handoff.open_items(state)}
    lost = set(texts) - shown
    # before: the broken key and the broken text each cost an item, the NUL block one, the lost
    # newline two; now only the item whose text itself was scribbled is gone (its id no longer matches)
    assert lost == {texts[hit["text"] - 1]}, lost
    assert len(shown & set(texts)) == 29
    check = damage.check_file(os.path.join(mdir, files.HANDOFF_STATE))
    assert check.skipped == [(hit["text"], "skipped: not UTF-8")]
    assert [n for n, _ in check.salvaged] == [hit["key"], hit["nul"], hit["newline"]]


# --- the commands and the log ---------------------------------------------------------------------

@pytest.fixture
def damaged_project(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    good = [ms.decision(NOW - 60 * (5 - i), f"decision {i} about the queue", "because") for i in range(5)]
    path = os.path.join(mdir, files.DECISIONS)
    ms.write_jsonl(path, good[:2])
    with open(path, "ab") as fh:
        fh.write(b"\xff\xfe\x00\x81 scribbled \x00\x00\n")  # line 3: nothing left to read
        fh.write(b"\x00" * 32 + json.dumps(good[2]).encode() + b"\n")  # line 4: salvaged
    ms.write_jsonl(path, good[3:])
    return root, mdir, path


def start(root: str) -> dict:
    p = run_hook("SessionStart", {"session_id": "5f0c2a8e-9d1b-4e7a-8c3f-2b6d1e0a9f47", "cwd": root,
                                  "hook_event_name": "SessionStart", "source": "startup",
                                  "transcript_path": "/nonexistent.jsonl"})
    assert p.returncode == 0 and p.stderr == b""
    return json.loads(p.stdout)


def memory_lines(claude_dir) -> list[str]:
    return [ln for ln in hook_log(claude_dir) if " memory: " in ln]


def logged_once_per_state() -> list[str]:
    """The "memory:" lines of hooks.log and worker.log, once the workers the starts asked for the
    index (ADR 0042) are done: whichever reads a file state first reports it, the other does not."""
    spawned_workers_gone(timeout=120)
    try:
        with open(os.path.join(paths.logs_dir(), "worker.log"), encoding="utf-8") as fh:
            worker = [ln for ln in fh.read().splitlines() if " memory: " in ln]
    except FileNotFoundError:
        worker = []
    return sorted(memory_lines(paths.claude_dir()) + worker)


def test_session_start_shows_the_salvaged_entry_and_logs_the_file_once_per_state(damaged_project):
    root, mdir, path = damaged_project
    context = start(root)["hookSpecificOutput"]["additionalContext"]
    assert all(f"decision {i} about the queue" in context for i in range(5))
    logged = logged_once_per_state()
    assert len(logged) == 1
    assert f"{path}: 1 line(s) skipped (3: NUL bytes), 1 line(s) salvaged (4: NUL bytes)" in logged[0]
    start(root)  # the same file: nothing more in the log
    assert len(logged_once_per_state()) == 1
    ms.write_jsonl(path, [ms.decision(NOW, "a later decision", "r")])  # a new state, the same damage
    start(root)
    assert len(logged_once_per_state()) == 1
    with open(path, "ab") as fh:
        fh.write(b"\x00\x00\x00\x00\x00\n")  # new damage: logged again
    ms.write_jsonl(path, [ms.decision(NOW + 1, "the newest decision", "r")])
    start(root)
    logged = logged_once_per_state()
    assert len(logged) == 2 and any("2 line(s) skipped (3: NUL bytes, 8: NUL bytes)" in ln for ln in logged)


def test_lh_memory_check_names_each_damaged_line_and_exits_one(damaged_project):
    root, mdir, path = damaged_project
    r = invoke("memory", "check", "--project", root)
    assert r.code == 1
    assert f"{path}:3: skipped: NUL bytes" in r.out and f"{path}:4: salvaged: NUL bytes" in r.out
    assert "1 line(s) skipped, 1 salvaged, in 1 file(s)" in r.out
    clean = ms.make_project(os.path.dirname(root), "clean")
    ms.write_jsonl(os.path.join(paths.memory_dir(clean), files.DECISIONS), [ms.decision(NOW, "fine", "r")])
    ok = invoke("memory", "check", "--project", clean)
    assert ok.code == 0 and "0 line(s) skipped, 0 salvaged, in 0 file(s)" in ok.out
    every = invoke("memory", "check", "--all-projects")
    assert every.code == 1 and "in 2 project(s)" in every.out


def test_doctor_counts_and_names_skipped_lines(damaged_project):
    _, _, path = damaged_project
    found = [ln for ln in invoke("doctor").out.splitlines() if "memory lines:" in ln]
    assert len(found) == 1 and found[0].startswith("warn")
    assert f"1 line(s) skipped: {path}:3 (NUL bytes); 1 salvaged" in found[0]
    assert "lh memory check --all-projects" in found[0]


def test_the_worker_indexes_the_salvaged_entry_for_search_and_logs_the_file(damaged_project):
    root, _, path = damaged_project
    p = run_hook("UserPromptSubmit", {"session_id": "5f0c2a8e-9d1b-4e7a-8c3f-2b6d1e0a9f47", "cwd": root,
                                      "hook_event_name": "UserPromptSubmit", "prompt": "decision 2 about the queue"})
    assert p.returncode == 0 and p.stderr == b""
    spawned_workers_gone(timeout=120)  # no index yet: the hook asked the worker, which met the damaged lines
    with open(os.path.join(paths.logs_dir(), "worker.log"), encoding="utf-8") as fh:
        logged = [ln for ln in fh.read().splitlines() if " memory: " in ln]
    assert len(logged) == 1 and f"{path}: 1 line(s) skipped" in logged[0], logged
    found = invoke("memory", "search", "decision", "queue", "--project", root, "--json", "-n", "10")
    assert found.code == 0, found.err
    assert "decision 2 about the queue" in {json.loads(ln)["summary"] for ln in found.out.splitlines()}


def test_the_worker_logs_a_damaged_file_it_read_once(tmp_path, isolated_home, fake, project):
    from lazy_harness import logfile, queue
    from lazy_harness.worker import loop
    from tests.support.sessions import place

    cfg_file = isolated_home / ".config" / "lazy-harness" / "config.toml"
    cfg_file.parent.mkdir(parents=True)
    cfg_file.write_text("[compound_loop]\nenabled = true\n")
    path = os.path.join(paths.memory_dir(str(project)), files.DECISIONS)
    ms.write_jsonl(path, [ms.decision(NOW - 60, "an older decision", "r")])
    with open(path, "ab") as fh:
        fh.write(b"\x00\x00\x00 \xff\xfe\n")
    for _ in range(2):  # two tasks read the same damaged file: one line in the log
        queue.enqueue(paths.queue_dir(), queue.task_fields(place(project), "SessionEnd", True))
        loop.run()
    with open(logfile.log_path(logfile.WORKER)) as fh:
        logged = [ln for ln in fh if " memory: " in ln]
    assert len(logged) == 1 and f"{path}: 1 line(s) skipped (2: NUL bytes)" in logged[0]


# --- issue 37: a salvaged line is not a second entry "from unknown" -------------------------------

def _torn_then_whole(tmp_path):
    """A decision whose write was cut (a worker killed mid-line), then written whole by the retry after
    the next append ended the torn line, as entries.heal_tail does; and one decision around it."""
    from lazy_harness.memory import entries

    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    path = os.path.join(mdir, files.DECISIONS)
    meta = {"project": "proj", "session_id": "5f0c2a8e-9d1b", "task_id": "t-1", "project_folder": "proj"}
    before = entries.record("decision", {"summary": "keep the queue on local disk", "rationale": "r"}, meta, NOW - 90)
    torn = entries.record("decision", {"summary": "retry the model call three times", "rationale": "the API "
                                       "drops about one call in fifty under load", "tags": ["retry"]}, meta, NOW - 60)
    line = entries.json_line(torn)
    os.makedirs(mdir, exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(entries.json_line(before) + "\n" + line[:line.index('"tags"')])  # cut after the rationale
    entries.heal_tail(path)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(line + "\n")
    return root, mdir, path, torn


def test_a_salvaged_copy_of_an_entry_written_whole_is_read_once(tmp_path):
    root, mdir, path, torn = _torn_then_whole(tmp_path)
    tail = files.tail_records(path, 10)
    assert [r["summary"] for r in tail].count(torn["summary"]) == 1
    assert [r for r in tail if r["summary"] == torn["summary"]][0].get("via") == "session"
    from lazy_harness.recall.index import sources

    found, _, _, _ = sources.read_jsonl(path, "decision")
    assert [e["title"] for e in found].count(torn["summary"]) == 1


def test_session_start_shows_a_salvaged_entry_once_and_not_from_unknown(tmp_path):
    root, mdir, path, torn = _torn_then_whole(tmp_path)
    context = start(root)["hookSpecificOutput"]["additionalContext"]
    assert context.count("retry the model call three times") == 1
    assert "from unknown" not in context


def test_a_salvaged_line_alone_keeps_the_provenance_that_survived(tmp_path):
    from lazy_harness.memory import entries

    rec = entries.record("decision", {"summary": "pin the CLI version", "rationale": "r", "tags": ["x"]},
                         {"project": "proj", "session_id": "5f0c2a8e-9d1b", "task_id": "t", "project_folder": "proj"},
                         NOW)
    raw = entries.json_line(rec).replace('"tags": ["x"]', '"tags": ["x\xff').encode("utf-8", "surrogateescape")
    raw = raw.replace(b'["x\xc3\xbf', b'["x\xff')  # a scribbled byte inside the list: not JSON any more
    [salvaged], how = lines.records_of(raw, lines.entry_fields)
    assert how.startswith("salvaged")
    assert salvaged["via"] == "session" and salvaged["project_folder"] == "proj" and salvaged["machine"]


def test_a_salvaged_record_without_id_or_summary_is_no_twin_of_another_such():
    # a hide marker recovered from a glued line, beside a whole marker: neither has an id or a summary,
    # so the salvaged one is not the whole one's twin and stays (else a hidden entry would come back)
    whole = {"op": "hide", "ids": ["d-aaaa"]}
    salvaged = {"op": "hide", "ids": ["d-bbbb"]}
    twin = {"id": "d-cccc", "summary": "Use SQLite"}
    found = [(whole, False), (salvaged, True), (dict(twin, tags=["db"]), False), (twin, True)]
    assert lines.without_salvaged_twins(found) == [whole, salvaged, dict(twin, tags=["db"])]


def test_the_damage_state_is_read_and_written_under_its_lock(tmp_path, monkeypatch, isolated_home):
    """A hook and the worker it woke report the same file at once: the state is read, compared and
    written by one of them at a time, so the damage is logged once (it was logged by both)."""
    from lazy_harness import atomic

    path = str(tmp_path / files.DECISIONS)
    ms.write_jsonl(path, [ms.decision(NOW, "fine", "r")])
    with open(path, "ab") as fh:
        fh.write(b"\x00\x00\x00\n")
    lock_path = os.path.join(paths.state_dir(), damage.STATE) + ".lock"
    seen: list[bool] = []
    real = damage._load

    def load(state_path: str) -> dict:
        seen.append(atomic.held(lock_path))  # another descriptor's view: held while report reads
        return real(state_path)

    monkeypatch.setattr(damage, "_load", load)
    lines.NOTED.add(path)
    first = damage.report("hooks.log")
    lines.NOTED.add(path)
    assert damage.report("hooks.log") == []  # the same state: not again
    assert seen == [True, True] and len(first) == 1
    assert not atomic.held(lock_path)  # released
