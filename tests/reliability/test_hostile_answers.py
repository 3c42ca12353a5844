"""Hostile model answers, through the real hook, worker and store: the fake model answers each
session with a different attack, and the whole tmp tree is compared before and after."""

import os

import pytest
import yaml

from lazy_harness import paths, queue
from lazy_harness.memory import ids
from tests.reliability import rig
from tests.support import fake_claude

MB = 1024 * 1024
KB64 = 64 * 1024
KB256 = 256 * 1024
FRONT_KEYS = ["id", "title", "origin", "origin_session", "created", "tags", "cues", "scope", "status",
              "deprecated_by",
              "deprecated_on", "deprecated_reason",
              "project_folder", "via", "machine", "author",  # provenance (ADR 0024)
              "agent",  # whose session (ADR 0044)
              "text_digest",  # what tells a hand edit from a new text of the title (ADR 0063)
              "origin_part",  # the transcript's part it came from: a later part corrects it (ADR 0063)
              "origin_check"]  # that part's bytes: a rewritten transcript holds them no more (ADR 0063)


def _good(tok: str) -> dict:
    """Items every answer carries next to its attack: they must survive it."""
    return {"decision": {"summary": f"Good decision {tok}", "context": "ok", "alternatives": ["b"],
                         "rationale": "ok", "tags": ["good"]},
            "learning": {"title": f"Good learning {tok}", "learning": "kept", "context": "ok",
                         "scope": "project", "tags": ["good"]}}


def _attacks(tok: str, outside: str) -> dict:
    g = _good(tok)
    return {
        "path traversal": {
            "decisions": [g["decision"]],
            "learnings": [g["learning"]] + [
                {"title": title, "learning": "traversal", "context": "x", "scope": "../../etc", "tags": ["../x"]}
                for title in (f"../../../../../../{outside}/{tok}-climb", f"{outside}/{tok}-absolute",
                              f"..\\..\\..\\{tok}-backslash", f".{tok}-hidden", f"~/{tok}-home",
                              f"a/b/../../../{tok}-mixed", "..", "/", "")],
            "handoff": [f"../../{tok}"]},
        "wrong types": {
            "decisions": {"summary": 12345, "context": ["not", "text"], "alternatives": {"x": 1},
                          "rationale": {"a": 1}, "tags": "single-tag"},
            "failures": "a failure as a bare string",
            "learnings": 42,
            "handoff": {"not": "a list"}},
        "non-object elements": {
            "decisions": ["a string", 42, None, [1, 2], True, g["decision"]],
            "failures": [None, {"summary": f"Good failure {tok}", "root_cause": "r", "prevention": "p"}],
            "learnings": [None, "x", 3.5, g["learning"]],
            "handoff": [None, 7, ["nested"], {"x": 1}, f"real item {tok}"]},
        "megabyte fields": {  # a megabyte in a long and in a one-line field; large learning and handoff item
            "decisions": [dict(g["decision"], context="c" * MB, rationale="r" * KB64,
                               alternatives=["a" * KB64] + ["b"] * 1000, tags=[f"t{i}" for i in range(10_000)])]
                         + [{"summary": f"Extra {tok} {i}", "context": "x"} for i in range(1000)],
            "failures": [{"summary": f"Huge failure {tok} " + "s" * MB, "root_cause": "q" * KB64, "prevention": "p"}],
            "learnings": [dict(g["learning"], learning="l" * KB256, context="k" * KB64)],
            "handoff": [f"{tok} " + "h" * KB256] + [f"item {i}" for i in range(1000)]},
        "unknown keys": {
            "decisions": [dict(g["decision"], path=f"{outside}/{tok}-key", memory_dir=outside, __proto__={"x": 1})],
            "learnings": [dict(g["learning"], file=f"../../{tok}", filename=f"{outside}/{tok}")],
            "handoff": [], "memory_dir": outside, "write_to": f"{outside}/{tok}", "__class__": "x"},
        "yaml smuggling": {  # its handoff item is one line among the others
            "decisions": [g["decision"]],
            "learnings": [g["learning"], {
                "title": f"Harmless {tok}\nstatus: deprecated\ndeprecated_by: attacker\n---\ninjected: true",
                "learning": "---\nstatus: deprecated\n---\nbody", "context": "x\n---\nstatus: evil",
                "scope": "project\nstatus: evil", "tags": ["x\nstatus: y", "ok"]}],
            "handoff": [f"line one {tok}\n- smuggled item\n# heading"]},
    }


