"""``lh memory search`` on the index, ``lh memory reindex`` and ``lh memory show --prompt``."""

import json
import os
import time

from lazy_harness import paths
from lazy_harness.memory import files, ids
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()


def fill(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [
        ms.decision(NOW - 30 * ms.DAY, "Use Postgres advisory locks for the deployment scheduler", "two runners"),
        ms.decision(NOW, "Keep the stylesheet in one file", "simple")])
    ms.write_jsonl(os.path.join(mem, files.FAILURES), [
        ms.failure(NOW, "Scheduler deployed twice after a lock timeout", "renew the lock")])
    ms.write_handoff(mem, ["Move the scheduler lock to the new database"], "s", NOW)
    return root


def test_search_json_kinds_since_and_handoff(tmp_path):
    root = fill(tmp_path)
    out = invoke("memory", "search", "scheduler", "lock", "--project", root, "--json")
    assert out.code == 0, out.err
    objs = [json.loads(ln) for ln in out.out.splitlines()]
    assert {o["kind"] for o in objs} == {"decision", "failure", "handoff"}
    for o in objs:
        assert set(o) >= {"kind", "id", "file", "line", "score"} and ("summary" in o or "title" in o)
    d = next(o for o in objs if o["kind"] == "decision")
    assert d["id"] == ids.entry_id("decision", "Use Postgres advisory locks for the deployment scheduler")
    assert d["file"] == os.path.join(paths.memory_dir(root), files.DECISIONS) and d["line"] == 1
    only = invoke("memory", "search", "scheduler", "lock", "--project", root, "--json", "--kind", "failure")
    assert [json.loads(ln)["kind"] for ln in only.out.splitlines()] == ["failure"]
    since = invoke("memory", "search", "scheduler", "--project", root, "--kind", "decision",
                   "--since", ms.iso(NOW - ms.DAY)[:10])
    assert since.out == "" and "no match" in since.err


def test_search_n_is_validated(tmp_path):
    root = fill(tmp_path)
    bad = invoke("memory", "search", "scheduler", "--project", root, "-n", "0")
    assert bad.code == 2 and "-n" in bad.err
    assert invoke("memory", "search", "x", "--since", "yesterday").code == 2


def test_reindex_rebuilds_from_the_files(tmp_path):
    fill(tmp_path)
    out = invoke("memory", "reindex")
    assert out.code == 0 and "indexed 4 entries of 1 project" in out.out
    assert os.path.exists(paths.recall_index_file())


