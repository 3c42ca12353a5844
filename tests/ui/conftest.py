"""Fixtures of the ``lh ui`` tests: a seeded project, the page's server in a thread, and a real
headless Chromium driven through Debian's chromedriver (selenium, ADR 0023).

Screenshots go to ``$LH_UI_SCREENSHOTS`` when set, else to a ``screenshots`` folder in pytest's
temporary directory (its path is printed; ``pytest -s`` shows it)."""

import contextlib
import os
import shutil
import threading
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files, handoff
from lazy_harness.ui.server import UiServer
from tests.support import memory_samples as ms

NOW = time.time()
DAY = ms.DAY
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1280,1800")
EVIL = '<script>document.title="owned"</script><img src=x onerror="document.title=\'owned\'">'

browser = pytest.mark.skipif(
    not (CHROMIUM and CHROMEDRIVER),
    reason="chromium and chromedriver are not installed (apt-get install -y chromium chromium-driver; .ci/run does)")


class Seeded:
    """The ids and texts of a seeded project."""

    def __init__(self, root: str):
        self.root = root
        self.mdir = paths.memory_dir(root)
        self.ldir = paths.learnings_dir()


@pytest.fixture
def seeded(tmp_path, one_local_day) -> Seeded:
    """Project ``proj`` with handoff items (one reopened: a history), decisions (one holding markup),
    failures, own and general learnings, a forgotten decision, hooks.log lines, a failed task, spend.
    Within one local day (``one_local_day``): the page and ``lh cost`` take "today" from their own
    clock, after the seed wrote today's spend at its own."""
    root = ms.make_project(tmp_path, "proj", branch="main")
    s = Seeded(root)
    mdir = s.mdir
    handoff.append(mdir, [
        handoff.record("open", "wire the release workflow", "sess-a", "t1", NOW - 5 * DAY),
        handoff.record("open", "document the cache layout", "sess-a", "t1", NOW - 5 * DAY),
        handoff.record("close", "document the cache layout", "sess-b", "t2", NOW - 4 * DAY, "done once"),
        handoff.record("open", "document the cache layout", "sess-c", "t3", NOW - 2 * DAY),
    ])
    decisions = [ms.decision(NOW - 9 * DAY, "Keep the recall index in SQLite FTS5",
                             "FTS5 ranks with BM25 and ships with Python", tags=["sqlite", "recall"]),
                 ms.decision(NOW - 8 * DAY, "Render handoff.md from handoff.jsonl", "one source of truth"),
                 ms.decision(NOW - 7 * DAY, "Title with markup " + EVIL, "rationale " + EVIL),
                 ms.decision(NOW - 6 * DAY, "An old decision forgotten already", "no longer true")]
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), decisions)
    ms.write_jsonl(os.path.join(mdir, files.FAILURES), [
        ms.failure(NOW - 3 * DAY, "Worker crashed on a torn queue file", "claim by rename, never read in place")])
    ms.write_learning(s.ldir, "Pytest tmp_path beats tempfile", "proj", NOW - 2 * DAY, slug="own")
    # a general learning of another project the person approved: shown in every project (ADR 0032)
    ms.write_learning(s.ldir, "Bash set -euo pipefail everywhere", "elsewhere", NOW - 3 * DAY, slug="general",
                      scope="general", deprecated_reason="approved by hand")
    ms.write_learning(s.ldir, "A private learning of another project", "elsewhere", NOW - 3 * DAY, slug="private",
                      scope="project")
    other = ms.make_project(tmp_path, "other", branch="main")  # another project, listed in the picker
    ms.write_jsonl(os.path.join(paths.memory_dir(other), files.DECISIONS),
                   [ms.decision(NOW - DAY, "Decision of the other project", "its own", project="other")])
    from lazy_harness.memory import by_hand, ids

    s.forgotten = ids.of_record(decisions[3], "decision")
    by_hand.forget(mdir, s.ldir, "proj", s.forgotten, "seeded as forgotten", NOW)
    s.sqlite = ids.of_record(decisions[0], "decision")
    s.evil = ids.of_record(decisions[2], "decision")
    # a session of this project (its transcript in Claude Code's folder) and what the hooks logged
    tdir = os.path.join(paths.projects_dir(), paths.project_key(root))
    os.makedirs(tdir)
    s.session = "5e551011-aaaa-bbbb-cccc-000000000001"
    open(os.path.join(tdir, s.session + ".jsonl"), "w").close()
    log = os.path.join(paths.logs_dir(), "hooks.log")
    os.makedirs(os.path.dirname(log), exist_ok=True)
    stamp = ms.iso(NOW - 60)
    with open(log, "w", encoding="utf-8") as fh:
        fh.write(f"{stamp} SessionStart session={s.session} source=startup context 900/6000 chars "
                 f"handoff=2/2 failures=1/1 decisions=3/3 learnings=1/1 (12.0 ms)\n")
        fh.write(f"{stamp} UserPromptSubmit session={s.session} terms=4 candidates=3 passed=1 best=5.10 "
                 f"semantic=off injected 1 (310/2000 chars): {s.sqlite} (20.1 ms)\n")
        fh.write(f"{stamp} UserPromptSubmit session={s.session} skipped: prompt too short (1.0 ms)\n")
    # a failed task of this project, with its reason
    q = paths.queue_dir()
    from lazy_harness import queue as spool

    spool.ensure_layout(q)
    name = f"{int((NOW - 3600) * 1e9)}-5e551011.task"
    with open(os.path.join(spool.folder(q, spool.FAILED), name), "w", encoding="utf-8") as fh:
        fh.write(spool.format_task({"session_id": s.session, "cwd": root, "event": "Stop",
                                    "session_jsonl": "/x.jsonl", "reason": "model answer was not JSON"}))
    # spend yesterday and today. why now, not NOW: NOW is taken when the module is imported, minutes
    # before a test runs; a run crossing midnight put "today's" spend in yesterday
    import json

    now = s.spent_at = time.time()  # why kept: a test of spend per day counts its days from this, not NOW

    ledger = paths.ledger_file()
    os.makedirs(os.path.dirname(ledger), exist_ok=True)
    with open(ledger, "w", encoding="utf-8") as fh:
        fh.writelines(json.dumps({"time": ms.iso(ts), "ts": ts, "project": "proj", "session": s.session, "task": "t",
                                 "kind": "distill", "model": "m", "input_tokens": 10, "output_tokens": 5,
                                 "cache_creation_tokens": 0, "cache_read_tokens": 0, "total_cost_usd": usd,
                                 "cost_reported": True, "duration_s": 1.0, "outcome": "ok", "prompt_chars": 100})
                      + "\n" for ts, usd in ((now - DAY, 0.12), (now, 0.05)))
    return s


