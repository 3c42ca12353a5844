"""A learning's frontmatter is untrusted input (a sync remote anyone with push rights writes): YAML
aliases that name each other ("billion laughs") and a flow list nested thousands deep. Every reader
takes the block as text, line by line, instead of expanding it: before, nine lines of aliases read as
387 million items wherever a value became text or JSON (``lh sync``, ``lh memory show`` and SessionStart
never ended), and 5,000 nested brackets raised RecursionError in every reader, ``lh sync`` included.
Here five levels (59,049 items) stand for the nine, so the old code fails the size check, not the clock."""

import json
import os

import pytest

from lazy_harness import paths
from lazy_harness.memory import frontmatter, status_fields
from lazy_harness.errors import LhError
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import run_hook
from tests.support import memory_samples as ms

LEVELS = "abcde"
BOMB = "".join(f"{k}: &{k} [{','.join([f'*{p}'] * 9) if p else ','.join(['lol'] * 9)}]\n"
               for p, k in zip(["", *LEVELS], LEVELS, strict=False))
HEAD = ("---\n{extra}title: {title}\norigin: proj\nscope: project\nstatus: active\ntags: {tags}\n"
        "created: 2026-12-01\n---\n\n")
DEEP = "[" * 5000 + "]" * 5000


def _text(extra: str, title: str, tags: str) -> str:
    return HEAD.format(extra=extra, title=title, tags=tags) + f"{title}, and what it means here.\n"


def test_aliases_are_not_expanded_and_deep_nesting_is_text():
    bomb = frontmatter.parse_frontmatter(_text(BOMB, "Bomb learning", "[*e]"))
    assert bomb is not None and bomb[0]["title"] == "Bomb learning"
    assert len(json.dumps(bomb[0], default=str)) < 5000, "an alias was expanded"
    deep = frontmatter.parse_frontmatter(_text("", "Deep learning", DEEP))
    assert deep is not None and deep[0]["title"] == "Deep learning" and deep[0]["status"] == "active"


def _write(ldir: str, slug: str, text: str) -> str:
    folder = os.path.join(ldir, "2026-12")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"2026-12-01-{slug}.md")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return path


def test_the_commands_and_the_hook_read_past_them(tmp_path, isolated_home):
    root = ms.make_project(tmp_path, "proj")
    key = f"project_folder: {paths.project_key(root)}\n"
    ldir = paths.learnings_dir()
    bomb = _write(ldir, "bomb", _text(key + BOMB, "Bomb learning", "[*e]"))
    deep = _write(ldir, "deep", _text(key, "Deep learning", DEEP))
    shown = invoke("memory", "show", "--project", root)
    assert shown.code == 0 and "Bomb learning" in shown.out and "Deep learning" in shown.out, shown.out + shown.err
    assert len(shown.out) < 20000, "an alias was expanded"
    start = run_hook("SessionStart", {"session_id": "s-1", "cwd": root, "source": "startup",
                                      "hook_event_name": "SessionStart"})
    assert start.returncode == 0 and len(start.stdout) < 20000
    assert b"Bomb learning" in start.stdout, start.stdout[:500]
    checked = invoke("memory", "check", "--project", root)
    assert f"{deep}: frontmatter is not YAML a reader can take (nested too deep)" in checked.out, checked.out
    assert "Traceback" not in checked.out + checked.err
    with open(deep, encoding="utf-8") as fh, pytest.raises(LhError, match="nested too deep"):
        status_fields.with_fields(fh.read(), deep, {"status": "forgotten"})
    assert invoke("memory", "search", "bomb", "--project", root).code == 0
    assert os.path.getsize(bomb) < 2000
