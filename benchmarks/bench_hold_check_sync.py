"""The hold check of memory that arrives on a first ``lh sync`` (memory/held.py ``scan_records``,
memory/held_written.py ``scan_learnings``): every entry is new, so every entry is checked.

Builds, in a temporary HOME, a project of realistic text (tests/support/realistic_memory.py: ``--entries``
entries, 10:5:3 decisions:failures:learnings), then, each ``--runs`` times in turn, the two scans:

- ``as before``: the cheap look reading each of its groups of words in turn (a copy of it, below), and
  every rule of a set it names run over the text (trust_rules.matches without the rules' needs);
- ``now``: trust.py, trust_rules.py and trust_needs.py as they are (the cheap look from the words the text holds, a
  rule run only when the text holds the words it needs).

Printed, in CPU time of this process: the total of each scan (median of the runs), the median of one
entry's check (trust.check, over the first 2,000 decisions and failures), the ratio, and whether both
found the same entries for the same reasons (they must). Every rule set is compiled first (untimed),
the rules' needs are read inside the first ``now`` run (timed).

    python benchmarks/bench_hold_check_sync.py [--entries 5400] [--runs 3]
"""

import argparse
import contextlib
import os
import statistics
import time

import harness

from tests.memory.test_trust_needs import look_at_each_group  # the cheap look as it read before
from tests.support import realistic_memory as rm


# why CPU time, not wall time: the check reads no file, and on a machine busy with other work (a CI run)
# wall time measured the other work as much as the check
clock = time.process_time


class AsBefore:
    """While in use, the hold check reads as it did before: :func:`look_at_each_group`, every rule run."""

    def __enter__(self) -> None:
        from lazy_harness.memory import trust, trust_needs

        self.saved = trust.may_match, trust_needs.needs_of
        trust.may_match, trust_needs.needs_of = look_at_each_group, lambda k, rules: None

    def __exit__(self, *exc: object) -> None:
        from lazy_harness.memory import trust, trust_needs

        trust.may_match, trust_needs.needs_of = self.saved


def per_entry(records: list[tuple[dict, str]]) -> float:
    """The median of one entry's check, in ms."""
    from lazy_harness.memory import trust

    took = []
    for rec, kind in records:
        t0 = clock()
        trust.check(rec, kind)
        took.append(clock() - t0)
    return statistics.median(took) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=5400)
    parser.add_argument("--runs", type=int, default=3)
    opts = parser.parse_args()
    with harness.temp_home(False) as (root, env):
        from lazy_harness.memory import files, held, held_written, trust, trust_rules

        built = rm.build(os.path.join(root, "big-project"), env, time.time(), entries=opts.entries)
        mem, ldir = built["memory_dir"], built["learnings_dir"]
        learnings = sorted(os.path.join(d, f) for d, _, fs in os.walk(ldir) for f in fs if f.endswith(".md"))
        records = [(rec, kind) for kind, name in (("decision", files.DECISIONS), ("failure", files.FAILURES))
                   for _, rec in held.numbered_entries(os.path.join(mem, name))]
        for k in range(len(trust_rules.PATTERNS)):
            trust_rules.compiled(k)
        trust.secret("warm up the redactor")
        took: dict[str, dict[str, list[float]]] = {"as before": {}, "now": {}}
        found: dict[str, tuple[list, list]] = {}
        for _ in range(opts.runs):
            for way in ("as before", "now"):
                with AsBefore() if way == "as before" else contextlib.nullcontext():
                    t0 = clock()
                    got = held.scan_records(mem, env)
                    t1 = clock()
                    got_learnings = held_written.scan_learnings(learnings, env)
                    t2 = clock()
                    took[way].setdefault("records", []).append(t1 - t0)
                    took[way].setdefault("learnings", []).append(t2 - t1)
                    took[way].setdefault("entry", []).append(per_entry(records[:2000]))
                found[way] = (got, got_learnings)
        med = {way: {what: statistics.median(v) for what, v in t.items()} for way, t in took.items()}
        print(f"{len(records)} decisions and failures, {len(learnings)} learnings (median of {opts.runs} runs; "
              f"lazy_harness from {os.path.dirname(os.path.dirname(trust.__file__))})")
        for what, label in (("records", "scan_records"), ("learnings", "scan_learnings")):
            before, now = med["as before"][what], med["now"][what]
            print(f"{label:15s} as before {before:7.2f} s   now {now:7.2f} s   ({before / now:.1f}x)")
        before, now = med["as before"]["entry"], med["now"]["entry"]
        print(f"{'one entry':15s} as before {before:7.2f} ms  now {now:7.2f} ms  ({before / now:.1f}x, median of "
              f"{min(len(records), 2000)} entries)")
        same = found["as before"] == found["now"]
        print(f"the same entries held for the same reasons: {same} ({len(found['now'][0])} entries, "
              f"{len(found['now'][1])} learnings held)")


if __name__ == "__main__":
    main()
