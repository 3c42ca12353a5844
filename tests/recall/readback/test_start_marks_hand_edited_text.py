"""SessionStart marks a learning edited by hand when another text of its title is shown beside it, as
``lh memory show`` tags it: a session's later text of the title is written beside a hand-edited one and
does not replace it (ADR 0063), and the start showed the two texts with nothing telling them apart."""

import os
import time

from lazy_harness import config, paths
from lazy_harness.memory import files
from lazy_harness.memory.learnings import text_key
from lazy_harness.recall.readback import digest
from tests.support import memory_samples as ms

NOW = time.time()
TITLE = "Rotate logs before a load test"
EDITED = "edited by hand since it was written"


def _write(text: str, slug: str, edit_to: str | None = None, title: str = TITLE) -> str:
    path = ms.write_learning(paths.learnings_dir(None, os.environ), title, "proj", NOW - 60, slug=slug,
                             learning=text, text_digest=text_key(text),
                             origin_session=f"sess-{slug}", id="l-" + slug * 8)
    if edit_to is not None:
        with open(path, encoding="utf-8") as fh:
            body = fh.read()
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(body.replace(text, edit_to))
    return path


def _learning_lines(tmp_path) -> list[str]:
    project = ms.make_project(tmp_path, "proj")
    ms.write_jsonl(os.path.join(paths.memory_dir(project, os.environ), files.DECISIONS),
                   [ms.decision(NOW, "ship one binary", "simpler installs", project="proj")])
    values = config.defaults()
    text, _ = digest.build_context(project, values, os.environ, NOW, "startup")
    return [ln for ln in text.splitlines() if ln.startswith("- learning ")]


def test_the_hand_edited_text_of_a_title_shown_twice_is_marked(tmp_path):
    _write("A load test writes gigabytes of logs.", "a",
           edit_to="A load test writes gigabytes of logs; ours wrote 40 GB in 12 minutes.")
    _write("Rotate hourly during a load test, not daily.", "b")
    shown = _learning_lines(tmp_path)
    [edited] = [ln for ln in shown if "l-aaaaaaaa" in ln]
    [written] = [ln for ln in shown if "l-bbbbbbbb" in ln]
    assert EDITED in edited, shown
    assert EDITED not in written, shown


def test_a_hand_edit_of_a_title_shown_once_adds_nothing(tmp_path):
    _write("A load test writes gigabytes of logs.", "a", edit_to="A load test writes 40 GB of logs.")
    _write("Pin the driver version.", "c", title="Pin the database driver")
    shown = _learning_lines(tmp_path)
    assert len(shown) == 2 and not any(EDITED in ln for ln in shown), shown
