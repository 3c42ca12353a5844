"""Consolidation and its undo, as a reviewer broke them (review r1): the answer applied to entries
changed since the prompt, a killed run undone exactly, undo after a sync pull, a restore undone after
a later mark, and a person's signed approval kept through a deprecation and a restatement."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lazy_harness.memory import by_hand, frontmatter, handoff, journal, marks, state, store
from lazy_harness.worker import consolidate as job
from tests.support import crashpoint, fake_claude

NOW = time.time()


def _cfg() -> dict:
    from lazy_harness import config

    return config.defaults()


def _meta(tmp_path: Path, sid: str = "s0") -> dict:
    return {"project": "proj", "session_id": sid, "task_id": f"t-{sid}", "cwd": str(tmp_path / "proj")}


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, Path]:
    from lazy_harness import paths

    bin_dir = fake_claude.use(tmp_path, monkeypatch, answer={})
    (tmp_path / "proj").mkdir()
    mdir = Path(paths.memory_dir(str(tmp_path / "proj")))
    ldir = Path(paths.learnings_dir())
    ldir.mkdir(parents=True, exist_ok=True)
    return bin_dir, mdir, ldir


def _ids(mdir: Path, ldir: Path) -> dict[str, list]:
    c = job.candidates(str(mdir), str(ldir), "proj")
    return {"d": [e.id for e in c.decisions], "f": [e.id for e in c.failures],
            "l": [(e.id, e.path) for e in c.learnings], "h": [e.id for e in c.handoff]}


def _status(path: str) -> str | None:
    return frontmatter.read_frontmatter_values(path, ("status",)).get("status")


def _during_the_call(bin_dir: Path, code: str) -> None:
    """Wrap the fake claude: run python ``code`` while the model 'thinks', then answer."""
    real = bin_dir / "claude-real"
    os.rename(bin_dir / "claude", real)
    (bin_dir / "side.py").write_text(code)
    exe = bin_dir / "claude"
    exe.write_text(f'#!/bin/sh\nif [ "$1" != "--version" ]; then "{sys.executable}" "{bin_dir}/side.py" '
                   f'|| exit 7; fi\nexec "{real}" "$@"\n')
    exe.chmod(0o755)


# --- 1. the answer is checked again against the entries as they are when it is written -------------

def test_an_entry_forgotten_during_the_model_call_is_not_changed_and_stays_forgotten(world, tmp_path):
    bin_dir, mdir, ldir = world
    store.persist({"decisions": [{"summary": "Use vLLM for serving"}, {"summary": "Serve with llama.cpp"}],
                   "learnings": [{"title": "Pin the CLI at 2.1.300", "body": "a"},
                                 {"title": "Pin the CLI at 2.1.330", "body": "b"}]},
                  str(mdir), str(ldir), _meta(tmp_path), NOW - 3600)
    got = _ids(mdir, ldir)
    old, new = got["d"]
    (lid, lpath), (lid2, _) = sorted(got["l"], key=lambda x: "2.1.300" not in x[1])
    _during_the_call(bin_dir, "import time\nfrom lazy_harness.memory import by_hand\n"
                     f"by_hand.forget({str(mdir)!r}, {str(ldir)!r}, 'proj', {new!r}, 'wrong', time.time())\n"
                     f"by_hand.forget({str(mdir)!r}, {str(ldir)!r}, 'proj', {lid!r}, 'wrong', time.time())\n")
    fake_claude.control(bin_dir, mode="ok", answer={
        "supersede": [{"old": old, "new": new, "reason": "replaced"}],
        "deprecate_learnings": [{"id": lid, "by": lid2, "reason": "newer pin"}]})
    job.run(str(mdir), str(ldir), "proj", _cfg(), os.environ, NOW)
    assert _status(lpath) == "forgotten"
    assert [m["op"] for m in marks.read(str(mdir))] == ["forget"]  # no supersede of old by a forgotten one
    assert old not in marks.hidden(str(mdir))
    store.persist({"learnings": [{"title": "Pin the CLI at 2.1.300", "body": "a"}]}, str(mdir), str(ldir),
                  _meta(tmp_path, "later"), time.time())
    assert _status(lpath) == "forgotten"


# --- 2. a run killed after any write is undone exactly ---------------------------------------------

KILLED = r"""
import os, sys, time
from lazy_harness.memory import journal
from lazy_harness.worker import consolidate as job
from tests.support import crashpoint
mdir, ldir, k = sys.argv[1], sys.argv[2], int(sys.argv[3])
c = job.candidates(mdir, ldir, "proj")
d = [e.id for e in c.decisions]; f = [e.id for e in c.failures]; l = [e.id for e in c.learnings]
h = [e.id for e in c.handoff]
answer = {"supersede": [{"old": d[0], "new": d[1]}], "merge_failures": [{"keep": f[1], "drop": f[0]}],
          "deprecate_learnings": [{"id": l[0], "by": l[1]}], "close_handoff": [{"id": h[0], "reason": "done"}]}
