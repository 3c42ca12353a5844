"""``lh memory show`` and ``lh memory search``."""

import json
import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import run_hook
from tests.support import memory_samples as ms

NOW = time.time()
DAY = ms.DAY


@pytest.fixture
def project(tmp_path):
    return ms.make_project(tmp_path, "proj", branch="main")


def fill(project, decisions: int = 30) -> str:
    mem = paths.memory_dir(project)
    ms.write_handoff(mem, [f"handoff item {i}" for i in range(4)], "sess-show", NOW - DAY)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS),
                   [ms.decision(NOW - 40 * DAY + i * DAY, f"decision {i:02d}", f"because {i}")
                    for i in range(decisions)])
    ms.write_jsonl(os.path.join(mem, files.FAILURES),
                   [ms.failure(NOW - 20 * DAY + i * DAY, f"failure {i:02d}", f"prevent {i}") for i in range(7)])
    L = paths.learnings_dir()
    ms.write_learning(L, "own learning one", "proj", NOW - 2 * DAY, slug="own-1")
    ms.write_learning(L, "own learning two", "proj", NOW - 3 * DAY, slug="own-2")
    ms.write_learning(L, "foreign learning", "elsewhere", NOW - 4 * DAY, slug="foreign")
    return mem


def hook_context(project) -> str:
    result = run_hook("SessionStart", {"session_id": "s", "cwd": project, "source": "startup"})
    assert result.returncode == 0
    return json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]


def test_show_starts_with_exactly_what_the_hook_gives(project):
    fill(project)
    ctx = hook_context(project)
    out = invoke("memory", "show", "--project", project)
    assert out.code == 0, out.err
    assert out.out.startswith(ctx + "\n")


def test_show_then_lists_everything(project):
    fill(project)
    out = invoke("memory", "show", "--project", project)
    ctx, rest = out.out.split("\n==== ", 1)
    assert "decision 00" not in ctx and "decision 29" in ctx  # the context shows the newest only
    for i in range(30):
        assert f"decision {i:02d}" in rest and f"because {i}" in rest
    for i in range(7):
        assert f"failure {i:02d}" in rest and f"prevent {i}" in rest
    for i in range(4):
        assert f"handoff item {i}" in rest
    assert "sess-sho" in rest  # the opener by the first 8 characters of its id, as every origin
    assert "own learning one" in rest and "own learning two" in rest
    assert "foreign learning" not in rest  # learnings listed are this project's
    assert "Decisions (30," in rest and "Failures (7," in rest


def test_show_defaults_to_the_current_directory(project, monkeypatch):
    fill(project)
    os.makedirs(os.path.join(project, "src", "deep"))
    monkeypatch.chdir(os.path.join(project, "src", "deep"))
    out = invoke("memory", "show")
    assert out.code == 0 and out.out.startswith(hook_context(project) + "\n")


def test_show_on_an_empty_project_says_so(project):
    out = invoke("memory", "show", "--project", project)
    assert out.code == 0
    assert out.out.startswith("The next session receives nothing: no memory for project proj")
    assert "Decisions (0," in out.out


def test_show_when_context_is_disabled(project):
    fill(project)
    cfg = paths.config_file()
    os.makedirs(os.path.dirname(cfg))
    with open(cfg, "w") as fh:
        fh.write("[context]\nenabled = false\n")
    out = invoke("memory", "show", "--project", project)
    assert out.out.startswith("The next session receives nothing: context.enabled is false")
    assert "decision 00" in out.out


def search_memory(project) -> None:
    mem = paths.memory_dir(project)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [
        ms.decision(NOW - 5 * DAY, "sqlite queue rejected", "files are simpler", tags=["storage"]),
        ms.decision(NOW - 0.5 * DAY, "logs rotate at one megabyte", "the queue log grew large"),
        ms.decision(NOW - 0.2 * DAY, "unrelated choice", "nothing to do with it"),
    ])
    ms.write_jsonl(os.path.join(mem, files.FAILURES), [
        ms.failure(NOW - 1 * DAY, "Queue stuck after crash", "recover claims at worker start"),
    ])
    ms.write_learning(paths.learnings_dir(), "Queue names sort by time", "proj", NOW - 3 * DAY, slug="qn",
                      learning="Nanosecond prefixes keep a spool ordered.")


def test_search_ranks_title_hits_before_body_hits(project):
    search_memory(project)
    out = invoke("memory", "search", "queue", "--project", project)
    assert out.code == 0, out.err
    lines = out.out.strip().split("\n")
    found = [next(t for t in ("Queue stuck", "Queue names", "sqlite queue", "logs rotate") if t in ln) for ln in lines]
    # three title/summary hits (BM25 with the summary weighing 3), then the one with "queue" in its rationale only
    assert sorted(found[:3]) == ["Queue names", "Queue stuck", "sqlite queue"] and found[3] == "logs rotate"
    by_text = {t: ln for t, ln in zip(found, lines, strict=True)}
    assert by_text["Queue stuck"].split()[0] == "failure" and by_text["Queue names"].split()[0] == "learning"
    decision = by_text["sqlite queue"]
    assert decision.split()[0] == "decision" and ms.iso(NOW - 5 * DAY)[:10] in decision and " proj " in decision
    assert decision.rstrip().endswith(os.path.join(paths.memory_dir(project), files.DECISIONS) + ":1")
    assert by_text["Queue names"].rstrip().endswith("learnings/" + ms.iso(NOW - 3 * DAY)[:7] + "/"
                                                    + ms.iso(NOW - 3 * DAY)[:10] + "-qn.md")
    assert "unrelated choice" not in out.out


