"""The memory store: plan then apply, idempotent re-processing, refusal of foreign folders, crash safety."""

import json
import os
import subprocess
import time

import pytest

from lazy_harness import atomic, paths
from lazy_harness.errors import TaskError
from lazy_harness.memory import files, handoff, handoff_markdown, ids, store
from lazy_harness.memory.entries import json_line, record
from lazy_harness.memory.plan import APPEND
from tests.support import crashpoint

NOW = 1_760_000_000.0
DAY = 86400.0
META = {"project": "proj", "session_id": "sess-1", "task_id": "1760000000000000000-ab12", "cwd": "/x/proj"}
PROVENANCE = ["project_folder", "via", "machine", "author", "text_digest"]
DECISION_KEYS = ["ts", "type", "id", "project", "session_id", "task_id", "summary", "context", "alternatives",
                 "rationale", "tags", "cues", *PROVENANCE]
FAILURE_KEYS = ["ts", "type", "id", "project", "session_id", "task_id", "summary", "root_cause", "resolution",
                "prevention", "tags", "cues", *PROVENANCE]


@pytest.fixture
def where(tmp_path) -> tuple[str, str]:
    project = tmp_path / "proj"
    project.mkdir()
    return paths.memory_dir(str(project)), paths.learnings_dir()


def answer(tag: str = "", handoff=("finish the docs", "run the benchmark")) -> dict:
    return {
        "decisions": [{"summary": f"Use a Maildir queue{tag}", "context": "hooks must be fast\nand safe",
                       "alternatives": ["sqlite", "a socket"], "rationale": "rename is atomic", "tags": ["queue"]},
                      {"summary": f"Spawn the worker detached{tag}", "context": "", "alternatives": [],
                       "rationale": "SessionEnd has 1.5 s", "tags": []}],
        "failures": [{"summary": f"Worker ran twice{tag}", "root_cause": "no lock", "resolution": "filelock",
                      "prevention": "test with 40 hooks", "tags": ["worker"]}],
        "learnings": [{"title": f"Rename is the enqueue{tag}", "learning": "Write in tmp/, rename into new/.",
                       "context": "Any spool.", "scope": "universal", "tags": ["fs"]}],
        "handoff": list(handoff) if handoff is not None else None,
    }


def read_lines(path: str) -> list[dict]:
    with open(path, "rb") as fh:
        data = fh.read()
    assert data.endswith(b"\n")
    return [json.loads(line) for line in data.split(b"\n")[:-1]]


def snapshot(*roots: str) -> dict[str, tuple[bytes, int]]:
    out = {}
    for root in roots:
        for dp, _, names in os.walk(root):
            for name in names:
                p = os.path.join(dp, name)
                with open(p, "rb") as fh:
                    out[p] = (fh.read(), os.stat(p).st_mtime_ns)
    return out


def test_persist_writes_each_kind_in_its_format(where):
    mdir, ldir = where
    report = store.persist(answer(), mdir, ldir, META, NOW)
    decisions = read_lines(os.path.join(mdir, files.DECISIONS))
    failures = read_lines(os.path.join(mdir, files.FAILURES))
    assert [list(d) for d in decisions] == [DECISION_KEYS, DECISION_KEYS]
    assert [list(f) for f in failures] == [FAILURE_KEYS]
    first = decisions[0]
    assert first["type"] == "decision" and first["project"] == "proj" and first["session_id"] == "sess-1"
    assert first["task_id"] == META["task_id"] and first["context"] == "hooks must be fast\nand safe"
    assert first["ts"][:19] == time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(NOW))
    assert first["ts"][19] in "+-" and first["ts"][22] == ":"  # local offset, e.g. +02:00
    assert failures[0]["type"] == "failure" and failures[0]["prevention"] == "test with 40 hooks"
    assert first["id"] == ids.entry_id("decision", "Use a Maildir queue") and first["id"].startswith("d-")
    assert failures[0]["id"] == ids.entry_id("failure", "Worker ran twice") and failures[0]["id"].startswith("f-")
    assert store.read_handoff(mdir)["items"] == ["finish the docs", "run the benchmark"]
    assert len(report.created) == 1 and report.created[0].startswith(ldir + os.sep)
    assert report.summary() == "2 decisions, 1 failure, 1 learning, handoff written (2 opened, 0 closed)"


