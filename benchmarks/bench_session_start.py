"""SessionStart hook cost on a memory that looks like a user's, against a bare start of the same interpreter.

Two memories, each in its own temporary HOME (learnings are per user, not per project), built by
tests/support/realistic_memory.py (words drawn with a Zipf distribution from the standard library's
docstrings, entries with tags and cues, learnings of three projects):

  small   1,800 entries (1,000 decisions, 500 failures, 300 learnings) and 20 open handoff items
  large   18,000 entries (10,000 decisions, 5,000 failures, 3,000 learnings) and 300 open items

The handoff is written as the worker writes it: an item log (``handoff.jsonl``, from 30 sessions, with
items closed along the way) rendered into handoff.md with the open-items cache beside it. The prompt
recall index is built first (as the worker and ``lh memory reindex`` leave it), and the config is the
one ``lh hooks install`` leaves (the compound loop on). Then the command ``lh hooks install`` writes
is timed, with the JSON payload on stdin, for each memory and for a project with no memory,
interleaved with ``python -c pass``. Goal (issue 29): at most 2 times ``python -c pass``.

Then two cases on the large memory that the interleaved ones do not see, each run beside a bare
start (in turns first and second), which joins the baseline:

  after a distillation  before each run, what the worker writes for a session (2 decisions, a failure,
                        a learning) is appended, indexed, and the worker's ``prepare_next_start`` runs
                        (untimed, as the worker does): the start that follows every session
  after a sync pull     the same entries written and indexed, then the round's step after a merge
                        (``sync.rounds.hold_merged``: the hold check on what came in, whose verdicts
                        it keeps for the next start), without the worker's preparation
  after a hand edit     the same entries written and indexed only: the start works out the hold
                        check's verdicts on them itself (its first use of the rules and the redactor)

    python benchmarks/bench_session_start.py [--runs 21] [--check]

Run it with the interpreter of the install you want measured (``pip install .``, the README's, or
an editable one); the first lines say which.
"""

import json
import os
import sys
import time

import harness
from harness import Case

from lazy_harness import paths
from lazy_harness.memory import files
from lazy_harness.memory import handoff
from tests.support import memory_samples as ms
from tests.support import realistic_memory as rm

GOAL = 2.0
SIZES = (("small", 1_800, 20), ("large", 18_000, 300))
EMPTY = "empty project"
SESSIONS = 30  # sessions that opened the handoff items


def write_handoff(mdir: str, writer: rm.Writer, n_open: int, now: float, project: str) -> None:
    """``n_open`` open items as the worker leaves them: opened by ``SESSIONS`` sessions over two
    months, every fourth item closed again by a later session (so the log holds more than the open
    ones), handoff.md rendered and the open-items cache written."""
    recs, closes = [], []
    span = 60 * ms.DAY
    total = n_open + n_open // 3
    for i in range(total):
        when = now - span + span * i / total
        text = writer.sentence(6, 14)
        recs.append(handoff.record(handoff.OPEN, text, f"sess-{i % SESSIONS:02d}", f"task-{i}", when))
        if i % 4 == 3 and len(closes) < total - n_open:
            closes.append(handoff.record(handoff.CLOSE, text, f"sess-{(i + 1) % SESSIONS:02d}", f"task-{i}c",
                                         when + ms.DAY))
    handoff.append(mdir, recs + closes)
    handoff.write_markdown(mdir, {"session_id": "sess-29", "task_id": "task-last", "project": project}, now - 3600)
    opened = len(handoff.open_for_reading(mdir))
    if opened != n_open:
        sys.exit(f"handoff: {opened} open items written, {n_open} meant")


def make_memory(root: str, env: dict, label: str, entries: int, items: int, now: float) -> dict:
    """One project with a realistic memory of ``entries`` entries and ``items`` open items, its
    recall index built; returns what the check needs."""
    project = ms.make_project(root, f"{label}-project", branch="feature/read-back")
    started = time.perf_counter()
    facts = rm.build(project, env, now, entries=entries, name=f"{label}-project", handoff_items=0)
    os.remove(os.path.join(facts["memory_dir"], "handoff.md"))  # why: replaced by the worker's own kind
    write_handoff(facts["memory_dir"], rm.Writer(seed=entries), items, now, f"{label}-project")
    built = time.perf_counter() - started
    from lazy_harness.recall.index import writer

    started = time.perf_counter()
    writer.update(paths.recall_index_file(env), [facts["memory_dir"]], facts["learnings_dir"])
    print(f"{label}: {facts['decisions']:,} decisions, {facts['failures']:,} failures, {facts['learnings']:,} "
          f"learnings and {items} open items written in {built:.1f} s; index built in "
          f"{time.perf_counter() - started:.1f} s")
    return {"project": project, "newest": facts["relevant"]}


def payload(root: str, cwd: str) -> bytes:
    return json.dumps({"session_id": "7d2f4c1a-0b3e-4f5a-9c8d-1e2f3a4b5c6d", "cwd": cwd,
                       "transcript_path": f"{root}/t.jsonl", "hook_event_name": "SessionStart",
                       "source": "startup", "model": "claude-sonnet-4-5"}).encode()