@contextlib.contextmanager
def serving(root: str):
    """The page's server on a free port, serving from the folder ``root``, stopped on leaving."""
    srv = UiServer(0, root, os.environ)
    thread = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield srv
    finally:
        srv.shutdown()
        srv.server_close()
        thread.join()


@pytest.fixture
def server(seeded):
    """The page's server on a free port, serving from the seeded project's folder."""
    with serving(seeded.root) as srv:
        yield srv


@pytest.fixture(scope="session")
def shots(tmp_path_factory) -> str:
    folder = os.environ.get("LH_UI_SCREENSHOTS") or str(tmp_path_factory.mktemp("screenshots"))
    os.makedirs(folder, exist_ok=True)
    print(f"\nlh ui screenshots: {folder}")
    return folder


def page_loaded(chrome) -> bool:
    """The page itself (not the sign-in page that sends the browser on to it by a refresh) has loaded,
    its stylesheet too: what a test measures or shoots before then is laid out without the page's styles."""
    from selenium.webdriver.common.by import By

    loaded = chrome.execute_script("return document.readyState") == "complete"
    return loaded and bool(chrome.find_elements(By.ID, "runs"))


@pytest.fixture
def chrome(tmp_path):
    """A fresh headless Chromium (its own empty profile) through Debian's chromedriver."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'chromium-profile'}")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER, log_output=str(tmp_path / "chromedriver.log")),
                              options=options)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()
