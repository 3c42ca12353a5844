"""Learnings: hostile titles stay inside the folder and in one frontmatter line; files are write-once."""

import os
import re
import sys
import time

import pytest
import yaml

from lazy_harness import paths
from lazy_harness.errors import TaskError
from lazy_harness.memory import frontmatter, learnings
from tests.support import crashpoint

NOW = 1_760_000_000.0  # 2025-10-09
DAY = time.strftime("%Y-%m-%d", time.localtime(NOW))
SLUG_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
META = {"project": "proj", "session_id": "sess-1", "task_id": "t-1", "cwd": "/x/proj"}


@pytest.fixture
def ldir() -> str:
    return paths.learnings_dir()


def item(title: str, learning: str = "What to do.", context: str = "Where it applies.", **extra) -> dict:
    return {"title": title, "learning": learning, "context": context, "scope": "general",
            "tags": ["python"], **extra}


def split(text: str) -> tuple[dict, str, str]:
    """(parsed frontmatter, raw frontmatter text, body) of a learning file."""
    assert text.startswith("---\n")
    head, sep, body = text[4:].partition("\n---\n")
    assert sep
    return yaml.safe_load(head), head, body


@pytest.mark.parametrize("title,slug", [
    ("Use NFKD: Café résumé!", "use-nfkd-cafe-resume"),
    ("../../etc/passwd", "etc-passwd"),
    (".hidden file", "hidden-file"),
    ("a--b__c  d", "a-b-c-d"),
    ("Straße über Ångström", "strae-uber-angstrom"),
    ("   --- ", None),
])
def test_slugify_examples(title, slug):
    got = learnings.slugify(title)
    assert SLUG_RE.match(got)
    if slug is not None:
        assert got == slug
    else:
        assert got.startswith("learning-")


HOSTILE = ["../../etc/passwd", "..", ".", "/", "a/../../b", "C:\\Windows\\system32", "\x00\n\r\t",
           "title\nstatus: deprecated", "x" * 500, "word-" * 200, "日本語のタイトル", "Ωμέγα", "🙂🙂",
           "-leading-dash", "trailing-dash-", "..hidden", "%2e%2e%2fetc", "", " "]


@pytest.mark.parametrize("title", HOSTILE)
def test_slug_rules_hold_for_hostile_titles(title):
    slug = learnings.slugify(title)
    assert SLUG_RE.match(slug), slug
    assert len(slug) <= learnings.SLUG_MAX
    assert "/" not in slug and ".." not in slug and not slug.startswith(".")


def test_long_title_is_cut_at_a_dash():
    title = "Always run the migration check before deploying the worker to production servers today"
    slug = learnings.slugify(title)
    full = "always-run-the-migration-check-before-deploying-the-worker-to-production-servers-today"
    assert len(slug) <= 50
    assert full.startswith(slug) and full[len(slug)] == "-"  # cut on a word boundary
    assert len(learnings.slugify("x" * 500)) == 50  # one long word: cut hard


def test_non_latin_titles_get_distinct_non_empty_slugs():
    a, b = learnings.slugify("日本語のタイトル"), learnings.slugify("другой заголовок")
    assert a.startswith("learning-") and b.startswith("learning-")
    assert a != b
    assert a == learnings.slugify("日本語のタイトル")  # stable: the same learning maps to the same file


def test_learning_path_layout_and_containment(ldir):
    path = learnings.learning_path(ldir, "../../etc/passwd", NOW)
    assert path == os.path.join(ldir, DAY[:7], f"{DAY}-etc-passwd.md")
    assert paths.is_within(path, ldir)
    second = learnings.learning_path(ldir, "y" * 200, NOW, n=12)
    name = os.path.basename(second)[len(DAY) + 1:-3]
    assert name.endswith("-12") and len(name) <= 50


def test_render_frontmatter_keys_order_and_body():
    text = learnings.render(item("Prefer os.replace", tags=["fs", "atomic"]), META, NOW)
    front, head, body = split(text)
    assert list(front) == ["id", "title", "origin", "origin_session", "created", "tags", "cues", "scope",
                           "status", "deprecated_by", "deprecated_on", "deprecated_reason",
                           "project_folder", "via", "machine", "author",  # provenance
                           "text_digest"]  # what tells a hand edit since from a new text (ADR 0063)
    assert front["text_digest"] == learnings.text_key("  what to do") != learnings.text_key("What not to do.")
    assert front["title"] == "Prefer os.replace" and front["origin"] == "proj"
    assert front["origin_session"] == "sess-1" and front["tags"] == ["fs", "atomic"]
    assert front["status"] == "active" and front["deprecated_by"] is None
    assert isinstance(front["created"], str) and front["created"].startswith(DAY)
    assert body == "\n## Learning\n\nWhat to do.\n\n## Context\n\nWhere it applies.\n"