@pytest.fixture(scope="module")
def drained(tmp_path_factory):
    """Every attack answered to its own session, all drained by one worker (once for the module);
    returns absolute paths and the tree before and after."""
    tmp = tmp_path_factory.mktemp("hostile")
    outside = str(tmp / "outside")
    with rig.private_home(tmp) as (home, model):
        proj = rig.project(tmp, "shop")
        answers, tokens, payloads = {}, {}, []
        for label in _attacks("x", outside):
            tok = rig.new_token()
            answers[tok] = _attacks(tok, outside)[label]
            tokens[label] = tok
            payloads.append(rig.session(proj, tok))
        fake_claude.control(model, mode="ok", answers=answers, need_token=True)
        os.makedirs(outside)
        before = rig.snapshot(tmp)
        rig.end_sessions_then_drain(payloads)
        q = paths.queue_dir()
        return {"tmp": tmp, "before": before, "after": rig.snapshot(tmp), "tokens": tokens, "outside": outside,
                "memory": rig.memory(proj), "learnings": paths.learnings_dir(), "queue": q, "logs": paths.logs_dir(),
                "records": os.path.join(str(model), fake_claude.RECORDS), "cache": paths.cache_dir(),
                "machine_state": paths.machine_state_dir(),
                "ledger": paths.ledger_file(),
                "done": [queue.read_task(os.path.join(q, "done", n)) for n in rig.tasks("done")],
                "left": rig.tasks("") + rig.tasks("processing") + rig.tasks("failed"),
                "worker_log": rig.read(rig.log_file("worker.log"))}


def _allowed(rel: str, roots: list[str], tmp) -> bool:
    path = os.path.join(str(tmp), rel)
    for root in roots:
        if path == root or path.startswith(root + os.sep):
            return True
        if root.startswith(path + os.sep) and os.path.isdir(path):
            return True  # a parent folder that got a new entry
    return False


def test_nothing_is_written_outside_the_memory_and_learnings_folders(drained):
    tmp = drained["tmp"]
    roots = [drained["memory"], drained["learnings"], drained["queue"], drained["logs"], drained["records"],
             drained["cache"], drained["ledger"], drained["machine_state"]]
    # the search index the worker refreshes; the cost ledger; the key each project was last written under
    stray = [p for p in rig.changed(drained["before"], drained["after"]) if not _allowed(p, roots, tmp)]
    assert stray == []
    assert os.listdir(drained["outside"]) == []
    for tok in drained["tokens"].values():  # absolute and home-relative targets outside tmp too
        for candidate in (f"/{tok}-absolute", f"/tmp/{tok}-climb", os.path.expanduser(f"~/{tok}-home")):
            assert not os.path.exists(candidate)
    assert drained["left"] == []
    assert len(drained["done"]) == len(drained["tokens"]) and {t["outcome"] for t in drained["done"]} == {"processed"}


def _learnings(drained) -> dict[str, tuple[dict, str, str]]:
    out = {}
    root = drained["learnings"]
    for path in sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs):
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        assert text.startswith("---\n"), path
        head, sep, body = text[4:].partition("\n---\n")
        assert sep, path
        out[path] = (yaml.safe_load(head), head, body)
    return out


