"""The distill step names the decisions a session replaces: the prompt gives each recorded decision
with its id, the answer's ``replaces`` is checked, and ``lh distill`` shows and writes the mark."""

import json
import os

from lazy_harness import paths
from lazy_harness.memory import ids, store
from lazy_harness.worker import answer, prompt
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import enable_loop
from tests.support import fake_claude
from tests.support import memory_samples as ms
from tests.support.sessions import place

OLD = "Store money amounts as integer cents in every table"
NEW = "Store money amounts in NUMERIC(14,4) columns, replacing integer cents"
OLD_ID, NEW_ID = ids.entry_id("decision", OLD), ids.entry_id("decision", NEW)


def test_the_prompt_lists_each_recorded_decision_with_its_id_and_asks_for_replaces(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    # a line written before decisions carried ids is listed with the id every reader derives for it
    ms.write_jsonl(os.path.join(mdir, "decisions.jsonl"), [ms.decision(1_700_000_000, OLD)])
    existing = store.existing_memory(mdir, paths.learnings_dir())
    assert [d["id"] for d in existing["decisions"]] == [OLD_ID]
    text = prompt.memory_section(existing)
    assert f"- [{OLD_ID}] {OLD}" in text.split("Failures already recorded")[0]
    assert '"replaces"' in prompt.INSTRUCTIONS or "replaces:" in prompt.INSTRUCTIONS
    item = prompt.ANSWER_SCHEMA["properties"]["decisions"]["items"]
    assert item["properties"]["replaces"] == {"type": "array", "items": {"type": "string"}}
    assert "replaces" not in item["required"]


def test_replaces_is_checked_and_never_crashes():
    def decision(replaces):
        got, problems = answer.validate({"decisions": [{"summary": NEW, "replaces": replaces}], "failures": [],
                                         "learnings": [], "handoff": []})
        return got["decisions"][0].get("replaces"), problems

    assert decision([OLD_ID]) == ([OLD_ID], [])
    assert decision(OLD_ID) == ([OLD_ID], ["decisions[0]: replaces: a str instead of a list, taken as one item"])
    kept, problems = decision(["d-00000001", "d-00000002", "d-00000003", "d-00000004", "d-00000001"])
    assert kept == ["d-00000001", "d-00000002", "d-00000003"]
    assert problems == ["decisions[0]: replaces: 4 ids, kept 3"]
    kept, problems = decision(["f-00000001", "use cents", 7, None, {"id": OLD_ID}, OLD_ID])
    assert kept == [OLD_ID]
    assert problems == ["decisions[0]: replaces: 5 not a decision id, dropped: 'f-00000001', 'use cents', a int ..."]
    assert decision(12) == (None, ["decisions[0]: replaces: a int instead of a list, ignored"])
    assert decision(None) == (None, [])  # absent or null: the key is left out, as before
    assert decision([]) == (None, [])


def test_a_decision_past_the_cap_written_held_replaces_nothing():
    many = [{"summary": f"decision {n}"} for n in range(answer.LIMITS["decisions"])]
    got, _ = answer.validate({"decisions": [*many, {"summary": NEW, "replaces": [OLD_ID]}], "failures": [],
                              "learnings": [], "handoff": []})
    [(section, item)] = got[answer.OVER_CAP]
    assert section == "decisions" and item["summary"] == NEW and "replaces" not in item


def test_lh_distill_writes_the_mark_once_and_its_output_shows_it(isolated_home, tmp_path, monkeypatch):
    enable_loop(isolated_home, retry_backoff_seconds=0)
    project = tmp_path / "proj"
    project.mkdir()
    mdir = paths.memory_dir(str(project))
    store.persist({"decisions": [{"summary": OLD}]}, mdir, paths.learnings_dir(),
                  {"project": "proj", "session_id": "early", "task_id": "t-0", "cwd": str(project)}, 1_700_000_000.0)
    fake_claude.use(tmp_path, monkeypatch, answer={
        **fake_claude.DEFAULT_ANSWER, "decisions": [{"summary": NEW, "replaces": [OLD_ID, "d-00000000"]}]})
    payload = place(project)

    dry = invoke("distill", payload["transcript_path"], "--dry-run")
    assert dry.code == 0, dry.err
    assert f"- [{OLD_ID}] {OLD}" in dry.out  # the prompt the model would get
    assert not os.path.exists(os.path.join(mdir, "marks.jsonl"))

    done = invoke("distill", payload["transcript_path"])
    assert done.code == 0, done.err
    marks_path = os.path.join(mdir, "marks.jsonl")
    assert f"  replace {marks_path}  {OLD_ID} by {NEW_ID}: {OLD}" in done.out.splitlines()
    assert "  answer: replaces: no live decision d-00000000 in this project's memory; ignored" in done.out
    with open(marks_path) as fh:
        [mark] = [json.loads(line) for line in fh]
    assert (mark["op"], mark["id"], mark["by"]) == ("supersede", OLD_ID, NEW_ID)

    again = invoke("distill", payload["transcript_path"], "--whole")  # handoff-now, a retry: the same session
    assert again.code == 0, again.err
    assert f"{OLD_ID} already replaced by {NEW_ID}" in again.out
    with open(marks_path) as fh:
        assert len(fh.readlines()) == 1