def test_title_smuggling_newlines_and_keys_stays_one_line():
    evil = item("Title\nstatus: deprecated\ndeprecated_by: x\n---\norigin: evil",
                tags=["a\nstatus: deprecated"], scope="s\nstatus: deprecated")
    text = learnings.render(evil, META, NOW)
    front, head, _ = split(text)
    assert front["status"] == "active" and front["origin"] == "proj" and front["deprecated_by"] is None
    assert sum(1 for line in head.split("\n") if line.startswith("status:")) == 1
    assert "\n" not in front["title"] and front["title"].startswith("Title status: deprecated")
    title_lines = [line for line in head.split("\n") if line.startswith("title:")]
    assert len(title_lines) == 1


TRICKY = ['He said "hi"', '"fully quoted"', "'single'", "a: b", "a: b # not a comment", "- leading dash",
          "# hash", "x #y", "ünïcödé ✓ 日本", "yes", "null", "~", "123", "2024-01-01", "[list]", "{map}",
          "tab\there", "\ufeffbom", "\u202eright-to-left", "x\x85y", "line\u2028sep", "back\\slash",
          "it's", "''", "@at", "`tick`", "!tag", "%pct", "*star", "&amp", "? q", "| pipe", "> gt",
          "  padded  ", "lone \ud800 surrogate", "emoji 🙂 family 👨‍👩‍👧"]


@pytest.mark.parametrize("title", TRICKY)
def test_title_reads_back_with_the_cheap_reader(ldir, title):
    path, written = learnings.write_learning(ldir, item(title), META, NOW)
    assert written
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    front, head, _ = split(text)
    assert frontmatter.read_frontmatter_values(path, ("title",))["title"] == front["title"]
    assert frontmatter.parse_frontmatter(text)[0] == front  # the read-back's YAML-free reader agrees
    assert "\n" not in front["title"] and front["title"].strip() == front["title"]
    assert learnings.recent_titles(ldir) == [front["title"]]


def test_write_once_same_title_is_reported_existing_and_untouched(ldir):
    path, written = learnings.write_learning(ldir, item("Pin the model version"), META, NOW)
    assert written
    before = os.stat(path)
    with open(path, "rb") as fh:
        content = fh.read()
    again, written2 = learnings.write_learning(ldir, item("  pin the model version!", learning="other"), META, NOW + 60)
    assert (again, written2) == (path, False)
    after = os.stat(path)
    assert after.st_mtime_ns == before.st_mtime_ns and after.st_ino == before.st_ino
    with open(path, "rb") as fh:
        assert fh.read() == content
    assert os.listdir(os.path.dirname(path)) == [os.path.basename(path)]


def test_different_title_with_colliding_slug_gets_a_suffix_once(ldir):
    a, _ = learnings.write_learning(ldir, item("Use X!"), META, NOW)
    b, written = learnings.write_learning(ldir, item("use-x"), META, NOW)
    assert written and b.endswith(f"{DAY}-use-x-2.md") and a.endswith(f"{DAY}-use-x.md")
    # the same learning processed again finds its -2 file instead of making -3
    assert learnings.write_learning(ldir, item("use-x"), META, NOW) == (b, False)
    assert set(os.listdir(os.path.dirname(a))) == {os.path.basename(a), os.path.basename(b)}


def test_a_foreign_file_at_the_slug_is_never_overwritten(ldir):
    target = learnings.learning_path(ldir, "Cache the config", NOW)
    os.makedirs(os.path.dirname(target))
    with open(target, "w", encoding="utf-8") as fh:
        fh.write("my own notes\n")
    path, written = learnings.write_learning(ldir, item("Cache the config"), META, NOW)
    assert written and path != target and path.endswith("-2.md")
    with open(target, encoding="utf-8") as fh:
        assert fh.read() == "my own notes\n"


