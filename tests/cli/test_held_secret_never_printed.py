"""A held entry's secret is never printed in full (ADR 0062): a decision line holding an AWS key that
arrived by sync, one with a ``password=`` a person typed in, a password split across summary and
rationale, an open item and a learning file edited by hand. ``lh memory show``, ``held``, ``search``
(text and ``--json``), ``close``, ``approve`` and ``forget`` print each through the redactor, with
the ``[REDACTED:<kind>]`` marker the worker writes and the file (and line) where the person edits the
secret out; the secret's characters never appear, so an agent running them sees none."""

import json
import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files, handoff, ids, learnings
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()
AWS = "AKIA" + "Q3EGRIYTZ6VX2N4M"
PASSWORD = "Tr0ub4dor-and-3"
SPLIT = "Kx9-hunter-Lm42"
SYNCED = ("Upload the zebrafish artifacts to the shared bucket", f"ci uses {AWS} for the artifact bucket")
TYPED = (f"set password={PASSWORD} for the zebrafish staging database", "the admin rotated it last week")
ACROSS = ("Connect to the zebrafish staging db with the admin password", f"{SPLIT} since the rotation")
ITEM = f"rotate the zebrafish bucket key {AWS} before friday"
TITLE = f"Zebrafish bucket key is {AWS}"
SECRETS = (AWS, PASSWORD, SPLIT, AWS[4:])


def _clean(text: str) -> None:
    for secret in SECRETS:
        assert secret not in text, text


@pytest.fixture
def world(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    path = os.path.join(mdir, files.DECISIONS)
    ms.write_jsonl(path, [ms.decision(NOW - 3 * ms.DAY, "Keep the zebrafish importer single-threaded", "order")])
    # as a sync round's merge leaves it (another machine's line) and as a person appends one by hand
    ms.write_jsonl(path, [ms.decision(NOW - 2 * ms.DAY, *SYNCED, machine="laptop-2", via="session"),
                          ms.decision(NOW - ms.DAY, *TYPED), ms.decision(NOW - 60, *ACROSS)])
    handoff.append(mdir, [handoff.record("open", ITEM, "by hand", "t1", NOW - 30)])
    learning = ms.write_learning(paths.learnings_dir(), TITLE, "proj", NOW - 90, slug="bucket-key",
                                 learning=f"the zebrafish key {AWS} opens the bucket",
                                 project_folder=os.path.basename(mdir))
    return {"root": root, "mdir": mdir, "path": path, "learning": learning,
            "ids": [ids.entry_id("decision", s) for s, _ in (SYNCED, TYPED, ACROSS)],
            "item": ids.handoff_id(ITEM), "lid": learnings.id_of(learning)}


def test_show_prints_each_held_text_redacted_with_its_file_and_line(world):
    r = invoke("memory", "show", "--project", world["root"])
    assert r.code == 0, r.err
    _clean(r.out + r.err)
    assert "[REDACTED:aws-access-key]" in r.out and "password=[REDACTED:assignment]" in r.out, r.out
    assert "Rationale: [REDACTED:password] since" in r.out, r.out  # the secret split across two fields
    lines = r.out.splitlines()
    for line_no, eid in zip((2, 3, 4), world["ids"], strict=True):
        [line] = [ln for ln in lines if ln.strip().startswith(eid)]
        assert f"{world['path']}:{line_no}" in line, line
    [item] = [ln for ln in lines if world["item"] in ln]
    assert "[REDACTED:aws-access-key]" in item and os.path.join(world["mdir"], files.HANDOFF) in item, item
    [learning] = [ln for ln in lines if ln.strip().startswith(world["lid"])]
    assert "[REDACTED:aws-access-key]" in learning, learning
    # an ordinary entry is printed as written
    assert "Keep the zebrafish importer single-threaded" in r.out


def test_held_lists_each_redacted_with_its_file_and_line(world):
    r = invoke("memory", "held", "--project", world["root"])
    assert r.code == 0, r.err
    _clean(r.out + r.err)
    for line_no, eid in zip((2, 3, 4), world["ids"], strict=True):
        assert f"{world['path']}:{line_no}" in r.out
        assert eid in r.out
    assert r.out.count("[REDACTED:aws-access-key]") >= 3, r.out  # the bucket decision, the item, the learning
    assert world["learning"] in r.out


def test_search_text_and_json_print_each_hit_redacted_with_its_file(world):
    r = invoke("memory", "search", "--project", world["root"], "zebrafish")
    assert r.code == 0, r.err
    _clean(r.out + r.err)
    assert "password=[REDACTED:assignment]" in r.out and f"{world['path']}:3" in r.out, r.out
    assert "[REDACTED:aws-access-key]" in r.out and world["learning"] in r.out, r.out
    j = invoke("memory", "search", "--project", world["root"], "--json", "zebrafish")
    assert j.code == 0, j.err
    _clean(j.out + j.err)
    rows = {row["id"]: row for row in map(json.loads, j.out.splitlines())}
    typed = rows[world["ids"][1]]
    assert typed["summary"] == "set password=[REDACTED:assignment] for the zebrafish staging database", typed
    assert (typed["file"], typed["line"]) == (world["path"], 3)
    assert "[REDACTED:aws-access-key]" in rows[world["lid"]]["title"]
    assert "[REDACTED:aws-access-key]" in rows[world["item"]]["summary"]


def test_approve_forget_and_close_never_echo_the_secret(world):
    for eid in [*world["ids"], world["item"], world["lid"]]:
        r = invoke("memory", "approve", eid, "--project", world["root"])
        assert r.code == 1, r.out
        _clean(r.out + r.err)
    closed = invoke("memory", "close", world["item"], "--project", world["root"])
    assert closed.code == 0, closed.err
    _clean(closed.out + closed.err)
    assert "[REDACTED:aws-access-key]" in closed.out, closed.out
    forgot = invoke("memory", "forget", world["ids"][0], "--project", world["root"])
    assert forgot.code == 0, forgot.err
    _clean(forgot.out + forgot.err)
    history = invoke("memory", "history", "--project", world["root"])
    _clean(history.out + history.err)