def has_context(env: dict, newest: str, items: int):
    log = os.path.join(paths.logs_dir(env), "hooks.log")

    def check(proc) -> None:
        text = json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
        with open(log, encoding="utf-8") as fh:
            last = fh.read().splitlines()[-1]
        if newest not in text or len(text) > 6000 or " errors: " in last or f" of {items}, failures" not in last:
            sys.exit(f"unexpected SessionStart run: {last}\n{text[:300]!r}")
    return check


def silent(proc) -> None:
    if proc.stdout:
        sys.exit(f"the empty project got output: {proc.stdout[:300]!r}")


AFTER_WORKER = "large: after a distillation"
AFTER_PULL = "large: after a sync pull"
AFTER_EDIT = "large: after a hand edit"


def after_new_entries(cases: list[Case], times: dict, cpu: dict, env: dict, runs: int, now: float) -> None:
    """The two cases that follow new entries (see the docstring), each run beside a bare start."""
    from lazy_harness import config
    from lazy_harness.memory import ids
    from lazy_harness.recall.index import writer
    from lazy_harness.sync import rounds
    from lazy_harness.worker import caches

    bare, large = cases[0], cases[3]
    project = json.loads(large.stdin)["cwd"]
    mem, ldir = paths.memory_dir(project, env), paths.learnings_dir(None, env)
    cfg = config.load(env)
    w = rm.Writer(seed=77)
    cases_after = (AFTER_WORKER, AFTER_PULL, AFTER_EDIT)
    for name in cases_after:
        times[name], cpu[name] = [], []
    for r in range(runs):
        for k, name in enumerate(cases_after):
            when = now + 60 * (len(cases_after) * r + k)
            summary = w.sentence(7, 14)
            decisions = [ms.decision(when + i, summary if i else w.sentence(7, 14), w.sentence(15, 30),
                                     project="large-project", tags=w.tags(), cues=w.cues()) for i in range(2)]
            failures = [ms.failure(when, w.sentence(7, 14), w.sentence(12, 24), project="large-project",
                                   tags=w.tags(), cues=w.cues())]
            ms.write_jsonl(os.path.join(mem, files.DECISIONS), decisions)
            ms.write_jsonl(os.path.join(mem, files.FAILURES), failures)
            slug = f"new-{r}-{name.rsplit(' ', 1)[-1]}"
            learning = ms.write_learning(ldir, w.sentence(6, 12), "large-project", when, learning=w.sentence(25, 60),
                                         slug=slug, fast=True, tags=w.tags(), cues=w.cues(), scope="project")
            writer.update(paths.recall_index_file(env), [mem], ldir)
            if name == AFTER_WORKER:
                caches.prepare_next_start(project, cfg, env, when, lambda m: sys.exit(f"worker: {m}"))
            elif name == AFTER_PULL:
                data = paths.data_dir(env)
                changed = [os.path.relpath(p, data) for p in (os.path.join(mem, files.DECISIONS),
                                                              os.path.join(mem, files.FAILURES), learning)]
                incoming = {ids.of_record(d, "decision") for d in decisions} | {ids.of_record(f, "failure")
                                                                                for f in failures}
                rounds.hold_merged(data, changed, cfg, env, when, incoming)
            case = Case(name, large.argv, large.stdin, env, check=shows(summary))
            for each in (case, bare) if r % 2 == 0 else (bare, case):
                wall, used = harness.run_once_cpu(each)
                times[each.name].append(wall)
                cpu[each.name].append(used)


def shows(summary: str):
    def check(proc) -> None:
        if summary not in json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]:
            sys.exit(f"the newest decision is not in the start's text: {summary!r}")
    return check


def main() -> int:
    opts = harness.parse_args(__doc__)
    print(harness.interpreter_note())
    hook = harness.hook_command("SessionStart")
    now = time.time()
    with harness.temp_home(opts.keep) as (small_root, small_env), \
            harness.temp_home(opts.keep) as (large_root, large_env):
        cases = harness.bare_cases(small_env)
        for (label, entries, items), root, env in zip(SIZES, (small_root, large_root), (small_env, large_env),
                                                      strict=True):
            harness.write_config(env)
            made = make_memory(root, env, label, entries, items, now)
            cases.append(Case(f"{label}: {entries:,} entries, {items} open items", hook, payload(root, made["project"]),
                              env, check=has_context(env, made["newest"], items)))
        empty = ms.make_project(small_root, "empty-project", branch="main")
        cases.append(Case(EMPTY, hook, payload(small_root, empty), small_env, check=silent))
        sample = harness.run_once(cases[3])
        print(f"one SessionStart run on the large memory: {sample * 1000:.0f} ms")
        cpu: dict = {}
        times = harness.measure(cases, opts.runs, cpu=cpu)
        after_new_entries(cases, times, cpu, large_env, opts.runs, now)
    goals = {c.name: GOAL for c in cases[2:]} | {AFTER_WORKER: GOAL, AFTER_PULL: GOAL, AFTER_EDIT: GOAL}
    ok = harness.report(times, goals=goals, title="SessionStart")
    harness.cpu_report(cpu)
    return 1 if opts.check and not ok else 0


if __name__ == "__main__":
    sys.exit(main())