def test_plan_writes_nothing_and_describes_itself(where, isolated_home):
    mdir, ldir = where
    before = snapshot(str(isolated_home))
    p = store.plan(answer(), mdir, ldir, META, NOW)
    assert snapshot(str(isolated_home)) == before and not os.path.exists(mdir) and not os.path.exists(ldir)
    rows = p.describe()
    assert [r[0] for r in rows] == ["append", "append", "append", "create", "open", "open"]
    assert rows[-1] == ("open", os.path.join(mdir, handoff.STATE),
                        f"[{ids.handoff_id('run the benchmark')}] run the benchmark")
    assert rows[0] == ("append", os.path.join(mdir, files.DECISIONS), "Use a Maildir queue")
    assert f"{rows[0]}" == f"append  {os.path.join(mdir, files.DECISIONS)}  Use a Maildir queue"
    assert str(p).count("\n") == 5
    assert store.apply(p).summary().startswith("2 decisions, 1 failure, 1 learning,")


def test_duplicates_in_the_file_and_in_one_batch_are_not_appended(where):
    mdir, ldir = where
    store.persist(answer(), mdir, ldir, META, NOW)
    again = answer()
    again["decisions"] = [{"summary": "  use a MAILDIR   queue!! ", "rationale": "same thing"},
                          {"summary": "Brand new", "rationale": "1"}, {"summary": "brand new.", "rationale": "2"},
                          {"summary": " \n ", "rationale": "empty"}, "not an object"]
    report = store.persist(again, mdir, ldir, {**META, "session_id": "sess-2"}, NOW + 60)
    summaries = [d["summary"] for d in read_lines(os.path.join(mdir, files.DECISIONS))]
    assert summaries == ["Use a Maildir queue", "Spawn the worker detached", "Brand new"]
    assert report.count(files.DECISIONS) == 1 and len(report.skipped) >= 4


def test_reprocessing_the_same_answer_changes_no_byte(where):
    mdir, ldir = where
    first = store.persist(answer(), mdir, ldir, META, NOW)
    before = snapshot(mdir, ldir)
    for later in (NOW + 3600, NOW + DAY):  # again an hour later, and again the next day
        report = store.persist(answer(), mdir, ldir, META, later)
        assert report.appended == {} and report.created == [] and report.handoff == "kept"
        assert snapshot(mdir, ldir) == before
    assert first.handoff == "written"


def test_crash_between_writes_then_reprocess_writes_each_entry_once(where):
    mdir, ldir = where
    p = store.plan(answer(), mdir, ldir, META, NOW)
    first = next(a for a in p.actions if a.kind == APPEND)
    atomic.append_line(first.path, first.payload[1])  # the worker died after its first append
    report = store.persist(answer(), mdir, ldir, META, NOW + 5)
    summaries = [d["summary"] for d in read_lines(os.path.join(mdir, files.DECISIONS))]
    assert summaries == ["Use a Maildir queue", "Spawn the worker detached"]
    assert report.count(files.DECISIONS) == 1 and report.count(files.FAILURES) == 1


def test_a_torn_last_line_is_ended_and_its_entry_written_again(where):
    mdir, ldir = where
    line = json_line(record("decision", answer()["decisions"][0], META, NOW))
    os.makedirs(mdir)
    with open(os.path.join(mdir, files.DECISIONS), "w", encoding="utf-8") as fh:
        fh.write(line[:-10])  # killed mid-write
    store.persist(answer(), mdir, ldir, META, NOW)
    with open(os.path.join(mdir, files.DECISIONS), "rb") as fh:
        raw = fh.read().split(b"\n")
    assert raw[0] == line[:-10].encode() and raw[-1] == b""
    assert [json.loads(x)["summary"] for x in raw[1:-1]] == ["Use a Maildir queue", "Spawn the worker detached"]


def test_handoff_opened_kept_merged_and_closed_never_replaced(where):
    mdir, ldir = where
    state = os.path.join(mdir, handoff.STATE)
    assert store.persist(answer(), mdir, ldir, META, NOW).handoff == "written"
    size = os.path.getsize(state)
    assert store.persist(answer(), mdir, ldir, META, NOW + 60).handoff == "kept"
    assert os.path.getsize(state) == size
    s2 = {**META, "session_id": "sess-2", "task_id": "t-2"}
    # another session's items join the open ones; they never replace them
    assert store.persist(answer(handoff=["only this"]), mdir, ldir, s2, NOW + 120).handoff == "written"
    assert store.read_handoff(mdir)["items"] == ["finish the docs", "run the benchmark", "only this"]
    assert store.persist(answer(handoff=None), mdir, ldir, s2, NOW + 180).handoff is None
    assert store.persist(answer(handoff=[]), mdir, ldir, s2, NOW + 240).handoff is None
    assert os.path.getsize(state) > size and store.read_handoff(mdir)["items"][-1] == "only this"
    closing = {**answer(handoff=[]), "handoff_closed": ["Finish the docs."]}
    report = store.persist(closing, mdir, ldir, {**s2, "session_time": NOW + 300}, NOW + 300)
    assert report.handoff == "written" and report.closed == 1
    assert store.read_handoff(mdir)["items"] == ["run the benchmark", "only this"]


