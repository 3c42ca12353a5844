"""``lh memory close`` renders handoff.md with the project's name in its header (``project=``), as the
worker's persist writes it: the close wrote ``project=`` empty, and the page and ``lh memory path`` read
the folder's name from that header (memory/folder_names.py ``handoff_name``)."""

import json
import os
import time

from lazy_harness import logfile, paths
from lazy_harness.memory import files, folder_names, handoff, handoff_markdown
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms


def _open(mdir: str, hid: str, text: str) -> None:
    os.makedirs(mdir, exist_ok=True)
    rec = {"op": "open", "id": hid, "text": text, "session_id": "s-9", "task_id": "t-9",
           "ts": logfile.stamp(time.time() - 60)}
    with open(os.path.join(mdir, handoff.STATE), "a", encoding="utf-8") as fh:
        fh.write(json.dumps(rec) + "\n")


def test_close_writes_the_projects_name_in_the_handoff_header(tmp_path):
    root = ms.make_project(tmp_path, "billing api")
    mdir = paths.memory_dir(root)
    _open(mdir, "h-0000aaaa", "Ship the invoice export")
    _open(mdir, "h-0000bbbb", "Check the tax rounding")
    r = invoke("memory", "close", "h-0000bbbb", "--project", root)
    assert r.code == 0, r.err
    with open(os.path.join(mdir, files.HANDOFF), encoding="utf-8") as fh:
        text = fh.read()
    marker = handoff_markdown.parse_markdown(text)[0]
    assert marker.get("project") == "billing api", text.splitlines()[1]
    assert marker.get("ids") == "h-0000aaaa", text  # the close's own render wrote it
    assert folder_names.handoff_name(mdir) == "billing api"
