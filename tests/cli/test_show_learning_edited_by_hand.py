"""``lh memory show`` says which learning was edited by hand since it was written, as it says of a
decision or failure: a session's later text of the same title is written beside such a learning and does
not replace it (ADR 0063), so the person saw one title twice with nothing telling them apart."""

import time

from lazy_harness import paths
from lazy_harness.memory.learnings import text_key
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()
TITLE = "Rotate logs before a load test"


def _line(out: str, lid: str) -> str:
    [line] = [ln for ln in out.splitlines() if ln.strip().startswith(lid + " ")]
    return line


def _write(root: str, text: str, slug: str, edit_to: str | None = None) -> str:
    path = ms.write_learning(paths.learnings_dir(), TITLE, "proj", NOW - 60, slug=slug, learning=text,
                             scope="project", text_digest=text_key(text), origin_session=f"sess-{slug}",
                             id="l-" + slug * 8)
    if edit_to is not None:
        with open(path, encoding="utf-8") as fh:
            body = fh.read()
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(body.replace(text, edit_to))
    listed = invoke("memory", "held", "--project", root)
    assert listed.code == 0, listed.err
    from lazy_harness.memory import frontmatter, ids

    with open(path, encoding="utf-8") as fh:
        return ids.of_learning(frontmatter.parse_frontmatter(fh.read())[0], path=path)


def test_a_learning_edited_by_hand_is_tagged_and_the_other_text_is_not(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    edited = _write(root, "A load test writes gigabytes of logs.", "a",
                    edit_to="A load test writes gigabytes of logs; ours wrote 40 GB in 12 minutes.")
    written = _write(root, "Rotate hourly during a load test, not daily.", "b")
    out = invoke("memory", "show", "--section", "learnings", "--project", root)
    assert out.code == 0, out.err
    assert _line(out.out, edited).endswith("[edited by hand since it was written]"), out.out
    assert "edited by hand" not in _line(out.out, written), out.out


def test_a_learning_written_before_its_digest_is_not_said_to_be_edited(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    path = ms.write_learning(paths.learnings_dir(), TITLE, "proj", NOW - 60, slug="old", scope="project",
                             learning="Rotate logs first.")
    out = invoke("memory", "show", "--section", "learnings", "--project", root)
    assert out.code == 0, out.err
    assert path and "edited by hand" not in out.out, out.out
