"""The worker's automatic consolidation writes what it refused to worker.log (docs/how/consolidation.md):
one line per problem, the first ten of them, then how many more there were."""

import os

from lazy_harness import config, logfile
from lazy_harness.memory import entries, ids
from lazy_harness.worker import drain, housekeeping
from tests.support import fake_claude

NOW = 1_790_000_000.0


def _decisions(mdir, summaries: list[str]) -> list[str]:
    mdir.mkdir(parents=True, exist_ok=True)
    with open(mdir / "decisions.jsonl", "a", encoding="utf-8") as fh:
        for n, summary in enumerate(summaries):
            meta = {"project": "demo", "session_id": f"s{n}", "task_id": "t"}
            fh.write(entries.json_line(entries.record("decision", {"summary": summary}, meta, NOW - 864000 + n)) + "\n")
    return [ids.entry_id("decision", s) for s in summaries]


def _learning(ldir, name: str, title: str, body: str) -> None:
    folder = ldir / "2026-10"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(f"---\ntitle: {title}\norigin: demo\norigin_session: s1\ncreated: '2026-10-01T10:00:00"
                               f"+00:00'\ntags: []\nscope: project\nstatus: active\n---\n\n## Learning\n\n{body}\n")


def _consolidate(tmp_path, answer: dict) -> list[str]:
    """One automatic consolidation of ``tmp_path/mem`` by the worker; the worker.log lines it wrote."""
    mdir = tmp_path / "mem"
    cfg = config.defaults()
    cfg["consolidate"].update(enabled=True, min_sessions=1, min_hours=0)
    cfg["knowledge"]["path"] = str(tmp_path / "knowledge")
    fake_claude.control(tmp_path / "bin", mode="ok", answer=answer)
    stats = drain.Stats()
    stats.projects[str(mdir)] = str(tmp_path / "demo")  # the project whose learnings are candidates
    housekeeping.consolidate_touched(cfg, os.environ, stats)
    with open(logfile.log_path(logfile.WORKER), encoding="utf-8") as fh:
        return [line.split(" ", 1)[1].rstrip("\n") for line in fh if f"consolidate {mdir}: " in line]


def test_each_refused_change_is_one_line_at_most_ten_then_a_count(isolated_home, tmp_path, monkeypatch):
    fake_claude.use(tmp_path, monkeypatch, answer={})
    _decisions(tmp_path / "mem", ["Use vLLM for serving", "Serve with llama.cpp instead of vLLM"])
    unknown = [f"d-{n:012x}" for n in range(12)]
    answer = {"supersede": [{"old": u, "new": u, "reason": "made up"} for u in unknown]}

    said = _consolidate(tmp_path, answer)

    prefix = f"consolidate {tmp_path / 'mem'}: "
    assert said[0] == prefix + "unchanged: no change proposed"
    refused = said[1:11]
    assert len(refused) == 10 and all(line.startswith(prefix + "ignored: supersede ") for line in refused)
    assert [u for u in unknown if any(repr(u) in line for line in refused)] == unknown[:10]
    assert said[11:] == [prefix + "ignored: 2 more problem line(s) not shown"]


def test_a_learning_left_out_for_two_texts_is_said_in_the_log(isolated_home, tmp_path, monkeypatch):
    fake_claude.use(tmp_path, monkeypatch, answer={})
    _decisions(tmp_path / "mem", ["Use vLLM for serving", "Serve with llama.cpp instead of vLLM"])
    learnings = tmp_path / "knowledge" / "learnings"
    _learning(learnings, "a.md", "Vacuum runs nightly", "At 03:00 UTC.")
    _learning(learnings, "b.md", "Vacuum runs nightly", "At 04:00 UTC, after the backup.")

    said = _consolidate(tmp_path, {})

    [line] = [s for s in said if "left out" in s]
    assert "ignored: learning " in line and "2 files of different texts carry it" in line
    assert str(learnings / "2026-10" / "a.md") in line and str(learnings / "2026-10" / "b.md") in line
