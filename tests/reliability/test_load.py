"""Load: 40 sessions in 4 projects end at the same instant (40 Stop hooks started together)."""

import os
import re
from itertools import pairwise

from lazy_harness import paths, queue
from tests.reliability import rig
from tests.support import fake_claude
from tests.support.sessions import wait_finished

TOKEN = re.compile(r"LHTOK-[0-9a-f]+")
SESSIONS, PROJECTS = 40, 4


def _token(text: str) -> str:
    [tok] = TOKEN.findall(text)
    return tok


def test_forty_sessions_ending_together_are_each_distilled_once_into_their_own_project(loop_on, model, tmp_path):
    projects = [rig.project(tmp_path, f"shop-{c}") for c in "abcd"[:PROJECTS]]
    owner, sid_of = {}, {}  # token -> project folder, token -> session id
    payloads = []
    for i in range(SESSIONS):
        proj, tok = projects[i % PROJECTS], rig.new_token()
        payload = rig.session(proj, tok)
        owner[tok], sid_of[tok] = proj, payload["session_id"]
        payloads.append(payload)

    results = rig.hooks_together("Stop", payloads)

    assert [(r.returncode, r.stdout) for r in results] == [(0, b"")] * SESSIONS
    q = paths.queue_dir()
    wait_finished(q, timeout=120, count=SESSIONS)
    rig.wait_workers_gone()

    # every hook queued its session and logged one whole line
    stops = [ln for ln in rig.read(rig.log_file("hooks.log")).splitlines() if " Stop " in ln]
    assert len(stops) == SESSIONS
    assert all(re.fullmatch(r"\S+ Stop session=\S+ queued \S+ \(worker pid \d+\) \(\d+\.\d ms\)", ln) for ln in stops)

    # no task left behind: all 40 in done/, processed
    assert rig.tasks("") == [] and rig.tasks("processing") == [] and rig.tasks("failed") == []
    assert [n for n in os.listdir(os.path.join(q, "tmp")) if n.endswith(".task")] == []
    done = rig.tasks("done")
    assert len(done) == SESSIONS
    outcomes = [queue.read_task(os.path.join(q, "done", n)) for n in done]
    assert {t["outcome"] for t in outcomes} == {"processed"}
    assert sorted(t["session_id"] for t in outcomes) == sorted(sid_of.values())

    # each session distilled exactly once, into its own project's memory (every line whole)
    for proj in projects:
        mine = sorted(tok for tok, p in owner.items() if p == proj)
        mdir = rig.memory(proj)
        for name in ("decisions.jsonl", "failures.jsonl"):
            recs = rig.jsonl(os.path.join(mdir, name))
            assert sorted(_token(r["summary"]) for r in recs) == mine, (proj, name)
            for r in recs:
                assert r["session_id"] == sid_of[_token(r["summary"])]  # the answer went to the task it came from
                assert r["project"] == proj.name
        handoff = rig.read(os.path.join(mdir, "handoff.md"))
        assert sorted(TOKEN.findall(handoff)) == mine  # every session's open item kept, each once
    learned = rig.learning_files()
    assert len(learned) == SESSIONS
    for path in learned:
        text = rig.read(path)
        tok = _token(text.split("\n## Learning")[0])
        assert f"origin: {owner[tok].name}\n" in text and f"origin_session: {sid_of[tok]}\n" in text

    # one model call per session, and never two at once: each ran while the worker lock was held,
    # and the calls' intervals do not overlap
    calls = fake_claude.calls(model)
    assert sorted(c["token"] for c in calls) == sorted(owner)
    assert all(c["lock_held"] is True for c in calls)
    calls.sort(key=lambda c: c["t"])
    for before, after in pairwise(calls):
        assert after["t"] >= before["end"], "two model calls overlapped: two workers ran at once"
    # a worker that handed over never came back: each worker's calls form one unbroken run
    runs = [c["ppid"] for i, c in enumerate(calls) if i == 0 or calls[i - 1]["ppid"] != c["ppid"]]
    assert len(runs) == len(set(runs))
    assert "crashed" not in rig.read(rig.log_file("worker.log"))