def test_search_prefers_items_matching_more_words_and_limits(project):
    search_memory(project)
    out = invoke("memory", "search", "sqlite", "queue", "--project", project)
    assert "sqlite queue rejected" in out.out.split("\n")[0]
    out = invoke("memory", "search", "queue", "--project", project, "-n", "2")
    assert len(out.out.strip().split("\n")) == 2


def test_search_tags_and_body_count(project):
    search_memory(project)
    assert "sqlite queue rejected" in invoke("memory", "search", "storage", "--project", project).out
    assert "Queue names sort by time" in invoke("memory", "search", "nanosecond", "--project", project).out


def test_search_finds_entries_by_their_cues(project):
    mem = paths.memory_dir(project)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS),
                   [ms.decision(NOW, "Resize uploads in a Celery task", "inline resizing timed out",
                                project="proj", cues=["why does the photo form hang"])])
    ms.write_learning(paths.learnings_dir(), "Pillow keeps EXIF rotation", "proj", NOW, slug="exif",
                      cues=["pictures come out sideways"])
    assert "Resize uploads in a Celery task" in invoke("memory", "search", "photo", "hang", "--project", project).out
    assert "Pillow keeps EXIF rotation" in invoke("memory", "search", "sideways", "--project", project).out
    assert invoke("memory", "search", "sideways", "--project", project).out.count("\n") == 1


def test_search_answers_from_an_index_damaged_where_the_refresh_does_not_look(project):
    """The pages the search reads are broken, those the refresh reads are not: the search fails on
    them, the index is built again from the files, and the answer is the same as before."""
    search_memory(project)
    before = invoke("memory", "search", "queue", "--project", project)
    assert before.code == 0 and "Queue stuck" in before.out
    path = paths.recall_index_file()
    size = os.path.getsize(path)
    with open(path, "r+b") as fh:  # the roots of the tables survive, their leaves do not
        for page in range(3, size // 4096):
            fh.seek(page * 4096)
            fh.write(b"\xff" * 4096)
    after = invoke("memory", "search", "queue", "--project", project)
    assert after.code == 0, after.err
    assert after.out == before.out


def test_search_all_projects(project, tmp_path):
    search_memory(project)
    other = ms.make_project(tmp_path, "other", branch="main")
    ms.write_jsonl(os.path.join(paths.memory_dir(other), files.DECISIONS),
                   [ms.decision(NOW, "queue lives beside the claude dir", "one place", project="other")])
    ms.write_learning(paths.learnings_dir(), "queue lessons from other", "other", NOW, slug="ql", scope="project")
    here = invoke("memory", "search", "queue", "--project", project).out
    assert "beside the claude dir" not in here and "lessons from other" not in here
    everywhere = invoke("memory", "search", "queue", "--project", project, "--all-projects").out
    assert "beside the claude dir" in everywhere and " other " in everywhere
    assert "lessons from other" in everywhere


def test_search_without_hits(project):
    search_memory(project)
    out = invoke("memory", "search", "zebra", "--project", project)
    assert out.code == 1 and out.out == "" and "no match for: zebra" in out.err  # a script can tell


def test_old_lines_without_ids_show_stable_derived_ids_in_show_and_search(project):
    from lazy_harness.memory import ids

    search_memory(project)  # lines and a learning written before ids existed: no "id" anywhere
    mem = paths.memory_dir(project)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS),
                   [{**ms.decision(NOW, "a new line with its own id"), "id": "d-0123abcd"}])
    with open(os.path.join(mem, files.DECISIONS), "rb") as fh:
        before = fh.read()
    assert b'"id"' in before and before.count(b'"id"') == 1
    want = {"sqlite queue rejected": ids.entry_id("decision", "sqlite queue rejected"),
            "Queue stuck after crash": ids.entry_id("failure", "Queue stuck after crash"),
            "Queue names sort by time": ids.learning_id("proj", "Queue names sort by time"),
            "a new line with its own id": "d-0123abcd"}
    for _ in range(2):  # the same ids every time
        show = invoke("memory", "show", "--project", project).out.split("\n==== ", 1)[1]
        found = invoke("memory", "search", "queue", "line", "--project", project).out
        for text, eid in want.items():
            assert any(eid in ln and text in ln for ln in show.split("\n")), (text, eid, show)
            assert any(eid in ln and text in ln for ln in found.split("\n")), (text, eid, found)
    with open(os.path.join(mem, files.DECISIONS), "rb") as fh:
        assert fh.read() == before  # ids derived on read, the file never rewritten