changes, problems = job.validate(answer, c, 10)
assert len(changes) == 4, problems
j = journal.Journal(mdir, "consolidate", "proj", time.time())
crashpoint.arm(k)
job.apply(changes, c, mdir, ldir, time.time(), j)
crashpoint.finished()
"""


def _tree(*roots: Path) -> dict[str, bytes]:
    """Every file's bytes; of handoff.md (rendered again by undo, with its time) only its items."""
    def kept(p: Path) -> bytes:
        data = p.read_bytes()
        if p.name != "handoff.md":
            return data
        return b"".join(x for x in data.splitlines(keepends=True) if x.startswith(b"- ["))

    return {str(p): kept(p) for root in roots for p in sorted(root.rglob("*"))
            if p.is_file() and "journal" not in p.parts and not p.name.startswith(".")}


def _full(mdir: Path, ldir: Path, tmp_path: Path) -> None:
    store.persist({"decisions": [{"summary": "Use vLLM for serving"}, {"summary": "Serve with llama.cpp"}],
                   "failures": [{"summary": "tests hang"}, {"summary": "tests hang on CI"}],
                   "learnings": [{"title": "Pin the CLI at 2.1.300", "body": "a"},
                                 {"title": "Pin the CLI at 2.1.330", "body": "b"}],
                   "handoff": ["finish the parser", "write docs"]}, str(mdir), str(ldir),
                  {**_meta(tmp_path), "project_folder": mdir.name}, NOW - 3600)  # the key, as the worker records it


def test_a_consolidation_killed_at_any_step_is_undone_exactly(world, tmp_path):
    from lazy_harness import paths

    script = tmp_path / "killed.py"
    script.write_text(KILLED)
    bad, k, said = [], 0, ""
    while said != "finished":
        k += 1
        (tmp_path / f"p{k}").mkdir()
        mdir, ldir = Path(paths.memory_dir(str(tmp_path / f"p{k}"))), Path(paths.learnings_dir()) / f"k{k}"
        _full(mdir, ldir, tmp_path)
        before = _tree(mdir, ldir)
        said = crashpoint.run_to([sys.executable, str(script), str(mdir), str(ldir), str(k)])
        runs = [r for r in journal.runs(str(mdir)) if not r.get("undone")]
        problems: list[str] = []
        if runs:
            _, _, problems = by_hand.undo(str(mdir), str(ldir), runs[0]["run"], 7, time.time())
        after = _tree(mdir, ldir)
        # a JSONL file the run made is emptied by undo, not removed (sync merges it)
        changed = [os.path.basename(p) for p in set(before) | set(after) if before.get(p) != after.get(p)
                   and not (p.endswith(".jsonl") and not before.get(p) and not after.get(p))]
        if changed or problems or marks.hidden(str(mdir)):
            bad.append((k, said, changed, problems))
    assert k > 5 and bad == [], "\n".join(map(str, bad))


# --- 3. undo after a sync pull dropped an earlier line of marks.jsonl ------------------------------

def test_undo_after_a_pull_dropped_an_earlier_mark(world, tmp_path):
    from lazy_harness.sync.drivers import merge_lines

    bin_dir, mdir, ldir = world
    store.persist({"decisions": [{"summary": "Use vLLM"}, {"summary": "Use llama.cpp"}, {"summary": "Use pytest"}]},
                  str(mdir), str(ldir), _meta(tmp_path), NOW - 3600)
    d = _ids(mdir, ldir)["d"]
    mpath = mdir / "marks.jsonl"
    by_hand.forget(str(mdir), str(ldir), "proj", d[2], "by hand", NOW - 60)
    base = mpath.read_bytes()
    fake_claude.control(bin_dir, mode="ok", answer={"supersede": [{"old": d[0], "new": d[1], "reason": "x"}]})
    r = job.run(str(mdir), str(ldir), "proj", _cfg(), os.environ, NOW)
    mpath.write_bytes(merge_lines(base, mpath.read_bytes(), b""))  # the other machine undid the forget
    assert set(marks.hidden(str(mdir))) == {d[0]}
    _, _, problems = by_hand.undo(str(mdir), str(ldir), r.run, 7, time.time())
    assert problems == [] and marks.hidden(str(mdir)) == {}


# --- 4. a restore run is undone after a later mark -------------------------------------------------

