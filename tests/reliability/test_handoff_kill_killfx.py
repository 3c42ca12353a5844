"""The person's forget or close of a handoff item next to a killed writer (tests/support/crashpoint.py).

- A worker killed inside its persist leaves it unfinished (its undo record in the intents folder); a
  forget or close made then must either fail or hold: the next worker must not reopen the item.
- A close killed between its close record (handoff.jsonl) and the render of handoff.md: the retry
  must leave handoff.md showing the log's open items, not the closed one.
"""

import os
import sys

import pytest

from lazy_harness import paths
from lazy_harness.errors import LhError
from lazy_harness.memory import by_hand, files, handoff, intent, store
from tests.memory.test_store import META, NOW, answer
from tests.support import crashpoint

ITEM = "finish the docs"

PERSIST = """
import sys
from lazy_harness.memory import store
from tests.memory.test_store import META, NOW, answer
from tests.support import crashpoint
crashpoint.arm(int(sys.argv[3]))
store.persist(answer(handoff=(sys.argv[4],)), sys.argv[1], sys.argv[2], META, NOW)
crashpoint.finished()
"""

BY_HAND = """
import sys
from lazy_harness.memory import by_hand
from tests.memory.test_store import NOW
from tests.support import crashpoint
mdir, ldir, k, what, hid = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
crashpoint.arm(k)
if what == "close":
    by_hand.close(mdir, "proj", hid, "done", NOW + 60)
else:
    by_hand.forget(mdir, ldir, "proj", hid, "not needed", NOW + 60)
crashpoint.finished()
"""


def _open_ids(mdir: str) -> dict[str, str]:
    state, _ = handoff.load(mdir)
    return {i["text"]: i["id"] for i in handoff.open_items(state)}


def _person(what: str, mdir: str, ldir: str, hid: str) -> str | None:
    """The person's forget or close; the error it printed, or None when it said it worked."""
    try:
        if what == "close":
            by_hand.close(mdir, "proj", hid, "done", NOW + 60)
        else:
            by_hand.forget(mdir, ldir, "proj", hid, "not needed", NOW + 60)
    except LhError as exc:
        return str(exc)
    return None


def _unfinished() -> bool:
    folder = paths.persist_intents_dir()
    return os.path.isdir(folder) and bool(os.listdir(folder))


def test_a_forget_or_close_during_a_killed_persist_fails_or_holds(tmp_path):
    ldir = paths.learnings_dir()
    acted = {"forget": 0, "close": 0}
    for k in range(1, 300):
        project = tmp_path / f"p{k}"
        project.mkdir()
        mdir = paths.memory_dir(str(project))
        said = crashpoint.run_to([sys.executable, "-c", PERSIST, mdir, ldir, str(k), ITEM])
        if said == "finished":
            break
        hid = _open_ids(mdir).get(ITEM)
        if hid is not None and _unfinished():  # the window: the item read from a persist not committed
            what = "close" if acted["close"] < acted["forget"] else "forget"
            acted[what] += 1
            error = _person(what, mdir, ldir, hid)
            assert error is None or "no open handoff item" in error, (k, what, error)
            intent.recover_all()  # the next worker: the persist rolled back, then the task again
            store.persist(answer(handoff=(ITEM,)), mdir, ldir, META, NOW)
            if error is None:
                assert ITEM not in _open_ids(mdir), f"k={k}: {what} said it worked, the next worker reopened it"
        intent.recover_all()
    else:
        raise AssertionError("the persist never finished")
    assert acted["forget"] and acted["close"], "never killed between the handoff append and the commit"


@pytest.mark.parametrize("what", ["close", "forget"])
def test_a_retry_after_a_kill_before_the_render_renders_handoff_md(tmp_path, what):
    ldir = paths.learnings_dir()
    stops = set()
    for k in range(1, 200):
        project = tmp_path / f"{what}{k}"
        project.mkdir()
        mdir = paths.memory_dir(str(project))
        store.persist(answer(handoff=(ITEM, "run the benchmark")), mdir, ldir, META, NOW)
        hid = _open_ids(mdir)[ITEM]
        said = crashpoint.run_to([sys.executable, "-c", BY_HAND, mdir, ldir, str(k), what, hid])
        _person(what, mdir, ldir, hid)  # the retry: done now, or told it is no longer open
        state, _ = handoff.load(mdir)
        assert ITEM not in _open_ids(mdir)
        assert not handoff.behind(mdir, state), f"k={k} ({said}): handoff.md does not show the log's open items"
        with open(os.path.join(mdir, files.HANDOFF), encoding="utf-8") as fh:
            assert f"[{hid}]" not in fh.read(), f"k={k} ({said}): handoff.md still lists the closed item"
        if said == "finished":
            break
        stops.add(said.split()[-1])
    else:
        raise AssertionError(f"the {what} never finished")
    assert "replace" in stops


@pytest.mark.parametrize("what", ["close", "forget"])
def test_a_close_that_closed_nothing_fails_and_journals_no_run(tmp_path, monkeypatch, what):
    """A persist killed after the command's catch-up and before its close: the close rolls it back and
    closes nothing; the command says the item is not open and leaves no run to undo."""
    from lazy_harness.memory import journal

    ldir = paths.learnings_dir()
    for k in range(1, 300):
        project = tmp_path / f"p{k}"
        project.mkdir()
        mdir = paths.memory_dir(str(project))
        said = crashpoint.run_to([sys.executable, "-c", PERSIST, mdir, ldir, str(k), ITEM])
        assert said != "finished", "never killed between the handoff append and the commit"
        hid = _open_ids(mdir).get(ITEM)
        if hid is not None and _unfinished():
            break
        intent.recover_all()
    monkeypatch.setattr(by_hand, "_caught_up", lambda memory_dir, project, now: None)  # the persist came after it
    error = _person(what, mdir, ldir, hid)
    assert error is not None and "no open handoff item" in error
    assert journal.runs(mdir) == []
    store.persist(answer(handoff=(ITEM,)), mdir, ldir, META, NOW)
    assert ITEM in _open_ids(mdir)  # the task's item, as the failed command left it