def test_items_are_single_lines(where):
    mdir, ldir = where
    store.persist(answer(handoff=["two\nlines", "- dash", "# hash"]), mdir, ldir, META, NOW)
    with open(os.path.join(mdir, files.HANDOFF), encoding="utf-8") as fh:
        bullets = [line for line in fh.read().split("\n") if line.startswith("- ")]
    assert bullets == [f"- [{ids.handoff_id(t)}] {t}" for t in ("two lines", "- dash", "# hash")]
    assert store.read_handoff(mdir)["items"] == ["two lines", "- dash", "# hash"]


def test_files_0600_and_folders_0700(where):
    mdir, ldir = where
    report = store.persist(answer(), mdir, ldir, META, NOW)
    for name in (files.DECISIONS, files.FAILURES, files.HANDOFF):
        assert os.stat(os.path.join(mdir, name)).st_mode & 0o777 == 0o600
    assert os.stat(report.created[0]).st_mode & 0o777 == 0o600
    for folder in (mdir, os.path.dirname(mdir), paths.memory_root(), os.path.dirname(report.created[0]), ldir):
        assert os.stat(folder).st_mode & 0o777 == 0o700, folder


def outside_dirs(tmp_path) -> list[str]:
    projects = paths.projects_dir()
    os.makedirs(projects, exist_ok=True)
    link = os.path.join(projects, "-linked")
    os.symlink(str(tmp_path / "elsewhere"), link)
    return [str(tmp_path / "elsewhere" / "memory"), os.path.join(projects, "..", "..", "escape", "memory"),
            os.path.join(link, "memory"), projects]


def test_a_memory_dir_outside_projects_is_refused_with_nothing_written(tmp_path, where):
    _, ldir = where
    for mdir in outside_dirs(tmp_path):
        with pytest.raises(TaskError, match="not inside"):
            store.persist(answer(), mdir, ldir, META, NOW)
        assert not os.path.exists(os.path.join(mdir, files.DECISIONS))
    assert not os.path.exists(tmp_path / "elsewhere") and not os.path.exists(tmp_path / "home" / "escape")
    assert not os.path.exists(ldir)


def test_a_symlink_planted_in_the_memory_dir_is_refused(tmp_path, where):
    mdir, ldir = where
    os.makedirs(mdir)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    os.symlink(str(victim), os.path.join(mdir, files.DECISIONS))
    with pytest.raises(TaskError, match="outside"):
        store.persist(answer(), mdir, ldir, META, NOW)
    assert victim.read_text() == "keep me\n"
    assert not os.path.exists(os.path.join(mdir, files.HANDOFF)) and not os.path.exists(ldir)


def test_hostile_learning_titles_stay_in_the_learnings_folder(where):
    mdir, ldir = where
    hostile = answer()
    hostile["learnings"] = [{"title": t, "learning": "x", "context": "y", "scope": "s", "tags": []}
                            for t in ("../../etc/passwd", "/abs/path", "..", "a\nstatus: deprecated")]
    report = store.persist(hostile, mdir, ldir, META, NOW)
    assert len(report.created) == 3  # ".." has no title left once punctuation is trimmed
    assert (ldir, "learning without a title") in report.skipped
    for path in report.created:
        assert paths.is_within(path, ldir) and os.path.dirname(os.path.dirname(path)) == ldir
    assert os.path.basename(report.created[0]).endswith("-etc-passwd.md")


def test_a_recent_learning_with_the_same_title_is_not_written_again(where):
    mdir, ldir = where
    store.persist(answer(), mdir, ldir, META, NOW)
    p = store.plan(answer(), mdir, ldir, META, NOW + 40 * DAY)
    assert [r[0] for r in p.describe() if r[2].startswith("a recent learning")] == ["skip"]


