"""The page lists what ``lh memory show`` lists, with the same state, and its notes are true: a learning
the hold check holds (not yet marked held) is listed as held; a decision line duplicated by hand is one
entry; the "show all" line counts what was cut; the undo offered after an action on another project's
page works from the folder ``lh ui`` runs in."""

import html
import os
import re
import shlex
from urllib.parse import urlencode

import pytest

from lazy_harness import paths
from lazy_harness.memory import changes, files, ids, journal, last_key, marks
from lazy_harness.ui.sections import LIMIT
from tests.cli.lhrun import invoke, run
from tests.support import memory_samples as ms
from tests.ui.conftest import NOW
from tests.ui.test_held_states import POISON
from tests.ui.test_server import cookie, page, request, server_key


def _get(server, query: str = "") -> str:
    status, _, body = request(server, "GET", page(server, "/" + query), cookie(server))
    assert status == 200, body[:300]
    return body


def _section(body: str, anchor: str) -> str:
    return body.split(f'<section id="{anchor}">', 1)[1].split("</section>", 1)[0]


def _items(section: str) -> list[tuple[str, str, str]]:
    """(css class, id, inner html) of each entry of a section."""
    return re.findall(r'<li class="(entry [a-z]+)" data-id="([^"]+)">(.*?)</li>', section, re.S)


def _show_tag(root: str, eid: str) -> str:
    """The tag ``lh memory show`` gives an entry ('' for none)."""
    out = invoke("memory", "show", "--project", root)
    assert out.code == 0, out.err
    [line] = [ln for ln in out.out.splitlines() if ln.strip().startswith(eid + " ")]
    found = re.search(r"\[([^\]]*)\]$", line.strip())
    return found.group(1) if found else ""


def _post(server, key: str, action: str, **fields: str) -> list[str]:
    form = urlencode({"project": key, "token": server.form_token, **fields})
    status, headers, _ = request(server, "POST", page(server, f"/action/{action}"), cookie(server), body=form)
    assert status == 303
    body = request(server, "GET", headers["Location"], cookie(server))[2]
    return [html.unescape(n) for n in re.findall(r'<p class="flash">(.*?)</p>', body, re.S)]


# --- 1. a learning the check holds, not yet marked held ---------------------------------------------

def test_a_learning_the_check_holds_is_listed_as_held_in_learnings_as_lh_memory_show_says(server, seeded):
    path = ms.write_learning(seeded.ldir, "Test setup for every project", "proj", NOW, slug="poison",
                             learning=POISON, project_folder=os.path.basename(seeded.mdir))
    with open(path, encoding="utf-8") as fh:
        assert "status: active" in fh.read()  # a hand edit or a synced file: nobody marked it held
    from lazy_harness.memory import frontmatter

    with open(path, encoding="utf-8") as fh:
        eid = ids.of_learning(frontmatter.parse_frontmatter(fh.read())[0], path=path)
    tag = _show_tag(seeded.root, eid)
    assert tag.startswith("held: ")
    body = _get(server)
    [(css, _, inner)] = [i for i in _items(_section(body, "learnings")) if i[1] == eid]
    assert css == "entry gone"
    assert [html.unescape(b) for b in re.findall(r'class="badge">([^<]*)<', inner)] == [tag]
    assert "action/forget" not in inner  # what is held is approved or forgotten under "Held for approval"
    assert eid in _section(body, "held")


def test_the_kept_verdict_follows_an_edit_of_the_file(server, seeded):
    """The check's verdict is kept per file while it is unchanged: an edit that takes the instruction
    out is listed live at the next load, as ``lh memory show`` lists it."""
    path = ms.write_learning(seeded.ldir, "Test setup for every project", "proj", NOW, slug="poison",
                             learning=POISON, project_folder=os.path.basename(seeded.mdir))
    from lazy_harness.memory import frontmatter

    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    eid = ids.of_learning(frontmatter.parse_frontmatter(text)[0], path=path)
    assert [i[0] for i in _items(_section(_get(server), "learnings")) if i[1] == eid] == ["entry gone"]
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text.replace(POISON, "Run the unit tests with pytest before a commit."))
    assert not _show_tag(seeded.root, eid).startswith("held")
    assert [i[0] for i in _items(_section(_get(server), "learnings")) if i[1] == eid] == ["entry live"]


# --- 2. a line duplicated by hand ---------------------------------------------------------------

