"""How long the page of ``lh ui`` takes on a large memory, served by its real server on loopback.

Builds, in a temporary HOME, a project with 10,000 decisions, 5,000 failures, 3,000 learnings over a
year (the read-back benchmark's memory), then times GET / (every section, the newest 100 entries a
list), GET /?all=1 (every entry) and GET /?q=<prompt> (the page with a prompt's search), each
``--runs`` times; prints the median and the slowest, and the page sizes.

    python benchmarks/bench_ui_page.py [--runs 7]
"""

import argparse
import http.client
import os
import statistics
import threading
import time

import harness

from tests.support import memory_samples as ms


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    opts = parser.parse_args()
    with harness.temp_home(False) as (root, env):
        os.environ.clear()
        os.environ.update(env)  # why: the tests' helpers resolve paths from the process environment
        from lazy_harness.ui.server import UiServer

        now = time.time()
        big = ms.make_project(root, "big-project", branch="main")
        started = time.perf_counter()
        ms.build_large(big, env, now, name="big-project", mention="sqlite")
        print(f"built 10,000 decisions, 5,000 failures, 3,000 learnings in {time.perf_counter() - started:.1f} s")
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
            print(f"{label:<22} median {statistics.median(times):7.1f} ms  slowest {max(times):7.1f} ms  "
                  f"{size / 1024:8.0f} KiB  ({opts.runs} runs)")
        srv.shutdown()
        srv.server_close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