def test_existing_memory_reads_tails(where):
    mdir, ldir = where
    for i in range(15):
        store.persist({"decisions": [{"summary": f"decision {i}"}], "failures": [{"summary": f"failure {i}"}],
                       "learnings": [{"title": f"learning {i}", "learning": "l"}]}, mdir, ldir, META, NOW + i * DAY)
    got = store.existing_memory(mdir, ldir)
    assert [d["summary"] for d in got["decisions"]] == [f"decision {i}" for i in range(5, 15)]
    assert [f["summary"] for f in got["failures"]] == [f"failure {i}" for i in range(5, 15)]
    assert got["learning_titles"][:2] == ["learning 14", "learning 13"] and len(got["learning_titles"]) == 15
    assert store.existing_memory(mdir + "-none", ldir + "-none") == {"decisions": [], "failures": [], "replaced": [],
                                                                     "learning_titles": [], "handoff_open": []}


def test_existing_memory_lists_what_consolidation_replaced_apart_and_leaves_out_what_was_forgotten(where):
    from lazy_harness.worker import prompt

    mdir, ldir = where
    store.persist({"decisions": [{"summary": s} for s in ("Use Postgres", "Use SQLite", "Use Redis")]},
                  mdir, ldir, META, NOW)
    old, new, gone = (ids.entry_id("decision", s) for s in ("Use Postgres", "Use SQLite", "Use Redis"))
    with open(os.path.join(mdir, "marks.jsonl"), "a") as fh:
        fh.write(json.dumps({"op": "supersede", "id": old, "by": new, "reason": "r", "ts": "t", "run": "x"}) + "\n")
        fh.write(json.dumps({"op": "forget", "id": gone, "reason": "r", "ts": "t", "run": "y"}) + "\n")
    got = store.existing_memory(mdir, ldir)
    assert [d["summary"] for d in got["decisions"]] == ["Use SQLite"]
    assert [d["summary"] for d in got["replaced"]] == ["Use Postgres"]
    text = prompt.memory_section(got)
    assert f"- [{new}] Use SQLite" in text.split("Replaced")[0] and "- Use Postgres" in text.split("Replaced")[1]
    assert "Use Redis" not in text


def test_importing_the_store_pulls_in_no_heavy_module(python):
    code = ("import sys; before = set(sys.modules); import lazy_harness.memory.store; "
            "print(' '.join(sorted(set(sys.modules) - before)))")
    loaded = set(subprocess.run([python, "-c", code], capture_output=True, text=True, check=True).stdout.split())
    assert "lazy_harness.memory.store" in loaded
    assert not loaded & {"yaml", "unicodedata", "mmap", "hashlib", "dataclasses", "click", "filelock", "typing",
                         "subprocess", "lazy_harness.memory.learnings"}


CONCURRENT = r"""
import sys, time
from lazy_harness.memory import store
sys.path.insert(0, sys.argv[3])
from test_store import answer, META
print("ready", flush=True)
sys.stdin.readline()  # the go signal, sent to every writer at once
store.persist(answer(), sys.argv[1], sys.argv[2], META, time.time())
"""


def test_concurrent_persists_of_one_answer_write_it_once(where, python):
    """Four processes persist the same answer at once: the folder lock and the re-check keep one copy."""
    mdir, ldir = where
    here = os.path.dirname(__file__)
    procs = [subprocess.Popen([python, "-c", CONCURRENT, mdir, ldir, here], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE) for _ in range(4)]
    assert [p.stdout.readline() for p in procs] == [b"ready\n"] * 4  # all four loaded, none has written
    for p in procs:
        p.stdin.write(b"go\n")
        p.stdin.flush()
    for p in procs:
        p.stdin.close()
    assert [p.wait(timeout=30) for p in procs] == [0, 0, 0, 0]
    for p in procs:
        p.stdout.close()
    assert [d["summary"] for d in read_lines(os.path.join(mdir, files.DECISIONS))] == [
        "Use a Maildir queue", "Spawn the worker detached"]
    assert len(read_lines(os.path.join(mdir, files.FAILURES))) == 1
    assert len([f for _, _, fs in os.walk(ldir) for f in fs if f.endswith(".md")]) == 1


ITEMS = 10  # handoff items per persist, each 1.9 kB: handoff.md grows over a page per round
CRASH = r"""
import sys, time
ITEMS = 10
from lazy_harness.memory import store
from tests.support import crashpoint
mdir, ldir, k = sys.argv[1], sys.argv[2], int(sys.argv[3])

def persist(version):
    answer = {"decisions": [{"summary": f"decision {version}", "context": "c" * 1500, "rationale": "r" * 500}],
              "failures": [{"summary": f"failure {version}", "root_cause": "x"}],
              "handoff": [f"{version}:{j}:" + "x" * 1900 for j in range(ITEMS)]}
    store.persist(answer, mdir, ldir, {"project": "proj", "session_id": f"s{version}", "task_id": f"t{version}"},
                  time.time())

persist(f"a{k}")
crashpoint.arm(k, partial=sys.argv[4] == "partial")
persist(f"b{k}")
crashpoint.finished()
"""


