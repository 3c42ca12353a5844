"""Hostile text in every field the page shows (a model wrote it from a transcript, a sync remote brought
it, a person named a folder): markup, an event handler, a ``javascript:`` URL, quotes of both kinds,
control characters and a bidi override, in a project's folder name, its branch, a handoff item and its
session, a decision, a failure, learnings (title, text, origin), hooks.log, a failed task, the search
box and the note after an action. The page holds it as text only: no element or attribute it brought,
every link, form and asset under the page's own path, no control character as it was."""

import os
import time
from html.parser import HTMLParser

import pytest

from lazy_harness import config, paths
from lazy_harness import queue as spool
from lazy_harness.memory import files, handoff
from lazy_harness.ui import reading, sections
from tests.support import memory_samples as ms

EVIL = ('Q"\'<x-evil onclick=alert(1)><a href="javascript:alert(1)">data:text/html,x</a></x-evil>'
        '&amp;\x1b]0;owned\x07\u202e\x00\r\n')
BASE = "/PFX"
NOW = time.time()
TAGS = {"html", "head", "meta", "title", "link", "script", "body", "header", "h1", "h2", "h3", "form", "label",
        "select", "option", "button", "input", "p", "nav", "a", "main", "section", "ul", "li", "div", "code", "span",
        "b", "bdi", "details", "summary", "svg", "g", "rect", "text", "pre", "table", "thead", "tbody", "tr", "th",
        "td"}


class Markup(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += [(tag, name, value or "") for name, value in attrs]


def seed(tmp_path) -> str:
    root = ms.make_project(tmp_path, 'p"<x-evil>', branch='b"<x-evil>')
    mdir, ldir = paths.memory_dir(root), paths.learnings_dir()
    handoff.append(mdir, [handoff.record("open", "item " + EVIL, "sess " + EVIL, "t1", NOW - 50)])
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), [
        ms.decision(NOW - 90, "decision " + EVIL, "rationale " + EVIL, tags=[EVIL], machine=EVIL, author=EVIL)])
    ms.write_jsonl(os.path.join(mdir, files.FAILURES), [ms.failure(NOW - 90, "failure " + EVIL, "prevention " + EVIL)])
    ms.write_learning(ldir, "own " + EVIL, EVIL, NOW - 20, learning="text " + EVIL, slug="own")
    ms.write_learning(ldir, "general " + EVIL, EVIL, NOW - 20, learning="text " + EVIL, slug="general",
                      scope="general")
    log = os.path.join(paths.logs_dir(), "hooks.log")
    os.makedirs(os.path.dirname(log), exist_ok=True)
    with open(log, "w", encoding="utf-8") as fh:
        fh.write(f"{ms.iso(NOW - 60)} UserPromptSubmit session=s-1 skipped: {EVIL.replace(chr(10), ' ')} (1.0 ms)\n")
    q = paths.queue_dir()
    spool.ensure_layout(q)
    task = os.path.join(spool.folder(q, spool.FAILED), f"{int((NOW - 3600) * 1e9)}-5e551011.task")
    with open(task, "w", encoding="utf-8") as fh:
        fh.write(spool.format_task({"session_id": "s-1", "cwd": root, "event": "Stop", "session_jsonl": "/x.jsonl",
                                    "reason": "reason " + EVIL.replace("\n", " ")}))
    with open(task + ".error", "w", encoding="utf-8") as fh:
        fh.write("error " + EVIL)
    return root


@pytest.mark.parametrize("query", [None, EVIL], ids=["page", "search"])
def test_hostile_text_in_every_section_is_text_only(tmp_path, query):
    root = seed(tmp_path)
    cfg = config.load_fast(os.environ)
    projects = reading.projects(root, cfg, os.environ)
    view = sections.View(projects[0], projects, cfg, os.environ, time.time(), "form-token", root, BASE, query,
                         True, [EVIL])
    page = sections.page(view)
    parsed = Markup()
    parsed.feed(page)
    assert set(parsed.tags) <= TAGS
    assert not [a for a in parsed.attrs if a[1].startswith("on")]
    linked = [value for _, name, value in parsed.attrs if name in ("href", "src", "action")]
    assert linked and all(v.startswith((BASE + "/", "#")) for v in linked), linked
    assert page.count("x-evil") >= 8  # shown, as text, in the sections that list it
    for raw in ("\x1b", "\x07", "\u202e", "\x00", "\r"):
        assert raw not in page
