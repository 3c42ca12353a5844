"""How long the page of ``lh ui`` takes on a large memory, served by its real server on loopback.

Builds, in a temporary HOME, a project with 10,000 decisions, 5,000 failures, 3,000 learnings over a
year (the read-back benchmark's memory), 150 open handoff items and a usage.jsonl of 100,000 lines
(sessions of one ``session`` line and 29 showings of 3,000 of its entries, a use every seventh
session, a recurrence every twentieth: about 2,500 entries shown and never used), then times GET /
(every section, each list cut), GET /?all=1 (every entry) and GET /?q=<prompt> (the page with a
prompt's search), each ``--runs`` times; prints the first load, the median and the slowest of the
rest, the page sizes and the process's peak memory.

    python benchmarks/bench_ui_page.py [--runs 7] [--usage-lines 100000] [--open-items 150]
"""

import argparse
import http.client
import json
import os
import resource
import statistics
import threading
import time

import harness
from bench_session_start import write_handoff

from tests.support import memory_samples as ms
from tests.support import realistic_memory as rm


def write_usage(mdir: str, n_lines: int, now: float) -> int:
    """``n_lines`` lines of usage.jsonl over 180 days, showing 3,000 of the folder's decisions and
    failures; returns how many distinct entries were shown."""
    from lazy_harness.memory import files, ids, usage_log

    pool = []
    for name, kind in ((files.DECISIONS, "decision"), (files.FAILURES, "failure")):
        with open(os.path.join(mdir, name), encoding="utf-8") as fh:
            pool += [ids.of_record(json.loads(line), kind) for line in fh.read().splitlines()[-1500:]]
    failures = [eid for eid in pool if eid.startswith("f-")]
    start, shown = now - 180 * ms.DAY, set()
    with open(usage_log.path_of(mdir), "w", encoding="utf-8") as fh:
        for s in range(n_lines // 30):
            at, sid = start + s * (180 * ms.DAY) / (n_lines // 30), f"s{s:06d}"
            rows = [usage_log.line("session", at, session=sid, chars=4000)]
            rows += [usage_log.line("shown", at, session=sid, chars=130, id=pool[(s * 29 + k) % len(pool)])
                     for k in range(29)]
            shown.update(pool[(s * 29 + k) % len(pool)] for k in range(29))
            if s % 7 == 0:
                rows.append(usage_log.line("used", at + 60, session=sid, id=pool[(s * 29) % len(pool)],
                                           evidence="echo hi"))
            if s % 20 == 0:
                rows.append(usage_log.line("recurred", at + 90, session=sid, id=failures[s % len(failures)]))
            fh.write("".join(json.dumps(r) + "\n" for r in rows))
    return len(shown)


def build(root: str, env: dict, now: float, opts: argparse.Namespace) -> str:
    big = ms.make_project(root, "big-project", branch="main")
    started = time.perf_counter()
    made = ms.build_large(big, env, now, name="big-project", mention="sqlite")
    write_handoff(made["memory_dir"], rm.Writer(seed=3), opts.open_items, now, "big-project")
    shown = write_usage(made["memory_dir"], opts.usage_lines, now)
    print(f"built 10,000 decisions, 5,000 failures, 3,000 learnings, {opts.open_items} open items, "
          f"{opts.usage_lines:,} usage lines ({shown:,} entries shown) in {time.perf_counter() - started:.1f} s")
    return big


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--usage-lines", type=int, default=100_000)
    parser.add_argument("--open-items", type=int, default=150)
    opts = parser.parse_args()
    with harness.temp_home(False) as (root, env):
        os.environ.clear()
        os.environ.update(env)  # why: the tests' helpers resolve paths from the process environment
        from lazy_harness.ui.server import UiServer

        big = build(root, env, time.time(), opts)
        srv = UiServer(0, big, env)
        thread = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        thread.start()
        cookie = {"Cookie": f"{srv.cookie}={srv.session}"}
        for label, path in (("page", srv.prefix + "/"), ("page, every entry", srv.prefix + "/?all=1"),
                            ("page with a search", srv.prefix + "/?q=why+do+we+keep+sqlite+for+the+index")):
            times, size = [], 0
            for _ in range(opts.runs):
                conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=300)
                t0 = time.perf_counter()
                conn.request("GET", path, headers=cookie)
                resp = conn.getresponse()
                body = resp.read()
                times.append((time.perf_counter() - t0) * 1000)
                conn.close()
                assert resp.status == 200, resp.status
                size = len(body)
            rest = times[1:] or times
            print(f"{label:<22} first {times[0]:7.1f} ms  then median {statistics.median(rest):7.1f} ms  "
                  f"slowest {max(rest):7.1f} ms  {size / 1024:8.0f} KiB  ({opts.runs} runs)")
        srv.shutdown()
        srv.server_close()
    print(f"peak memory of this process (server and builder): "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
