"""The worker SIGKILLed at each write step from just before its persist commits to just after the
checks of what it wrote: the commit point of a persist carries the checks it owes and the move of the
session's cursor (worker/owed.py, memory/intent.py, ADR 0021 and 0039).

For each step N the world is put back as it was before the worker ran, the worker is killed before
its N-th ``write/fsync/replace/rename/link/unlink`` (tests/support/crashpoint.py), then one worker
runs to the end. Whatever N:
- what the unkilled run holds is held (``lh memory held`` agrees), and each entry is in memory once;
- from the commit on (the persist counts as done), the session is distilled by one model call only;
- no temp file of a killed writer is left anywhere under HOME.
"""

import collections
import json
import os
import re
import shutil
import subprocess
import sys

from click.testing import CliRunner

from lazy_harness import paths
from lazy_harness.cli import cli as lh_cli
from lazy_harness.worker import model_check
from tests.hooks.hookrun import worker_lock_held
from tests.reliability import rig
from tests.support import crashpoint, fake_claude

TOKEN = "LHTOK-c0ffee0c0ffe"
HOSTILE = ("platypine", "axolotlish")  # the fake model check judges hostile any entry holding one
ANSWER = {
    "decisions": [
        {"summary": "Keep billing jobs queued in Postgres zebracorn", "context": "billing",
         "alternatives": ["Redis"], "rationale": "one database", "tags": ["queue"]},
        {"summary": "Retry failed invoices nightly platypine", "context": "billing retries",
         "alternatives": ["hourly"], "rationale": "cheaper", "tags": ["billing"]},
    ],
    "failures": [{"summary": "Migration timed out on a lock wombatite", "root_cause": "no lock_timeout",
                  "resolution": "retried at night", "prevention": "set lock_timeout", "tags": ["deploy"]}],
    "learnings": [
        {"title": "Set lock_timeout narwhalic for migrations", "learning": "Set lock_timeout to 5s first.",
         "context": "a failed deploy", "scope": "project", "tags": ["postgres"]},
        {"title": "Invoices need idempotency keys axolotlish", "learning": "Use the invoice id as the key.",
         "context": "double charges", "scope": "project", "tags": ["billing"]},
    ],
    "handoff": ["Finish the retry job capybarine"],
}

# The worker, armed: n > 0 stops before its n-th hooked call; n == 0 runs to the end and prints where
# the persist's commit and the removal of the checks' record began, and how many hooked calls the run
# made (counted as crashpoint counts).
CHILD = r'''
import json, os, sys
from tests.support import crashpoint

n = int(sys.argv[1])
crashpoint.arm(n if n > 0 else 10 ** 9)
count, marks = [0], {}
for name in crashpoint.HOOKED:
    def counted(*args, _real=getattr(os, name), **kwargs):
        count[0] += 1
        return _real(*args, **kwargs)
    setattr(os, name, counted)
from lazy_harness.memory import intent
from lazy_harness.worker import owed

def mark(name, real):
    def call(*args, **kwargs):
        marks.setdefault(name, count[0])
        return real(*args, **kwargs)
    return call

intent.Intent.commit = mark("commit", intent.Intent.commit)
owed.done = mark("done", owed.done)
from lazy_harness.worker.__main__ import main
main()
marks["total"] = count[0]
sys.stdout.write("marks " + json.dumps(marks) + "\n")
crashpoint.finished()
'''


def _configure(home, bin_dir) -> None:
    rig.configure(home)
    cfg = os.path.join(str(home), ".config", "lazy-harness", "config.toml")
    with open(cfg, encoding="utf-8") as fh:
        text = fh.read()
    with open(cfg, "w", encoding="utf-8") as fh:  # the model check on (rig turns it off)
        fh.write(text.replace("model_check = false", "model_check = true"))
    fake_claude.control(bin_dir, mode="ok", answers={TOKEN: ANSWER}, need_token=True,
                        check_block=[model_check.START, model_check.END], check_hostile=list(HOSTILE),
                        check_why="planted")


