"""Real git repositories for the tests of which project a folder belongs to."""

import subprocess
from pathlib import Path


def git(*args, cwd) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main",
                    *args], cwd=cwd, check=True, capture_output=True)


def repo_with_worktree(parent: Path) -> Path:
    """``<parent>/my.repo x`` (one commit, a ``src/deep`` folder) and its linked worktree
    ``<parent>/wt.linked`` on branch ``feature``; returns the main tree."""
    main = parent / "my.repo x"
    main.mkdir()
    git("init", "-q", cwd=main)
    (main / "src" / "deep").mkdir(parents=True)
    (main / "src" / "deep" / "f.txt").write_text("x")
    git("add", ".", cwd=main)
    git("commit", "-q", "-m", "init", cwd=main)
    git("worktree", "add", "-q", str(parent / "wt.linked"), "-b", "feature", cwd=main)
    return main