def check_handoff(mdir: str) -> list[str]:
    """handoff.md is absent or one whole rendering (its digest matches its lines); every item in the
    state is whole (a killed round may have opened only some of its items: its re-processing opens
    the rest). Returns the open items' texts."""
    try:
        with open(os.path.join(mdir, files.HANDOFF), encoding="utf-8") as fh:
            text = fh.read()
    except FileNotFoundError:
        text = None
    if text is not None:
        marker, lines = handoff_markdown.parse_markdown(text)
        assert not handoff_markdown.edited(marker, lines), "a torn handoff.md"
    state = handoff.fold(handoff.read_records(mdir) or [])
    for item in state.values():
        _, j, rest = item["text"].split(":", 2)
        assert rest == "x" * 1900 and 0 <= int(j) < ITEMS
    return [i["text"] for i in handoff.open_items(state)]


def entries(path: str, torn_ok: bool) -> list[str]:
    """The summaries of the whole lines of a JSONL file. With ``torn_ok`` a line cut by a killed write
    may end the file or sit between them (the next append ended it); it must not parse."""
    with open(path, "rb") as fh:
        data = fh.read()
    assert data.endswith(b"\n") or torn_ok
    out = []
    for line in data.split(b"\n")[:-1] + ([] if data.endswith(b"\n") else [data.rsplit(b"\n", 1)[-1]]):
        try:
            out.append(json.loads(line)["summary"])
        except ValueError:
            assert torn_ok, line[:80]
    return out


@pytest.mark.parametrize("cut", ["before", "partial"])
def test_sigkill_during_writes_leaves_whole_files_and_whole_lines(where, python, cut):
    """A writer killed before each file-system step of a persist, after one whole persist ("partial":
    with half of the bytes of that step's write on disk, as a kernel cut short may leave): the handoff
    is the old version or the new one, every entry is written whole exactly once, and a line cut
    short is only ever followed by whole lines."""
    mdir, ldir = where
    stops, handoffs = [], set()
    for k in range(1, 200):
        said = crashpoint.run_to([python, "-c", CRASH, mdir, ldir, str(k), cut])
        opened = check_handoff(mdir)
        for i in range(1, k + 1):  # every whole persist's items are open, none twice
            # why sorted: a round killed between its appends is re-processed, and the items it had not
            # opened yet are opened after those it had: whole and once each is the guarantee, not order
            assert sorted(t for t in opened if t.startswith(f"a{i}:")) == [f"a{i}:{j}:" + "x" * 1900
                                                                           for j in range(ITEMS)]
        assert len(opened) == len(set(opened))
        version = f"b{k}" if any(t.startswith(f"b{k}:") for t in opened) else f"a{k}"
        for name in (files.DECISIONS, files.FAILURES):
            summaries = entries(os.path.join(mdir, name), torn_ok=cut == "partial")
            assert len(summaries) == len(set(summaries)) and summaries[-1].endswith((f"a{k}", f"b{k}"))
            assert {f"a{i}" for i in range(1, k + 1)} <= {s.split()[-1] for s in summaries}
            assert [r["summary"] for r in files.tail_records(os.path.join(mdir, name), 2)] == summaries[-2:]
        if said == "finished":
            assert sorted(t for t in opened if t.startswith(f"b{k}:")) == [f"b{k}:{j}:" + "x" * 1900
                                                                        for j in range(ITEMS)]
            break
        assert said == f"stopped {k} " + said.split()[-1]
        stops.append(said.split()[-1])
        handoffs.add(version[0])
    else:
        raise AssertionError("the persist never finished: more than 200 steps")
    assert {"write", "fsync", "replace"} <= set(stops), stops  # killed inside appends and whole-file writes
    assert handoffs == {"a", "b"}, "never killed both before and after the new handoff records"
    with open(os.path.join(mdir, files.DECISIONS), "rb") as fh:
        whole = len(entries(os.path.join(mdir, files.DECISIONS), torn_ok=True))
        # why: a persist cut by a kill is rolled back by the next one (memory.intent), torn line included
        assert fh.read().count(b"\n") - whole == 0