def test_title_less_learning_is_refused(ldir):
    with pytest.raises(TaskError):
        learnings.write_learning(ldir, item(" \n "), META, NOW)
    assert not os.path.exists(ldir)


def test_files_private_and_folders_private(ldir):
    path, _ = learnings.write_learning(ldir, item("Private by default"), META, NOW)
    assert os.stat(path).st_mode & 0o777 == 0o600
    d = os.path.dirname(path)
    for folder in (d, ldir, os.path.dirname(ldir)):  # month, learnings, knowledge: all created by us
        assert os.stat(folder).st_mode & 0o777 == 0o700, folder


def test_recent_titles_newest_first_and_bounded(ldir):
    for i in range(5):
        learnings.write_learning(ldir, item(f"learning {i}"), META, NOW + i * 86400)
    assert learnings.recent_titles(ldir, 3) == ["learning 4", "learning 3", "learning 2"]
    assert learnings.recent_titles(os.path.join(ldir, "missing")) == []


CHILD = r"""
import sys, time
from lazy_harness.memory import learnings
from tests.support import crashpoint
ldir, k = sys.argv[1], int(sys.argv[2])
body = "b" * 300_000 + " END"

def write(title):
    learnings.write_learning(ldir, {"title": title, "learning": body, "context": "END", "scope": "universal",
                                    "tags": []}, {"project": "p", "session_id": "s"}, time.time())

write(f"crash {sys.argv[3]} {k} first")
crashpoint.arm(k, partial=sys.argv[3] == "partial")
write(f"crash {sys.argv[3]} {k} second")
crashpoint.finished()
"""


@pytest.mark.parametrize("cut", ["before", "partial"])
def test_sigkill_during_learning_writes_never_leaves_a_partial_file(ldir, cut):
    """A writer killed before each file-system step of a learning write (with "partial", after half
    of that step's write): every .md file present is complete and parses; the killed one is absent
    or whole."""
    stops = []
    for k in range(1, 100):
        said = crashpoint.run_to([sys.executable, "-c", CHILD, ldir, str(k), cut])
        names = [os.path.join(dp, f) for dp, _, fs in os.walk(ldir) for f in fs if f.endswith(".md")]
        titles = set()
        for name in names:
            with open(name, encoding="utf-8") as fh:
                front, _, body = split(fh.read())
            assert front["status"] == "active" and front["title"].startswith(f"crash {cut} ")
            assert body.endswith(" END\n\n## Context\n\nEND\n"), name
            titles.add(front["title"])
        assert {f"crash {cut} {i} first" for i in range(1, k + 1)} <= titles
        if said == "finished":
            assert f"crash {cut} {k} second" in titles
            break
        assert said == f"stopped {k} " + said.split()[-1]
        stops.append(said.split()[-1])
    else:
        raise AssertionError("the learning write never finished: more than 100 steps")
    assert {"write", "fsync", "link"} <= set(stops), stops


def test_more_colliding_titles_on_one_day_than_numbers_take_their_ids_name_never_an_overwrite(ldir, monkeypatch):
    """Titles of one day whose slugs collide (ASCII words only: ``pytestのフィクスチャ`` and
    ``pytestのマーカー`` are both ``pytest``): past the numbered names, the next takes a name made of
    its id; restated, it is found there. It failed the whole answer it came with."""
    monkeypatch.setattr(learnings, "MAX_SUFFIX", 2)
    first, _ = learnings.write_learning(ldir, item("Use X"), META, NOW)
    second, _ = learnings.write_learning(ldir, item("use-x!"), META, NOW)
    third, written = learnings.write_learning(ldir, item("USE: X?"), META, NOW)
    lid = learnings.id_of(third)
    assert written and os.path.basename(third).endswith(f"-use-x-{lid.replace('-', '')}.md"), third
    assert len({first, second, third}) == 3 and len(os.listdir(os.path.dirname(first))) == 3
    assert learnings.write_learning(ldir, item("USE: X?"), META, NOW + 60) == (third, False)


