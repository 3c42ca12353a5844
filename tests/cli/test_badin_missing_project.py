"""A ``--project`` folder that does not exist (a typo) is refused by every command that reads or
writes a project's memory, with one line naming the folder, before anything is read or created:
no memory folder for the typo, no undo record filed under it. ``lh memory path`` alone still names
the memory folder of a folder that is gone (it changes nothing)."""

import hashlib
import json
import os
import time

import pytest

from lazy_harness import paths
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms
from tests.support import realistic_memory as rm


def snapshot(top) -> dict[str, str]:
    """Every folder and file under ``top``: a folder as "dir", a file as the hash of its bytes."""
    out: dict[str, str] = {}
    for folder, dirs, names in os.walk(top):
        for d in dirs:
            out[os.path.relpath(os.path.join(folder, d), top)] = "dir"
        for n in names:
            path = os.path.join(folder, n)
            with open(path, "rb") as fh:
                out[os.path.relpath(path, top)] = hashlib.sha256(fh.read()).hexdigest()
    return out


@pytest.fixture
def world(isolated_home, tmp_path):
    """A project with memory (decisions, failures, learnings, open items) and a transcript of it."""
    proj = ms.make_project(tmp_path, "proj")
    rm.build(proj, os.environ, time.time(), entries=36, name="proj", handoff_items=3)
    transcript = tmp_path / "session.jsonl"
    transcript.write_text(json.dumps({"type": "user", "cwd": proj, "sessionId": "s-1",
                                      "message": {"role": "user", "content": "hello"}}) + "\n")
    return {"proj": proj, "typo": os.path.join(str(tmp_path), "prjo"), "transcript": str(transcript)}


COMMANDS = {
    "show": ("memory", "show"),
    "show-prompt": ("memory", "show", "--prompt", "pool timeout"),
    "search": ("memory", "search", "pool"),
    "check": ("memory", "check"),
    "consolidate": ("memory", "consolidate", "--dry-run"),
    "history": ("memory", "history"),
    "undo": ("memory", "undo"),
    "forget": ("memory", "forget", "d-00000000"),
    "close": ("memory", "close", "h-00000000"),
    "held": ("memory", "held"),
    "approve-all": ("memory", "approve", "--all"),
    "usage": ("memory", "usage"),
    "usage-reset": ("memory", "usage", "--reset", "d-00000000"),
    "adopt": ("memory", "adopt", "-tmp-some-key"),
    "backfill": ("backfill", "--dry-run"),
    "backfill-queue": ("backfill",),
    "distill": ("distill", "{transcript}"),
}


def refused(r, typo: str) -> None:
    assert r.code == 1, (r.code, r.out, r.err)
    assert r.out == "", r.out
    assert r.err.count("\n") == 1 and "Traceback" not in r.err, r.err
    assert r.err.startswith(f"lh: --project: {typo} does not exist"), r.err


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_missing_project_folder_is_refused_and_nothing_is_created(world, tmp_path, name):
    args = [a.format(**world) for a in COMMANDS[name]]
    if "adopt" in args:  # why: the old key goes after "--" (path keys start with "-")
        args = [*args[:-1], "--project", world["typo"], "--", args[-1]]
    else:
        args += ["--project", world["typo"]]
    before = snapshot(tmp_path)
    r = invoke(*args)
    refused(r, world["typo"])
    assert snapshot(tmp_path) == before
    assert not os.path.exists(world["typo"])


def test_the_quick_search_refuses_it_as_click_does(world, tmp_path):
    """``lh memory search`` with plain arguments is answered without click (lazy_harness/__main__.py):
    the same line for a missing folder."""
    from click.testing import CliRunner

    from lazy_harness.__main__ import main

    before = snapshot(tmp_path)
    with CliRunner().isolation() as (out, err, _):
        with pytest.raises(SystemExit) as exit_:
            main(["memory", "search", "pool", "--project", world["typo"]])
        said, errs = out.getvalue().decode(), err.getvalue().decode()
    assert exit_.value.code == 1
    assert said == "" and errs.count("\n") == 1 and errs.startswith(f"lh: --project: {world['typo']} does not exist")
    assert snapshot(tmp_path) == before


def test_a_relative_typo_is_named_as_the_absolute_folder(world, tmp_path, monkeypatch):
    monkeypatch.chdir(world["proj"])
    before = snapshot(tmp_path)
    r = invoke("memory", "show", "--project", "../prjo")
    refused(r, world["typo"])
    assert snapshot(tmp_path) == before


def test_memory_path_still_names_the_memory_of_a_folder_that_is_gone(world, tmp_path):
    before = snapshot(tmp_path)
    r = invoke("memory", "path", "--project", world["typo"])
    assert r.code == 0, r.err
    assert r.out.strip() == paths.project_memory_dir(world["typo"])
    assert snapshot(tmp_path) == before


def test_an_existing_project_folder_is_still_accepted(world):
    r = invoke("memory", "history", "--project", world["proj"])
    assert r.code == 0, r.err
