"""A held entry's secret is never printed in full (ADR 0062): a decision line holding an AWS key that
arrived by sync, one with a ``password=`` a person typed in, a password split across summary and
rationale, an open item and a learning file edited by hand. ``lh memory show``, ``held``, ``search``
(text and ``--json``), ``close``, ``approve`` and ``forget`` print each through the redactor, with
the ``[REDACTED:<kind>]`` marker the worker writes and the file (and line) where the person edits the
secret out; the secret's characters never appear, so an agent running them sees none."""

import json
import os
import subprocess
import sys
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files, handoff, ids, learnings
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import run_hook
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


def test_a_session_start_and_the_logs_never_echo_the_secret(world):
    """The start records the holds (marks, journal, hooks.log); its message, lh logs and lh memory
    history name ids and redacted reasons only."""
    r = run_hook("SessionStart", {"session_id": "5f0c2a8e-9d1b-4e7a-8c3f-2b6d1e0a9f47", "cwd": world["root"],
                                  "hook_event_name": "SessionStart", "source": "startup"})
    assert r.returncode == 0, r.stderr
    _clean(r.stdout.decode() + r.stderr.decode())
    logs = invoke("logs", "-n", "200")
    assert logs.code == 0, logs.err
    _clean(logs.out + logs.err)
    history = invoke("memory", "history", "--project", world["root"])
    assert "hold" in history.out, history.out
    _clean(history.out + history.err)
    held = invoke("memory", "held", "--project", world["root"])
    _clean(held.out + held.err)
    assert f"{world['path']}:3" in held.out


def test_an_entry_forgotten_or_closed_for_its_secret_is_still_listed_redacted(world):
    """The way out ``approve`` names (``lh memory forget ID``) and a close leave the line in its file:
    show, show --history and search --all list it with its state, redacted."""
    for eid in (world["ids"][1], world["ids"][2]):
        assert invoke("memory", "forget", eid, "--project", world["root"]).code == 0
    assert invoke("memory", "forget", world["lid"], "--project", world["root"]).code == 0
    assert invoke("memory", "close", world["item"], "--project", world["root"]).code == 0
    held = invoke("memory", "held", "--project", world["root"])  # what it keeps of its verdicts, as in use
    assert held.code == 0, held.err
    shown = invoke("memory", "show", "--history", "--project", world["root"])
    assert shown.code == 0, shown.err
    _clean(shown.out + shown.err)
    [typed] = [ln for ln in shown.out.splitlines() if ln.strip().startswith(world["ids"][1])]
    assert "password=[REDACTED:assignment]" in typed and "[forgotten]" in typed, typed
    assert f"{world['path']}:3" in typed, typed
    [across] = [ln for ln in shown.out.splitlines() if ln.strip().startswith(world["ids"][2])]
    assert "Rationale: [REDACTED:password] since" in across, across
    [item] = [ln for ln in shown.out.splitlines() if world["item"] in ln]
    assert "rotate the zebrafish bucket key [REDACTED:aws-access-key]" in item, item
    found = invoke("memory", "search", "--all", "--project", world["root"], "zebrafish")
    _clean(found.out + found.err)
    assert "password=[REDACTED:assignment]" in found.out, found.out
    rows = invoke("memory", "search", "--all", "--json", "--project", world["root"], "zebrafish")
    _clean(rows.out + rows.err)


def _modules(*args: str) -> set[str]:
    """The modules ``lh ARGS`` imported, run as a person runs it (a process of its own, ``-X importtime``)."""
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "lazy_harness", *args], capture_output=True,
                       timeout=120)
    assert r.returncode in (0, 1), r.stderr[-2000:]
    return {line.rsplit("|", 1)[-1].strip() for line in r.stderr.decode().splitlines() if "|" in line}


def test_a_listing_with_no_secret_in_it_never_loads_the_redactor(tmp_path):
    """Ordinary entries, some forgotten or closed: once their verdicts are kept, show, held and search
    load no redactor, whichever ran last (held keeps only the verdicts it used; the ended entries' are
    kept apart)."""
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    recs = [ms.decision(NOW - (9 - i) * ms.DAY, f"Keep the zebrafish importer step {i} idempotent", "retries")
            for i in range(4)]
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), recs)
    handoff.append(mdir, [handoff.record("open", "wire the zebrafish release workflow", "s", "t1", NOW - 40),
                          handoff.record("open", "document the zebrafish cache", "s", "t1", NOW - 30)])
    assert invoke("memory", "forget", ids.entry_id("decision", recs[1]["summary"]), "--project", root).code == 0
    assert invoke("memory", "close", "document the zebrafish cache", "--project", root).code == 0
    # why not show's context: it is what SessionStart would give, which checks a new entry itself
    show = ("memory", "show", "--history", "--section", "handoff", "--section", "decisions", "--project", root)
    every = (show, ("memory", "held", "--project", root),
             ("memory", "search", "--all", "--project", root, "zebrafish"))
    for args in every:  # the first of each works the verdicts out
        assert invoke(*args).code == 0
    # a new entry: search brings the index up to date with it (its writer checks it), then held works its
    # verdict out and keeps only those it used
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), [ms.decision(NOW, "Pin the zebrafish base image", "drift")])
    assert invoke(*every[2]).code == 0 and invoke(*every[1]).code == 0
    for args in (every[0], *every):  # show after held: what held dropped is not worked out again
        loaded = _modules(*args)
        assert "lazy_harness.memory.trust" in loaded or args[1] == "search", args
        assert not {m for m in loaded if m.startswith("lazy_harness.redact")}, args


def test_show_prompt_names_a_candidate_held_for_its_secret_redacted(world):
    r = invoke("memory", "show", "--project", world["root"], "--prompt",
               "where do the zebrafish artifacts go in the shared bucket")
    assert r.code == 0, r.err
    _clean(r.out + r.err)
    [line] = [ln for ln in r.out.splitlines() if world["ids"][0] in ln and ln.startswith("held")]
    assert "[REDACTED:aws-access-key]" in line or "Upload the zebrafish artifacts" in line, line


def test_unassigned_names_a_learning_holding_a_secret_redacted(tmp_path):
    for name in ("work", "clients"):
        ms.make_project(tmp_path / name, "api")
    for sid, name in (("sess-a", "work"), ("sess-c", "clients")):
        from tests.memory.test_owners import write_as_session
        write_as_session(str(tmp_path / name / "api"), {"decisions": [{"summary": f"Deploy {name} blue green"}]},
                         session=sid)
    ms.write_learning(paths.learnings_dir(), TITLE, "api", NOW - 86400 * 60, scope="project",
                      learning="the bucket opens with it")
    r = invoke("memory", "unassigned")
    assert r.code == 0, r.err
    _clean(r.out + r.err)
    assert "Zebrafish bucket key is [REDACTED:aws-access-key]" in r.out, r.out
