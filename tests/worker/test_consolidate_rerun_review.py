"""Consolidation as a demanding user meets it (review c9): a run killed at any step and run again
writes each change once, its journal lists what it wrote, and undoing both runs gives the files back."""

import sys
import time
from pathlib import Path

import pytest

from lazy_harness.memory import by_hand, handoff, journal, marks, store
from lazy_harness.worker import consolidate as job
from tests.support import crashpoint, fake_claude
from tests.worker.test_consolidation_review_fixes import KILLED  # the same killed run, armed at step k

NOW = time.time()



@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    fake_claude.use(tmp_path, monkeypatch, answer={})
    return tmp_path


def _full(mdir: Path, ldir: Path, tmp_path: Path) -> dict[str, list[str]]:
    store.persist({"decisions": [{"summary": "Use vLLM for serving"}, {"summary": "Serve with llama.cpp"}],
                   "failures": [{"summary": "tests hang"}, {"summary": "tests hang on CI"}],
                   "learnings": [{"title": "Pin the CLI at 2.1.300", "body": "a"},
                                 {"title": "Pin the CLI at 2.1.330", "body": "b"}],
                   "handoff": ["finish the parser", "write docs"]}, str(mdir), str(ldir),
                  {"project": "proj", "session_id": "s0", "task_id": "t-s0", "cwd": str(tmp_path / "proj"),
                   "project_folder": mdir.name}, NOW - 3600)
    c = job.candidates(str(mdir), str(ldir), "proj")
    return {"d": [e.id for e in c.decisions], "f": [e.id for e in c.failures],
            "l": [e.id for e in c.learnings], "h": [e.id for e in c.handoff]}


def _rerun(mdir: Path, ldir: Path, ids: dict[str, list[str]]) -> None:
    """The next consolidation: the same answer, checked against the entries as the killed run left them."""
    c = job.candidates(str(mdir), str(ldir), "proj")
    answer = {"supersede": [{"old": ids["d"][0], "new": ids["d"][1]}],
              "merge_failures": [{"keep": ids["f"][1], "drop": ids["f"][0]}],
              "deprecate_learnings": [{"id": ids["l"][0], "by": ids["l"][1]}],
              "close_handoff": [{"id": ids["h"][0], "reason": "done"}]}
    changes, _ = job.validate(answer, c, 10)
    if changes:
        job._applied(changes, c, {}, [], (str(mdir), str(ldir), "proj", "consolidate"), None, time.time())


def _made(mdir: Path, ldir: Path, ids: dict[str, list[str]]) -> list[str]:
    """The changes the files hold, as the id each one changed, as often as each is written."""
    out = [m["id"] for m in marks.read(str(mdir))]
    state, _ = handoff.load(str(mdir))
    out += [hid for hid in ids["h"] if not state[hid].is_open]
    out += [ids["l"][0] for p in ldir.rglob("*.md") if "status: deprecated" in p.read_text()]
    return sorted(out)


def _listed(mdir: Path) -> tuple[list[str], list[str]]:
    """The ids the journals of the runs not undone say were changed: (finished, unfinished)."""
    said = [line for run in journal.runs(str(mdir)) if not run.get("undone") for line in run.get("changes") or []
            if not line.startswith(("not applied", "partly applied"))]
    named = [(line.split(" ")[1].rstrip(":"), job.UNFINISHED in line) for line in said]
    return sorted(i for i, open_ in named if not open_), sorted(i for i, open_ in named if open_)


def _tree(*roots: Path) -> dict[str, bytes]:
    """Every file's bytes; of handoff.md (rendered again by undo, with its time) only its items."""
    def kept(p: Path) -> bytes:
        data = p.read_bytes()
        return data if p.name != "handoff.md" else b"".join(x for x in data.splitlines(keepends=True)
                                                            if x.startswith(b"- ["))

    return {str(p): kept(p) for root in roots for p in sorted(root.rglob("*"))
            if p.is_file() and "journal" not in p.parts and not p.name.startswith(".")}