def test_reindex_waits_for_a_running_build_and_clears_nothing_under_it(tmp_path):
    """A build running (its lock held by another process): reindex says it waits, the index keeps every
    entry while it waits, and once the build is over reindex brings the index up to date from the files
    without clearing what that build wrote (here, it had written everything already)."""
    import subprocess
    import sys

    from lazy_harness.recall.index import writer as build
    from tests.cli.lhrun import lh_script

    fill(tmp_path)
    assert invoke("memory", "reindex").code == 0
    path = paths.recall_index_file()
    assert build.indexed_so_far(path) == 4
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, os, sys\n"
         "fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)\n"
         "fcntl.flock(fd, fcntl.LOCK_EX)\nprint('held', flush=True)\nsys.stdin.read()\n", build.lock_file(path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        reindex = subprocess.Popen([*lh_script(), "memory", "reindex"], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
        first = reindex.stdout.readline()
        assert first.startswith("waiting for the index build running now (4 entries"), (first, reindex.stderr.read())
        assert build.indexed_so_far(path) == 4  # nothing cleared under the running build
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)
    out, err = reindex.communicate(timeout=60)
    assert reindex.returncode == 0, err
    assert "brought up to date after the build that was running: indexed 0 entries of 1 project" in out
    assert build.indexed_so_far(path) == 4


def test_show_prompt_prints_what_the_prompt_gets_and_why(tmp_path):
    root = fill(tmp_path)
    os.makedirs(os.path.dirname(paths.config_file()), exist_ok=True)
    with open(paths.config_file(), "w", encoding="utf-8") as fh:  # the strength bar alone
        # why context off: SessionStart, which runs before a first prompt, would have shown them all
        fh.write("[context]\nenabled = false\n[recall]\nsemantic = false\n")
    out = invoke("memory", "show", "--project", root, "--prompt", "the deploy scheduler ran twice, lock it in postgres")
    assert out.code == 0, out.err
    got, why = out.out.split("\n==== why", 1)
    assert "advisory locks" in got and "pass " in why
    assert "bar: 2 terms, 3 for a general learning of another project, strength 2.4)" in why
    # the one search by words, and whether it scored every entry holding the words (a small memory)
    assert "; search: exact (every entry holding its words scored);" in why.splitlines()[0], why
    # each candidate's line, then (indented) the bar's reason to let it in or keep it out
    lines = [line for line in why.splitlines()[1:] if line.strip()]
    pairs = list(zip(lines[::2], lines[1::2], strict=True))
    for row, reason in pairs:
        passes = row.startswith("pass")
        assert reason.startswith("      in: " if passes else "      out: "), (row, reason)
        strength = float(row.split()[1 if passes else 0])
        # those marked pass reach the strength bar; one over it is out only for its words (ADR 0034)
        assert strength >= 2.4 if passes else (strength < 2.4 or "words" in reason or "word groups" in reason), why
    none = invoke("memory", "show", "--project", root, "--prompt", "/compact")
    assert "receives nothing: slash command" in none.out


def test_show_prompt_while_another_process_writes_the_first_index_says_there_is_none(tmp_path):
    """No index yet and its writer's lock held elsewhere (the worker's first build): the command does
    not wait, searches nothing, and says why nothing comes back instead of failing."""
    import fcntl

    from lazy_harness.recall.index import writer

    root = fill(tmp_path)
    path = paths.recall_index_file()
    assert not os.path.exists(path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd = os.open(writer.lock_file(path), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        out = invoke("memory", "show", "--project", root, "--prompt", "the deploy scheduler ran twice, lock it")
    finally:
        os.close(fd)
    assert out.code == 0, out.err
    assert "being written by another process" in out.out
    assert "there is no search index to search (missing)" in out.out, out.out
    assert "terms: none" in out.out


def test_show_prompt_prints_each_candidates_similarity_from_the_static_model(tmp_path):
    from lazy_harness.recall.embed import static_model

    root = fill(tmp_path)
    os.makedirs(os.path.dirname(paths.config_file()), exist_ok=True)
    with open(paths.config_file(), "w", encoding="utf-8") as fh:  # SessionStart would have shown them all
        fh.write("[context]\nenabled = false\n")
    prompt = "the deploy scheduler ran twice, lock it in postgres"
    out = invoke("memory", "show", "--project", root, "--prompt", prompt)
    assert out.code == 0, out.err
    got, why = out.out.split("\n==== why", 1)
    assert "bar: similarity 0.53 and 1 term, 2 for a general learning of another project, with " in why
    model = static_model.load()
    rows = {line.split("  ")[-2].strip(): line for line in why.splitlines()[1:]
            if line.strip() and not line.startswith(" ")}
    for title, row in rows.items():
        shown = row.split()[3]
        if shown == "-":
            continue
        # the similarity printed is the better of the entry's whole text and its cues, so at least
        # the title's own similarity to the prompt is no guide; it must be a cosine in [-1, 1]
        assert -1.0 <= float(shown) <= 1.0, row
        assert row.startswith("pass") == (title in got), row
    assert any(row.split()[3] != "-" for row in rows.values())
    assert model.dims > 0


def test_search_lists_only_what_holds_a_word_typed_not_its_related_words(tmp_path):
    """`lh memory search stripe` lists what says stripe; the prompt hook's related words (payment ~
    stripe) are for prompts, not for a search a person reads."""
    root = fill(tmp_path)
    mem = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [
        ms.decision(NOW, "Stripe webhooks are verified with their signing secret", "forged events"),
        ms.decision(NOW, "Payments are retried three times by the billing worker", "card networks time out")])
    out = invoke("memory", "search", "stripe", "--project", root)
    assert out.code == 0, out.err
    assert "Stripe webhooks" in out.out and "Payments are retried" not in out.out, out.out