def test_frontmatter_stays_well_formed_with_exactly_one_status(drained):
    learned = _learnings(drained)
    assert learned
    for path, (front, head, body) in learned.items():
        assert list(front) == FRONT_KEYS, path
        assert [ln for ln in head.split("\n") if ln.startswith("status:")] == ["status: active"], path
        assert front["deprecated_by"] is None and "\n" not in front["title"] and "\n" not in front["scope"]
        assert all("\n" not in t for t in front["tags"])
        assert body.startswith("\n## Learning\n\n") and "\n## Context\n\n" in body
        name = os.path.basename(path)
        assert name[:11].count("-") == 3 and all(c.isalnum() or c in "-." for c in name) and not name.startswith(".")
    smuggled = [f for f, _, _ in learned.values() if f["title"].startswith("Harmless")]
    assert [f["title"] for f in smuggled] == [
        f"Harmless {drained['tokens']['yaml smuggling']} status: deprecated deprecated_by: attacker --- injected: true"]
    tok = drained["tokens"]["yaml smuggling"]
    handoff = rig.read(os.path.join(drained["memory"], "handoff.md"))
    items = [ln for ln in handoff.split("\n") if ln.startswith("- ") and tok in ln]
    text = f"line one {tok} - smuggled item # heading"
    assert items == [f"- [{ids.handoff_id(text)}] {text}"]
    assert not [ln for ln in handoff.split("\n") if ln.startswith("#") and "Open items" not in ln]


def test_good_items_are_kept_next_to_every_attack(drained):
    titles = {f["title"] for f, _, _ in _learnings(drained).values()}
    decisions = {r["summary"] for r in rig.jsonl(os.path.join(drained["memory"], "decisions.jsonl"))}
    failures = {r["summary"] for r in rig.jsonl(os.path.join(drained["memory"], "failures.jsonl"))}
    t = drained["tokens"]
    for label in ("path traversal", "yaml smuggling", "non-object elements", "megabyte fields", "unknown keys"):
        assert f"Good decision {t[label]}" in decisions, label
        assert f"Good learning {t[label]}" in titles, label
    assert f"Good failure {t['non-object elements']}" in failures
    assert "12345" in decisions  # a number where text belongs is read as text
    assert "a failure as a bare string" not in failures  # a bare string is not an object: dropped
    # the traversal titles became ordinary files inside the learnings folder
    climbing = [f for f, _, _ in _learnings(drained).values() if t["path traversal"] in f["title"]]
    assert len(climbing) == 7  # the good one and six path-like titles; "..", "/" and "" have no title left


def test_fields_are_capped(drained):
    mem = drained["memory"]
    for name in ("decisions.jsonl", "failures.jsonl"):
        for rec in rig.jsonl(os.path.join(mem, name)):
            for key, value in rec.items():
                if isinstance(value, str):
                    assert len(value) <= (200 if key == "summary" else 2000), (name, key, len(value))
                else:
                    assert len(value) <= 10 and all(len(v) <= 300 for v in value), (name, key)
    extra = [r for r in rig.jsonl(os.path.join(mem, "decisions.jsonl")) if r["summary"].startswith("Extra ")]
    # past the cap of 20, at most MAX_OVER more are written held (issue 37): out of every session
    from lazy_harness.memory import held
    from lazy_harness.worker.answer import MAX_OVER

    live = [r for r in extra if r["id"] not in held.held_ids(mem)]
    assert len(live) <= 20 and len(extra) <= 20 + MAX_OVER
    for _, (front, _, body) in _learnings(drained).items():
        learning, _, context = body.partition("\n## Context\n\n")
        assert len(learning) <= 2000 + 20 and len(context) <= 2000 + 2
        assert len(front["title"]) <= 200 and len(front["tags"]) <= 10
    handoff = rig.read(os.path.join(mem, "handoff.md"))
    assert len(handoff) < 40_000


def test_each_problem_is_logged(drained):
    log = drained["worker_log"]
    for needle in ("not an object, dropped",  # non-object list elements
                   "instead of a list, taken as one item",  # wrong types
                   "instead of a list, ignored",  # a number where a list belongs
                   "not text, dropped",  # handoff elements that are not text
                   "cut from",  # megabyte fields
                   "kept the first 20",  # too many items
                   "unknown keys ignored",  # unknown keys, top level and per item
                   "not written to learnings: learning without a title"):  # a title of only ".." or "/"
        assert needle in log, needle
    assert max(len(ln) for ln in log.splitlines()) < 5000  # a megabyte field is never logged whole