def _undo_all(mdir: Path, ldir: Path) -> list:
    problems: list = []
    for run in [r for r in journal.runs(str(mdir)) if not r.get("undone")]:  # newest first
        problems += by_hand.undo(str(mdir), str(ldir), run["run"], 7, time.time())[2]
    return problems


def test_a_consolidation_killed_at_any_step_and_run_again_writes_each_change_once(world):
    from lazy_harness import paths

    script = world / "killed.py"
    script.write_text(KILLED)
    bad, k, said = [], 0, ""
    while said != "finished":
        k += 1
        (world / f"p{k}").mkdir()
        mdir, ldir = Path(paths.memory_dir(str(world / f"p{k}"))), Path(paths.learnings_dir()) / f"k{k}"
        ids = _full(mdir, ldir, world)
        before = _tree(mdir, ldir)
        said = crashpoint.run_to([sys.executable, str(script), str(mdir), str(ldir), str(k)])
        _rerun(mdir, ldir, ids)
        made = _made(mdir, ldir, ids)
        finished, unfinished = _listed(mdir)
        # each change written once; every one listed by a run, as finished unless its run was killed
        if len(made) != 4 or len(set(made)) != 4 or not set(finished) <= set(made) <= set(finished + unfinished):
            bad.append((k, said, made, finished, unfinished))
        problems = _undo_all(mdir, ldir)
        after = _tree(mdir, ldir)
        changed = [p for p in set(before) | set(after) if before.get(p) != after.get(p)
                   and not (p.endswith(".jsonl") and not before.get(p) and not after.get(p))]
        if problems or changed or marks.hidden(str(mdir)):
            bad.append((k, said, "undo", problems, changed))
    assert k > 5 and bad == [], "\n".join(map(str, bad))


def _during_the_call(bin_dir: Path, code: str) -> None:
    """Wrap the fake claude: run python ``code`` while the model 'thinks', then answer."""
    real = bin_dir / "claude-real"
    real.write_bytes((bin_dir / "claude").read_bytes())
    real.chmod(0o755)
    (bin_dir / "side.py").write_text(code)
    exe = bin_dir / "claude"
    exe.write_text(f'#!/bin/sh\nif [ "$1" != "--version" ]; then "{sys.executable}" "{bin_dir}/side.py" '
                   f'|| exit 7; fi\nexec "{real}" "$@"\n')
    exe.chmod(0o755)


REWORD = r"""
import json, sys
path, eid, text = sys.argv[1:] if len(sys.argv) > 1 else (PATH, EID, TEXT)
lines = open(path, encoding="utf-8").read().splitlines()
out = []
for line in lines:
    rec = json.loads(line)
    if rec.get("id") == eid:
        rec["summary"] = text
    out.append(json.dumps(rec))
open(path, "w", encoding="utf-8").write("\n".join(out) + "\n")  # as an editor saves it
"""


def test_a_decision_reworded_by_hand_during_the_call_is_not_superseded(world):
    from lazy_harness import config, paths

    (world / "proj").mkdir()
    mdir, ldir = Path(paths.memory_dir(str(world / "proj"))), Path(paths.learnings_dir())
    ids = _full(mdir, ldir, world)
    old, new = ids["d"]
    code = REWORD.replace("(PATH, EID, TEXT)", repr((str(mdir / "decisions.jsonl"), old,
                                                      "Use vLLM for serving on the GPU hosts only")))
    _during_the_call(world / "bin", code)
    fake_claude.control(world / "bin", mode="ok", answer={"supersede": [{"old": old, "new": new, "reason": "x"}]})
    res = job.run(str(mdir), str(ldir), "proj", config.defaults(), None, NOW)
    assert old not in marks.hidden(str(mdir)), res
    assert res.status == "unchanged" and res.not_applied and "changed by hand since" in res.not_applied[0]