def _armed(n: int) -> str:
    env = dict(os.environ, PYTHONPATH=crashpoint.ROOT)
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(n)], stdout=subprocess.PIPE, env=env)
    try:
        out = []
        while True:  # why: the walk kills it where it stops; the reference run prints its marks first
            line = child.stdout.readline().decode().strip()
            out.append(line)
            if not line or line == "finished" or line.startswith("stopped "):
                break
    finally:
        child.kill()
        child.wait()
        child.stdout.close()
    return "\n".join(out)


def _worker() -> None:
    r = subprocess.run([sys.executable, "-m", "lazy_harness.worker"], capture_output=True, timeout=rig.WAIT * 4)
    assert r.returncode == 0, r.stderr.decode()[-2000:]


def _held(project) -> list[str]:
    result = CliRunner().invoke(lh_cli, ["memory", "held", "--project", str(project)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    return sorted(lines[i + 1].split("  (")[0].strip() for i, line in enumerate(lines)
                  if re.match(r"\s+[a-z]+-[0-9a-f]+\s+\w+\s+held:", line))


def _world(home, bin_dir, project) -> dict:
    mdir = rig.memory(project)
    calls = fake_claude.calls(bin_dir)
    summaries = collections.Counter(r["summary"] for name in ("decisions.jsonl", "failures.jsonl")
                                    for r in rig.jsonl(os.path.join(mdir, name)))
    temps = sorted(os.path.relpath(os.path.join(d, f), home) for d, _, fs in os.walk(home)
                   for f in fs if f.endswith(".tmp"))
    q = paths.queue_dir()
    learnings = sorted(os.path.basename(f) for f in rig.learning_files() if not f.endswith(".tmp"))
    return {"held": _held(project), "entries": dict(summaries), "learnings": learnings,
            "distill calls": sum(1 for c in calls if not fake_claude.is_check(c)), "temps": temps,
            "pending": [n for n in os.listdir(q) if n.endswith(".task")],
            "processing": os.listdir(os.path.join(q, "processing")),
            "done": len(os.listdir(os.path.join(q, "done")))}


def _restore(home, snap, bin_dir) -> None:
    shutil.rmtree(home)
    shutil.copytree(snap, home, symlinks=True)
    try:
        os.unlink(os.path.join(bin_dir, "calls.jsonl"))
    except FileNotFoundError:
        pass


def test_a_kill_around_the_commit_never_leaves_entries_unchecked_or_distills_twice(loop_on, model, tmp_path):
    home, bin_dir = loop_on, model
    _configure(home, bin_dir)
    project = rig.project(tmp_path, "proj")
    with worker_lock_held(paths.claude_dir()):
        rig.hook("SessionEnd", rig.session(project, TOKEN))
        rig.wait_workers_gone()
    snap = tmp_path / "snap"
    shutil.copytree(home, snap, symlinks=True)

    said = _armed(0)
    assert said.endswith("finished"), said
    marks = json.loads(said.splitlines()[0][len("marks "):])
    ref = _world(home, bin_dir, project)
    assert ref["distill calls"] == 1 and ref["done"] == 1 and not ref["temps"], ref
    assert ref["held"] == sorted([ANSWER["decisions"][1]["summary"], ANSWER["learnings"][1]["title"]])
    commit = marks["commit"] + 1  # the commit's unlink of the undo record: the persist counts as done from there

    failures = {}
    for n in range(commit - 7, marks["done"] + 2):
        _restore(home, snap, bin_dir)
        stopped = _armed(n)
        assert stopped.startswith(f"stopped {n} "), stopped
        fake_claude.kill_running(bin_dir)
        _worker()
        got = _world(home, bin_dir, project)
        want = dict(ref, **{"distill calls": got["distill calls"] if n <= commit else 1})
        if got != want:
            failures[f"{stopped} ({'before' if n <= commit else 'after'} the commit)"] = {
                k: got[k] for k in got if got[k] != want[k]}
    assert not failures, json.dumps(failures, indent=1)
