"""Two first reads of approvals at once (two sessions started together, prompts in parallel) keep the
approvals made before the upgrade (ADR 0052). The reader that adopted made the key; the other, which
had read no adopted file yet, took that key for one copied from another machine, adopted nothing, and
its write landed last: every approval from before the upgrade was held from then on (the recall
evaluation lost 5 of its 97 hits to it under load)."""

import json
import os
import threading
import time

from lazy_harness import atomic, paths
from lazy_harness.memory import approval, approval_key, held, ids, marks
from tests.support import memory_samples as ms

RULE = "Pin the build image by digest in every project"


def _approved_before_the_upgrade(tmp_path) -> tuple[str, str]:
    root = ms.make_project(str(tmp_path), "proj")
    mdir = paths.memory_dir(root)
    rec = ms.decision(time.time() - 60, RULE, "reproducible builds", id=ids.entry_id("decision", RULE))
    ms.write_jsonl(os.path.join(mdir, "decisions.jsonl"), [rec])
    with open(marks.path_of(mdir), "w", encoding="utf-8") as fh:  # as an older version wrote it: no mac
        fh.write(json.dumps({"op": "approve", "id": rec["id"], "reason": "approved by hand", "run": "r"}) + "\n")
    return mdir, rec["id"]


def test_a_second_first_read_waits_for_the_first_and_keeps_its_adoption(isolated_home, tmp_path, monkeypatch):
    mdir, eid = _approved_before_the_upgrade(tmp_path)
    root = os.path.dirname(mdir)
    first_writing, second_ready = threading.Event(), threading.Event()
    let_first_write, let_second_write = threading.Event(), threading.Event()
    real_write, real_lock = atomic.atomic_write, getattr(approval, "_adoption_lock", None)

    def paused_write(path, *args, **kwargs):
        if path == approval_key.adopted_file():
            if threading.current_thread().name == "first":
                first_writing.set()  # the key is made, the adopted file not written yet
                assert let_first_write.wait(30)
            else:
                second_ready.set()  # it read no adopted file and is about to write its own
                assert let_second_write.wait(30)
        return real_write(path, *args, **kwargs)

    def lock_seen(path):
        if threading.current_thread().name == "second":
            second_ready.set()  # it waits for the first reader's adoption
        return real_lock(path)

    monkeypatch.setattr(atomic, "atomic_write", paused_write)
    monkeypatch.setattr(approval, "_adoption_lock", lock_seen, raising=False)
    first = threading.Thread(target=approval.adopt_once, args=((root,), ()), name="first")
    second = threading.Thread(target=approval.adopt_once, args=((root,), ()), name="second")
    first.start()
    assert first_writing.wait(30)
    assert os.path.exists(approval_key.key_file())  # made by the first reader for the approvals it found
    second.start()
    assert second_ready.wait(30)
    let_first_write.set()
    first.join(30)
    let_second_write.set()
    second.join(30)
    assert not first.is_alive() and not second.is_alive()
    with open(approval_key.adopted_file(), encoding="utf-8") as fh:
        adopted = json.load(fh)
    assert adopted["key_was_here"] is False and len(adopted["macs"]) == 1, adopted
    assert eid in held.approved(mdir)


def test_a_reader_that_cannot_have_the_lock_reads_on_and_the_next_one_adopts(isolated_home, tmp_path, monkeypatch):
    mdir, eid = _approved_before_the_upgrade(tmp_path)
    monkeypatch.setattr(approval, "ADOPT_WAIT", 0.05)
    os.makedirs(paths.state_dir(), exist_ok=True)
    fd = atomic.try_lock(approval_key.adopted_file() + ".lock")  # another reader, stuck in its adoption
    assert fd is not None
    try:
        approval.adopt_once((os.path.dirname(mdir),), ())
        assert not os.path.exists(approval_key.adopted_file())
        assert not os.path.exists(approval_key.key_file())  # nothing decided for it: a later read adopts
    finally:
        os.close(fd)
    assert eid in held.approved(mdir)