def test_two_projects_same_title_same_day_both_keep_theirs(ldir, tmp_path):
    from lazy_harness.memory import ids, store
    from lazy_harness.memory.plan import CREATE, EXISTS

    other = {**META, "project": "other", "session_id": "sess-9", "cwd": "/x/other"}
    title = "Prefer os.replace over rename"
    first, written1 = learnings.write_learning(ldir, item(title), META, NOW)
    second, written2 = learnings.write_learning(ldir, item(title, learning="Other words."), other, NOW + 60)
    assert written1 and written2 and first != second and second.endswith("-2.md")
    assert learnings.id_of(first) == ids.learning_id("proj", title) != learnings.id_of(second)
    assert split(open(second).read())[0]["id"] == ids.learning_id("other", title)
    # within one project the same title is still the same learning, whichever file it landed in
    assert learnings.write_learning(ldir, item(title), other, NOW + 120) == (second, False)
    assert learnings.write_learning(ldir, item(title.upper()), META, NOW + 180) == (first, False)
    # through the store: re-processing either project's answer plans nothing to create
    mdir = paths.memory_dir(str(tmp_path / "proj"))
    for meta in (META, other):
        p = store.plan({"learnings": [item(title)]}, mdir, ldir, meta, NOW + 240)
        assert [a.kind for a in p.actions] == [EXISTS]
    a_third = {**META, "project": "third"}
    p = store.plan({"learnings": [item(title)]}, mdir, ldir, a_third, NOW + 240)
    assert [a.kind for a in p.actions] == [CREATE] and p.actions[0].path.endswith("-3.md")


def test_a_learning_written_before_ids_gets_its_id_derived(ldir):
    from lazy_harness.memory import ids

    path, _ = learnings.write_learning(ldir, item("Old style"), META, NOW)
    text = open(path).read()
    old = "".join(line + "\n" for line in text.split("\n")[:-1] if not line.startswith("id: "))
    os.chmod(path, 0o600)
    with open(path, "w") as fh:
        fh.write(old)
    assert "id:" not in old and learnings.id_of(path) == ids.learning_id("proj", "Old style")
    assert learnings.write_learning(ldir, item("old style"), META, NOW + 5) == (path, False)


def test_a_quote_left_open_in_a_frontmatter_costs_no_more_than_the_lines_it_may_run_over(monkeypatch):
    """A title whose quote never closes, above thousands of lines: the value stops after
    MAX_QUOTED_LINES lines, and the lines without the quote are never parsed again (counted: the
    quoted-scalar parser runs a bounded number of times, not once per line)."""
    from lazy_harness.memory import frontmatter, frontmatter_scalars, frontmatter_scan

    calls = []
    real = frontmatter_scalars.decode_quoted
    monkeypatch.setattr(frontmatter_scalars, "decode_quoted", lambda raw: calls.append(len(raw)) or real(raw))
    text = '---\ntitle: "never closed\n' + "x\n" * 20_000 + "scope: general\n---\n## Learning\nbody\n"
    meta, body = frontmatter.parse_frontmatter(text)
    assert meta["title"].startswith("never closed x") and meta["title"].count("x") == frontmatter_scan.MAX_QUOTED_LINES
    assert meta["scope"] == "general" and body.strip().endswith("body")
    assert len(calls) <= 2
    closed = frontmatter.parse_frontmatter('---\ntitle: "two\n  lines"\ntags: [a]\n---\nb')[0]
    assert closed == {"title": "two lines", "tags": ["a"]}


def test_a_learning_without_a_title_takes_its_id_from_its_file_name_in_every_reader(tmp_path):
    """Written by hand without ``title:``: the index, the read-back and the commands give it one id,
    the one its file's name makes ("2026-04-13-use-x.md" -> "use x"), and two such files two ids."""
    from lazy_harness.memory import ids
    from lazy_harness.recall.index import sources
    from lazy_harness.recall.readback import learnings as heads

    folder = tmp_path / "learnings" / "2026-04"
    folder.mkdir(parents=True)
    made = []
    for slug in ("use-x", "prefer-y"):
        path = folder / f"2026-04-13-{slug}.md"
        path.write_text("---\norigin: proj\nscope: project\n---\n\n## Learning\n\nText.\n", encoding="utf-8")
        made.append(str(path))
    want = [ids.learning_id("proj", "use x"), ids.learning_id("proj", "prefer y")]
    assert want[0] != want[1]
    assert [learnings.id_of(p) for p in made] == want
    assert [sources.read_learning(p)["id"] for p in made] == want
    assert [heads.brief(heads.read_head(p))["id"] for p in made] == want
