"""``lh memory close`` says what it closed on one line, the item's text as ``lh memory show`` prints
it: a text holding a line break or terminal control characters (a handoff.jsonl synced from another
machine, or written by hand) was echoed raw, the message split over two lines and an escape sequence
sent to the person's terminal (the window title set, here)."""

import json
import os
import time

from lazy_harness import logfile, paths
from lazy_harness.memory import handoff
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

TEXT = "Evil \x1b]0;pwned\x07 title\nsecond line"


def test_close_echoes_the_items_text_on_one_safe_line(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    os.makedirs(mdir, exist_ok=True)
    rec = {"op": "open", "id": "h-0000bbbb", "text": TEXT, "session_id": "s-9", "task_id": "t-9",
           "ts": logfile.stamp(time.time() - 60)}
    with open(os.path.join(mdir, handoff.STATE), "a", encoding="utf-8") as fh:
        fh.write(json.dumps(rec) + "\n")
    r = invoke("memory", "close", "h-0000bbbb", "--project", root)
    assert r.code == 0, r.err
    assert r.out.count("\n") == 1, r.out
    assert "\x1b" not in r.out and "\x07" not in r.out, repr(r.out)
    assert r.out.startswith("closed h-0000bbbb: Evil \\u001b]0;pwned\\u0007 title second line (undo: "), repr(r.out)
    assert "h-0000bbbb" not in {i["id"] for i in handoff.open_items(handoff.load(mdir)[0])}
