"""A hand edit of handoff.md saved while a writer renders it (after its last read, before its rename) is
kept: the writer sees the file changed at the rename, reads it again and renders again; it never writes
over the person's save. Also ``atomic_write(unchanged=...)``, the check it relies on."""

import os

import pytest

from lazy_harness import atomic, logfile, paths
from lazy_harness.memory import files, handoff, handoff_answer, handoff_markdown, store
from tests.support import pausing

NOW = 1_760_000_000.0
S1 = {"project": "proj", "session_id": "sess-1", "task_id": "1760000000000000000-ab12", "cwd": "/x/proj"}
S2 = {**S1, "session_id": "sess-2", "task_id": "1760000060000000000-cd34"}


def editor_save(path: str, text: str) -> None:
    """What an editor does: write a temp file beside the target, rename it over the target."""
    tmp = path + ".swp~"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(tmp, path)


def hand_edit(md: str, delete: str, add: str) -> None:
    """Delete the item line holding ``delete`` (and its note), add a ``- add`` line."""
    lines = open(md, encoding="utf-8").read().split("\n")
    kept, skip = [], False
    for line in lines:
        if line.startswith("- ") and delete in line:
            skip = True
            continue
        if skip and line.startswith("  "):
            continue
        skip = False
        kept.append(line)
    editor_save(md, "\n".join(kept).rstrip("\n") + f"\n- {add}\n")


def open_texts(mdir: str) -> list[str]:
    return sorted(i["text"] for i in handoff.open_items(handoff.load(mdir)[0]))


def md_texts(mdir: str) -> list[str]:
    """The item texts handoff.md on disk lists."""
    text = open(os.path.join(mdir, files.HANDOFF), encoding="utf-8").read()
    return sorted(body for _, _, body, _ in handoff_markdown.parse_markdown(text)[1])


def distilled(items: list[str]) -> dict:
    return {"decisions": [], "failures": [], "learnings": [], "handoff": items}


@pytest.fixture
def mdir(tmp_path) -> str:
    project = tmp_path / "proj"
    project.mkdir()
    return paths.memory_dir(str(project))


def test_worker_persist_keeps_an_edit_saved_during_its_render(mdir, monkeypatch):
    store.persist(distilled(["alpha task one", "bravo task two"]), mdir, paths.learnings_dir(), S1, NOW)
    md = os.path.join(mdir, files.HANDOFF)
    rendered = pausing.pause(monkeypatch, handoff, "atomic_write", "worker", target=md)  # read, rendered, not written
    worker = pausing.run("worker", store.persist, distilled(["charlie from session two"]), mdir,
                         paths.learnings_dir(), S2, NOW + 60)
    rendered.wait()
    hand_edit(md, "alpha task one", "delta typed by hand")
    rendered.go()
    report = worker.join()
    want = ["bravo task two", "charlie from session two", "delta typed by hand"]
    assert open_texts(mdir) == want
    assert md_texts(mdir) == want  # rendered again, with the edit
    assert (report.handoff, report.opened, report.hand_opened, report.hand_closed) == ("written", 1, 1, 1)
    assert not [n for n in os.listdir(mdir) if n.endswith(".tmp")]


def test_close_items_keeps_an_edit_saved_during_its_render(mdir):
    handoff_answer.apply_answer(mdir, ["alpha task one", "bravo task two"], [], S1, NOW, NOW)
    bravo = next(i["id"] for i in handoff.open_items(handoff.load(mdir)[0]) if i["text"] == "bravo task two")
    md = os.path.join(mdir, files.HANDOFF)
    mp = pytest.MonkeyPatch()
    try:
        rendered = pausing.pause(mp, handoff, "atomic_write", "closer", target=md)
        closer = pausing.run("closer", handoff.close_items, mdir, [(bravo, "done")],
                             {"session_id": "by hand", "task_id": "r1"}, NOW + 60)
        rendered.wait()
        hand_edit(md, "alpha task one", "delta typed by hand")
        rendered.go()
        closer.join()
    finally:
        mp.undo()
    assert open_texts(mdir) == ["delta typed by hand"]
    assert md_texts(mdir) == ["delta typed by hand"]


def test_a_file_that_keeps_changing_is_never_written_over(mdir, monkeypatch):
    """An editor saving at every try: the writer gives up after its tries, says so in the log, and leaves
    the person's last save in place; the items are all in the log, and read back from it and the file."""
    handoff_answer.apply_answer(mdir, ["alpha task one"], [], S1, NOW, NOW)
    md = os.path.join(mdir, files.HANDOFF)
    real = handoff.atomic_write
    saves = []

    def edit_first(path, *a, **k):
        if path == md:
            saves.append(f"typed by hand {len(saves)}")
            hand_edit(md, "no such line", saves[-1])
        return real(path, *a, **k)

    monkeypatch.setattr(handoff, "atomic_write", edit_first)
    handoff_answer.apply_answer(mdir, ["bravo from session two"], [], S2, NOW + 60, NOW + 60)
    last = open(md, encoding="utf-8").read()
    assert len(saves) == handoff.RENDER_TRIES  # read again and rendered again each time, then left
    assert f"- {saves[-1]}\n" in last and "bravo from session two" not in last
    assert open_texts(mdir) == sorted(["alpha task one", "bravo from session two", *saves])
    log = open(logfile.log_path(logfile.WORKER), encoding="utf-8").read()
    assert md in log and "changed" in log


def test_atomic_write_refuses_a_target_replaced_since_it_was_read(tmp_path):
    folder = tmp_path / "d"
    path = str(folder / "f.md")
    atomic.atomic_write(path, "ours\n")
    seen = atomic.file_key(path)
    editor_save(path, "theirs\n")
    with pytest.raises(atomic.FileChanged):
        atomic.atomic_write(path, "ours again\n", unchanged=seen)
    assert open(path).read() == "theirs\n"
    assert os.listdir(folder) == ["f.md"]  # the temp file is gone
    atomic.atomic_write(path, "ours again\n", unchanged=atomic.file_key(path))
    assert open(path).read() == "ours again\n"


def test_atomic_write_unchanged_tells_a_missing_file_from_a_created_one(tmp_path):
    path = str(tmp_path / "new.md")
    missing = atomic.file_key(path)
    editor_save(path, "created meanwhile\n")
    with pytest.raises(atomic.FileChanged):
        atomic.atomic_write(path, "ours\n", unchanged=missing)
    assert open(path).read() == "created meanwhile\n"
    os.unlink(path)
    atomic.atomic_write(path, "ours\n", unchanged=missing)
    assert open(path).read() == "ours\n"