def test_show_lists_open_items_with_ids_and_history_lists_closed_ones(project):
    from lazy_harness.memory import handoff_answer, ids

    mem = paths.memory_dir(project)
    os.makedirs(mem)
    meta = {"project": "proj", "session_id": "sess-open", "task_id": "t-1"}
    handoff_answer.apply_answer(mem, ["still open", "done later"], [], meta, NOW - 30 * DAY, NOW)
    handoff_answer.apply_answer(mem, [], ["done later"], {**meta, "session_id": "sess-close"}, NOW - DAY, NOW)
    out = invoke("memory", "show", "--project", project).out.split("\n==== ", 1)[1]
    assert f"- open item {ids.handoff_id('still open')}, " in out and "from session sess-ope: still open" in out
    assert "stale: open 30 days" in out and "done later" not in out and "Closed handoff items" not in out
    out = invoke("memory", "show", "--history", "--project", project).out.split("\n==== ", 1)[1]
    closed = next(ln for ln in out.split("\n") if "done later" in ln)
    assert closed.strip().startswith(f"- [{ids.handoff_id('done later')}] done later (closed ")
    assert ms.iso(NOW - DAY)[:16].replace("T", " ") in closed and "by session sess-close" in closed
    assert "Closed handoff items (1," in out


def test_show_names_what_is_left_out_and_skips_lines_that_are_not_entries(project):
    from lazy_harness.memory import ids

    mem = fill(project, decisions=3)
    gone = ids.entry_id("decision", "decision 01")
    ms.write_jsonl(os.path.join(mem, "marks.jsonl"),
                   [{"op": "forget", "id": gone, "reason": "x", "ts": "t", "run": "r"}])
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [{"summary": None}, {"ts": 5, "summary": ["wrong", "type"]}])
    L = paths.learnings_dir()
    ms.write_learning(L, "an old learning", "proj", NOW - 5 * DAY, slug="old-1", status="forgotten")
    out = invoke("memory", "show", "--project", project)
    assert out.code == 0, out.err
    ctx, rest = out.out.split("\n==== ", 1)
    lines = {line.split("  ")[3]: line for line in rest.splitlines() if line.startswith("  d-")}
    assert lines["decision 01"].endswith("[forgotten]") and not lines["decision 02"].endswith("]")
    assert "Decisions (3," in rest and "wrong, type" not in out.out and "undated" not in ctx
    [old] = [line for line in rest.splitlines() if "an old learning" in line]
    assert old.endswith("[forgotten]")
    # a session wrote it: used here, and in other projects once the person approves it (ADR 0032)
    assert [line for line in rest.splitlines() if "own learning one" in line][0].endswith(
        "[used here; waits for approval for other projects]")


def snapshot(root) -> dict:
    """Every file and folder under ``root``: path -> (bytes, mtime) for a file, None for a folder."""
    out = {}
    for folder, dirs, names in os.walk(root):
        for d in dirs:
            out[os.path.join(folder, d)] = None
        for n in names:
            path = os.path.join(folder, n)
            with open(path, "rb") as fh:
                out[path] = (fh.read(), os.stat(path).st_mtime_ns)
    return out


def test_memory_path_prints_and_changes_nothing(isolated_home, project):
    """Old files wait in both places a move takes them from (Claude Code's auto-memory folder, and the
    path-keyed folder of a project that has since got an origin): ``lh memory path`` names the folder,
    says on stderr that files wait, and leaves every file as it was; ``lh memory show`` moves them."""
    old = paths.claude_memory_dir(paths.project_key(project))
    ms.write_jsonl(os.path.join(old, files.DECISIONS), [ms.decision(NOW - DAY, "old decision", "kept")])
    by_path = os.path.join(paths.memory_root(), paths.project_key(project))
    ms.write_jsonl(os.path.join(by_path, files.FAILURES), [ms.failure(NOW - DAY, "old failure", "kept")])
    with open(os.path.join(project, ".git", "config"), "w") as fh:
        fh.write('[remote "origin"]\n\turl = git@example.com:team/proj.git\n')
    mdir = paths.memory_dir(project)
    assert os.path.basename(mdir).startswith("git-")
    before = snapshot(isolated_home.parent)

    shown = invoke("memory", "path", "--project", project)
    learnings = invoke("memory", "path", "--project", project, "--learnings")

    assert shown.code == 0 and shown.out == mdir + "\n"
    assert learnings.code == 0 and learnings.out == paths.learnings_dir() + "\n"
    assert "2 old file(s)" in shown.err and "lh memory show" in shown.err
    assert snapshot(isolated_home.parent) == before
    # the same state is one where a reading command does move the files
    assert invoke("memory", "show", "--project", project).code == 0
    assert os.path.exists(os.path.join(mdir, files.DECISIONS)) and os.path.exists(os.path.join(mdir, files.FAILURES))
    assert not os.path.exists(os.path.join(old, files.DECISIONS))