def test_a_restore_is_undone_after_a_later_mark(world, tmp_path):
    bin_dir, mdir, ldir = world
    store.persist({"decisions": [{"summary": "Use vLLM"}, {"summary": "Use llama.cpp"}, {"summary": "Use pytest"}]},
                  str(mdir), str(ldir), _meta(tmp_path), NOW - 3600)
    d = _ids(mdir, ldir)["d"]
    fake_claude.control(bin_dir, mode="ok", answer={"supersede": [{"old": d[0], "new": d[1]}]})
    job.run(str(mdir), str(ldir), "proj", _cfg(), os.environ, NOW - 60)
    rep = store.persist({"decisions": [{"summary": "Use vLLM"}]}, str(mdir), str(ldir), _meta(tmp_path, "s1"),
                        NOW - 30)
    assert rep.restored == [d[0]]
    restore = next(r["run"] for r in journal.runs(str(mdir)) if r["kind"] == "restore")
    by_hand.forget(str(mdir), str(ldir), "proj", d[2], "by hand", NOW)
    _, _, problems = by_hand.undo(str(mdir), str(ldir), restore, 7, time.time())
    hidden = {k: v["op"] for k, v in marks.hidden(str(mdir)).items()}
    assert problems == [] and hidden == {d[0]: "supersede", d[2]: "forget"}


# --- 5. a signed approval survives a deprecation and a restatement ---------------------------------

def test_an_approved_learning_stays_approved_after_a_deprecation_and_a_restatement(world, tmp_path):
    bin_dir, mdir, ldir = world
    pair = [{"title": "Pin the CLI at 2.1.300", "body": "a", "scope": "general"},
            {"title": "Pin the CLI at 2.1.330", "body": "b", "scope": "general"}]
    store.persist({"learnings": pair}, str(mdir), str(ldir), _meta(tmp_path), NOW - 3600)
    (lid, lpath), (lid2, _) = sorted(_ids(mdir, ldir)["l"], key=lambda x: "2.1.300" not in x[1])

    def now_state() -> tuple[str, str]:
        head = frontmatter.read_frontmatter_values(lpath, ("status", "deprecated_by", "deprecated_reason", "scope",
                                                           "via", "origin_session"))
        return state.of_learning({**head, "path": lpath}, state.ASK)

    by_hand.approve(str(mdir), str(ldir), "proj", [lid], "approved by hand", NOW - 600)
    assert now_state()[0] == "approved"
    fake_claude.control(bin_dir, mode="ok", answer={"deprecate_learnings": [{"id": lid, "by": lid2}]})
    assert job.run(str(mdir), str(ldir), "proj", _cfg(), os.environ, NOW - 300).status == "changed"
    rep = store.persist({"learnings": pair[:1]}, str(mdir), str(ldir), _meta(tmp_path, "s9"), NOW)
    assert rep.restored == [lid]
    assert now_state()[0] == "approved"


def test_the_killed_writer_script_runs_to_its_end(world, tmp_path):
    """The crash loop's writer works when nothing stops it (guards the loop above against a writer
    that fails before its first write and so 'passes')."""
    _, mdir, ldir = world
    _full(mdir, ldir, tmp_path)
    script = tmp_path / "killed.py"
    script.write_text(KILLED)
    env = dict(os.environ, PYTHONPATH=crashpoint.ROOT)
    out = subprocess.run([sys.executable, str(script), str(mdir), str(ldir), "100000"], capture_output=True,
                         text=True, env=env)
    assert out.returncode == 0 and out.stdout.strip() == "finished", out.stderr
    assert len(marks.read(str(mdir))) == 2 and len(handoff.open_items(handoff.load(str(mdir))[0])) == 1


# --- a merge moves the merged failure's use to the one it was merged into, at once, and undo back ---

def test_a_merge_and_its_undo_refresh_the_counts_the_budget_cuts_read(world, tmp_path):
    from lazy_harness.memory import usage, usage_log

    _, mdir, ldir = world
    store.persist({"failures": [{"summary": "Migrations hung on a table lock", "prevention": "lock_timeout"},
                                {"summary": "A migration hung on the table lock", "prevention": "5 s lock_timeout"},
                                {"summary": "The docs build failed", "prevention": "pin sphinx"}]},
                  str(mdir), str(ldir), _meta(tmp_path), NOW - 3600)
    kept, old, other = _ids(mdir, ldir)["f"]
    recs = []
    for k in range(6):
        recs += [usage_log.line("shown", NOW - 900, session=f"s{k}", id=kept, chars=100),
                 usage_log.line("shown", NOW - 900, session=f"s{k}", id=other, chars=100)]
    for k in range(3):
        recs += [usage_log.line("shown", NOW - 900, session=f"s{k}", id=old, chars=100),
                 usage_log.line("used", NOW - 800, session=f"s{k}", id=old, evidence="lock_timeout")]
    usage_log.append(str(mdir), recs)
    usage_log.refresh_ranks(None, str(mdir))
    assert usage.load_ranks(None, str(mdir), 5).get(kept) == usage.UNUSED
    fake_claude.control(world[0], mode="ok", answer={"merge_failures": [{"drop": old, "keep": kept, "reason": "same"}]})
    result = job.run(str(mdir), str(ldir), "proj", _cfg(), os.environ, NOW)
    assert result.status == "changed", result
    assert usage.load_ranks(None, str(mdir), 5).get(kept) == usage.USED
    by_hand.undo(str(mdir), str(ldir), result.run, 30, NOW + 1)
    assert usage.load_ranks(None, str(mdir), 5).get(kept) == usage.UNUSED
