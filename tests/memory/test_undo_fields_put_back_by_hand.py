"""``lh memory undo`` of a forget of a learning whose status fields the person has already put back by
hand (the frontmatter as before the forget, a body line edited too): nothing is left to put back, so the
run is undone and the edit kept. It was refused as "changed since run; left as it is" at every try,
with the hint to put the file back as the run left it (forget it again by hand) to undo the run: the
run stayed in ``lh memory history`` as one to undo, forever."""

import re
import time

from lazy_harness import paths
from lazy_harness.memory import journal
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()


def test_undo_of_a_forget_whose_fields_the_person_put_back_is_done_and_keeps_the_edit(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    path = ms.write_learning(paths.learnings_dir(), "Pin the invoice renderer", "proj", NOW - 60, slug="pin",
                             learning="Pin weasyprint.", scope="project", project_folder=paths.project_key(root))
    with open(path, encoding="utf-8") as fh:
        before = fh.read()
    [lid] = re.findall(r"l-[0-9a-f]{8}", invoke("memory", "search", "invoice", "--project", root).out)
    forgot = invoke("memory", "forget", lid, "--project", root)
    assert forgot.code == 0, forgot.err
    # the person takes the forget back in the editor and adds a detail
    edited = before.replace("Pin weasyprint.", "Pin weasyprint to 61.2; 62 breaks the fonts.")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(edited)
    done = invoke("memory", "undo", "--project", root)
    assert done.code == 0, (done.out, done.err)
    assert done.out.startswith("undid ") and done.err == ""
    with open(path, encoding="utf-8") as fh:
        assert fh.read() == edited  # the person's file, byte for byte
    [run] = journal.runs(paths.memory_dir(root))
    assert run["undone"]
    again = invoke("memory", "undo", "--project", root)
    assert again.code == 1 and "nothing to undo" in again.err
    assert lid in invoke("memory", "search", "invoice", "--project", root).out
    assert "[forgotten]" not in invoke("memory", "search", "invoice", "--project", root).out
