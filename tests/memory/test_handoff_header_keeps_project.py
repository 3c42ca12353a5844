"""handoff.md's header names its project (``project=``, which the cost ledger and a person read). A
writer that knows no project (a sync round's render after a merge, an undo, an approval, a migration)
keeps the project the last render named, not an empty one."""

import json
import os

from lazy_harness.memory import handoff, handoff_answer, handoff_markdown
from lazy_harness.sync.after_merge import rerender_handoffs

NOW = 1_760_000_000.0


def _project_in_header(mdir: str) -> str:
    with open(os.path.join(mdir, "handoff.md"), encoding="utf-8") as fh:
        return str(handoff_markdown.parse_markdown(fh.read())[0].get("project"))


def test_a_render_without_a_project_keeps_the_one_the_header_named(tmp_path):
    mdir = str(tmp_path / "memory")
    os.makedirs(mdir)
    meta = {"project": "shop", "session_id": "s1", "task_id": "t1"}
    handoff_answer.apply_answer(mdir, ["wire the refund webhook"], [], meta, NOW, NOW)
    assert _project_in_header(mdir) == "shop"
    with open(os.path.join(mdir, handoff.STATE), "a", encoding="utf-8") as fh:  # a merge brought a record
        fh.write(json.dumps(handoff.record("open", "rotate the API key", "s2", "t2", NOW + 5)) + "\n")
    rerender_handoffs(str(tmp_path), ["memory/handoff.jsonl"], NOW + 10)
    with open(os.path.join(mdir, "handoff.md"), encoding="utf-8") as fh:
        assert "rotate the API key" in fh.read()  # rendered again
    assert _project_in_header(mdir) == "shop"
    handoff.write_markdown(mdir, {"session_id": "approve", "task_id": ""}, NOW + 20)
    assert _project_in_header(mdir) == "shop"