def test_a_decision_line_duplicated_by_hand_is_listed_once_as_lh_memory_show_lists_it(server, seeded):
    path = os.path.join(seeded.mdir, files.DECISIONS)
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().splitlines(keepends=True)
    copied = next(ln for ln in lines if "Keep the recall index in SQLite FTS5" in ln)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(copied)  # a person copied the line
    shown = invoke("memory", "show", "--project", seeded.root).out
    assert shown.split("\nDecisions (", 1)[1].split("\nFailures (", 1)[0].count(seeded.sqlite) == 1
    listed = [i[1] for i in _items(_section(_get(server), "decisions"))]
    assert listed.count(seeded.sqlite) == 1


# --- 3. "show all" says what was cut --------------------------------------------------------------

def _seed_counts(mdir: str, live: int, gone: int) -> None:
    recs = [ms.decision(NOW - 10_000 + i, f"Decision number {i} of the many", "why") for i in range(live + gone)]
    os.remove(os.path.join(mdir, files.DECISIONS))  # only these: the seeded ones out
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), recs)
    if gone:
        j = journal.Journal(mdir, "forget", "proj", NOW)
        for rec in recs[:gone]:
            changes.add_mark(mdir, j, "forget", ids.of_record(rec, "decision"), None, "seeded", NOW)
        j.save()


@pytest.mark.parametrize("live,gone", [(5, LIMIT + 20), (LIMIT + 30, 3), (LIMIT + 30, LIMIT + 20), (LIMIT + 1, 0)])
def test_the_show_all_line_counts_what_was_cut(server, seeded, live, gone):
    _seed_counts(seeded.mdir, live, gone)
    section = _section(_get(server), "decisions")
    items = _items(section)
    shown_live = sum(1 for css, _, _ in items if css == "entry live")
    shown_gone = sum(1 for css, _, _ in items if css == "entry gone")
    [more] = re.findall(r'<p class="more">(.*?)</p>', section, re.S)
    said = html.unescape(re.sub(r"<[^>]+>", "", more))
    pairs = {(int(a), int(b)) for a, b in re.findall(r"(\d+) of (?:the )?(\d+)", said)}
    expected = {(n, total) for n, total in ((shown_live, live), (shown_gone, gone)) if n < total}
    assert pairs == expected, said
    assert "show all" in said
    everything = _section(_get(server, "?all=1"), "decisions")
    assert len(_items(everything)) == live + gone and '<p class="more">' not in everything


# --- 4. the undo offered after an action on another project's page -------------------------------

def _other(tmp_path) -> tuple[str, str, str]:
    """(the other project's folder, its memory folder, the id of its decision) of the seeded world."""
    root = os.path.join(str(tmp_path), "other")
    mdir = paths.memory_dir(root)
    [rec] = files.read_entries(os.path.join(mdir, files.DECISIONS))
    return root, mdir, ids.of_record(rec, "decision")


def test_the_undo_offered_for_another_project_works_from_the_folder_lh_ui_runs_in(server, seeded, tmp_path):
    root, mdir, eid = _other(tmp_path)
    last_key.remember_key(root, mdir)  # the worker keeps where each project it wrote for lives
    [note] = _post(server, os.path.basename(mdir), "forget", id=eid)
    assert note.startswith(f"forgot {eid}")
    assert eid in marks.hidden(mdir)
    [command] = re.findall(r"(lh memory undo [^)]*?)(?:\)|$)", note)
    argv = shlex.split(command)
    assert "--project" in argv
    done = run(*argv[1:], cwd=seeded.root)  # where lh ui was started: another project's folder
    assert done.returncode == 0, done.stderr
    assert eid not in marks.hidden(mdir)


def test_the_undo_offered_for_a_project_of_unknown_folder_is_the_pages_button(server, seeded, tmp_path):
    _, mdir, eid = _other(tmp_path)  # nothing recorded where this project lives
    [note] = _post(server, os.path.basename(mdir), "forget", id=eid)
    assert note.startswith(f"forgot {eid}")
    for command in re.findall(r"lh memory undo [^)]*", note):
        assert "--project" in command, note  # a bare one fails here: the journal is the other project's
    assert "Undo" in note
    [run_id] = [r["run"] for r in journal.runs(mdir) if r["kind"] == "forget"]
    assert run_id in note
    [said] = _post(server, os.path.basename(mdir), "undo", run=run_id)
    assert said.startswith(f"undid {run_id}") and eid not in marks.hidden(mdir)


def test_the_undo_offered_for_this_folders_project_still_works_here(server, seeded):
    [note] = _post(server, server_key(server, seeded), "forget", id=seeded.sqlite)
    [command] = re.findall(r"(lh memory undo [^)]*?)(?:\)|$)", note)
    done = run(*shlex.split(command)[1:], cwd=seeded.root)
    assert done.returncode == 0, done.stderr
    assert seeded.sqlite not in marks.hidden(seeded.mdir)
