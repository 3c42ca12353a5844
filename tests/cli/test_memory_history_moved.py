"""A project that gets an origin remote moves to its remote's folder: ``lh memory history`` still lists
the changes journaled under its path key; a local-path origin names no project (the path key stays)."""

import subprocess
from pathlib import Path

from lazy_harness import paths
from lazy_harness.memory import entries, ids
from tests.cli.lhrun import invoke

NOW = 1_780_000_000.0


def write_decisions(mdir: str, project: str, summaries: list[str]) -> list[str]:
    Path(mdir).mkdir(parents=True, exist_ok=True)
    with open(Path(mdir) / "decisions.jsonl", "a", encoding="utf-8") as fh:
        for n, summary in enumerate(summaries):
            rec = entries.record("decision", {"summary": summary}, {"project": project, "session_id": f"s{n}",
                                                                    "task_id": "t"}, NOW + n)
            fh.write(entries.json_line(rec) + "\n")
    return [ids.entry_id("decision", s) for s in summaries]


def git(*args) -> None:
    subprocess.run(["git", *args], check=True, capture_output=True)


def test_history_lists_changes_journaled_under_the_old_key(tmp_path):
    proj = tmp_path / "shop"
    proj.mkdir()
    git("init", "-q", str(proj))
    by_path = paths.memory_dir(str(proj))
    assert Path(by_path).name == paths.project_key(str(proj))
    did = write_decisions(by_path, "shop", ["Keep prices in cents", "Round at checkout"])[0]
    assert invoke("memory", "forget", did, "--project", str(proj)).code == 0
    git("-C", str(proj), "remote", "add", "origin", "git@example.com:team/shop.git")
    moved = paths.memory_dir(str(proj))
    assert moved != by_path and Path(moved).name.startswith("git-")
    assert invoke("memory", "show", "--project", str(proj)).code == 0  # the move, as a reading command does it
    assert not (Path(by_path) / "decisions.jsonl").exists()
    hist = invoke("memory", "history", "--project", str(proj))
    assert hist.code == 0, hist.err
    assert "forget" in hist.out and did in hist.out
    assert f"journaled in {Path(by_path) / 'journal'} before the project moved" in hist.out


def test_another_repository_with_the_same_path_key_keeps_its_history_apart(tmp_path):
    mine, other = tmp_path / "app.v2", tmp_path / "app_v2"  # one path key for both
    for p in (mine, other):
        p.mkdir()
        git("init", "-q", str(p))
    assert paths.project_key(str(mine)) == paths.project_key(str(other))
    did = write_decisions(paths.memory_dir(str(other)), "app_v2", ["Other repository's decision"])[0]
    assert invoke("memory", "forget", did, "--project", str(other)).code == 0
    git("-C", str(mine), "remote", "add", "origin", "git@example.com:team/app.git")
    hist = invoke("memory", "history", "--project", str(mine))
    assert hist.code == 0 and did not in hist.out and "no changes recorded" in hist.out


def test_a_local_path_origin_keeps_the_path_key(tmp_path):
    proj = tmp_path / "app"
    proj.mkdir()
    git("init", "-q", str(proj))
    git("-C", str(proj), "remote", "add", "origin", "/srv/git/app.git")
    assert Path(paths.memory_dir(str(proj))).name == paths.project_key(str(proj))
    git("-C", str(proj), "remote", "set-url", "origin", "file:///srv/git/app.git")
    assert Path(paths.memory_dir(str(proj))).name == paths.project_key(str(proj))
