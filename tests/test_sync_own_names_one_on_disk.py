"""Two project folders of this machine that differ only in case (``-home-me-Shop`` and
``-home-me-shop``: a Linux machine keeps ``~/Shop`` and ``~/shop`` apart by path): pushed, every other
machine refuses the remote (the pair is one folder on macOS and Windows) until one is renamed there.
The round that would push them refuses on the machine that made them, naming both folders and what to
do; the remote never gets the pair, and the other machines' rounds go on (docs/how/sync.md, "Names one
disk takes for one"). Real git, machine homes, one bare remote on disk (``tests.test_sync.Machine``)."""

import json
import unicodedata
from pathlib import Path

import pytest

from lazy_harness import sync
from lazy_harness.sync import bounds
from tests.test_sync import Machine, _git

LINE = {"id": "d-00000001", "type": "decision", "summary": "Use a file queue"}


@pytest.fixture
def two(tmp_path):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", "-b", "main", str(remote))
    return Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")


def _folder(m: Machine, key: str, summary: str) -> Path:
    folder = m.data / "projects" / key
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "decisions.jsonl", "a", encoding="utf-8") as fh:
        fh.write(json.dumps({**LINE, "summary": summary}) + "\n")
    return folder


def _held(remote: Path) -> str:
    return _git("ls-tree", "-r", "--name-only", "main", cwd=remote)


def test_two_folders_that_differ_in_case_are_not_pushed_and_both_are_named(two):
    a, b = two
    a.add("decision", "Use a file queue")
    b.add("decision", "Made on b")
    b.sync()
    _folder(a, "-home-me-Shop", "Shop's decision")
    _folder(a, "-home-me-shop", "shop's decision")
    with pytest.raises(sync.SyncError) as exc:
        a.sync()
    said, hint = exc.value.message, exc.value.hint or ""
    assert "'projects/-home-me-Shop'" in said and "'projects/-home-me-shop'" in said, said
    assert "differ only in case" in said and "nothing pushed" in said and "\n" not in said, said
    assert "rename" in hint and "lh memory path" in hint, hint
    assert "-home-me-Shop" in sync.status(a.cfg, a.env)["last_error"]
    remote = Path(a.cfg["sync"]["remote"])
    assert "shop" not in _held(remote).lower()
    assert "Made on b" in (a.mdir / "decisions.jsonl").read_text()  # the merge went on
    for key in ("-home-me-Shop", "-home-me-shop"):  # nothing lost here
        assert (a.data / "projects" / key / "decisions.jsonl").exists()
    b.add("decision", "Made on b later")
    b.sync()  # the other machine goes on
    (a.data / "projects" / "-home-me-shop").rename(a.data / "projects" / "-home-me-shop-2")
    assert a.sync()["pushed"]
    b.sync()
    assert (b.data / "projects" / "-home-me-shop-2" / "decisions.jsonl").exists()
    assert (b.data / "projects" / "-home-me-Shop" / "decisions.jsonl").exists()


def test_a_folder_made_in_another_case_of_one_on_the_remote_is_not_pushed(two):
    a, _ = two
    _folder(a, "-home-me-shop", "shop's decision")
    a.sync()
    _folder(a, "-home-me-Shop", "Shop's decision")
    with pytest.raises(sync.SyncError, match="differ only in case"):
        a.sync()
    assert "-home-me-Shop" not in _held(Path(a.cfg["sync"]["remote"]))


def test_a_pull_alone_is_not_refused(two):
    """SessionStart's pull pushes nothing: the pair stops only the round that would push it."""
    a, _ = two
    a.add("decision", "Use a file queue")
    a.sync()
    _folder(a, "-home-me-Shop", "Shop's decision")
    _folder(a, "-home-me-shop", "shop's decision")
    a.sync(push=False)


def test_two_folders_that_differ_in_normalisation_are_named_so_one_can_tell_them_apart(two):
    """``café`` typed on two keyboards: one é, or e and a combining accent. Printed as they are, the two
    names in the refusal read the same, and the person cannot tell which one to rename."""
    a, _ = two
    composed, decomposed = (unicodedata.normalize(form, "-home-me-café") for form in ("NFC", "NFD"))
    _folder(a, composed, "composed")
    _folder(a, decomposed, "decomposed")
    with pytest.raises(sync.SyncError) as exc:
        a.sync()
    said = exc.value.message
    assert "-home-me-caf\\xe9" in said and "-home-me-cafe\\u0301" in said and "\n" not in said, said


def _pushed_by_hand(m: Machine) -> None:
    """What an older version did: commit everything and push it, no pair check."""
    _git("add", "-A", cwd=m.data)
    _git("-c", "user.name=x", "-c", "user.email=x@x", "commit", "-q", "-m", "older version", cwd=m.data)
    _git("push", "-q", "origin", "HEAD:refs/heads/main", cwd=m.data)


def test_a_pair_the_remote_holds_already_does_not_stop_this_machines_pushes(two):
    """An older version pushed the pair. Each later file under one of them is no new pair: the round that
    would push it is not refused (the other machines' refusal of the remote names the pair)."""
    a, _ = two
    a.add("decision", "Use a file queue")
    a.sync()
    _folder(a, "-home-me-Shop", "Shop's decision")
    _folder(a, "-home-me-shop", "shop's decision")
    _pushed_by_hand(a)
    a.sync()
    failures = a.data / "projects" / "-home-me-shop" / "failures.jsonl"
    failures.write_text(json.dumps({"id": "f-00000001", "type": "failure", "summary": "Flaky"}) + "\n")
    _folder(a, "-home-me-Shop", "Shop's later decision")
    assert a.sync()["pushed"]
    held = _held(Path(a.cfg["sync"]["remote"]))
    assert "projects/-home-me-shop/failures.jsonl" in held
    _folder(a, "-home-me-SHOP", "a third one")  # a new name beside the old pair is refused all the same
    with pytest.raises(sync.SyncError, match="-home-me-SHOP"):
        a.sync()


def test_a_merge_into_a_pair_this_machine_holds_already_is_not_refused():
    """The merge's side of the one rule: a machine holding both names (a Linux one) merges a file another
    machine added under one of them; a name new to it is refused as before."""
    ours = {"projects/-a-Shop/decisions.jsonl", "projects/-a-shop/decisions.jsonl"}
    assert bounds.one_on_disk(ours, ours | {"projects/-a-shop/failures.jsonl"}) is None
    assert bounds.one_on_disk(ours, ours | {"projects/-a-SHOP/decisions.jsonl"}) is not None


def test_the_hint_of_a_pair_that_differs_in_normalisation_alone_says_so(two):
    a, _ = two
    composed, decomposed = (unicodedata.normalize(form, "-home-me-café") for form in ("NFC", "NFD"))
    _folder(a, composed, "composed")
    _folder(a, decomposed, "decomposed")
    with pytest.raises(sync.SyncError) as exc:
        a.sync()
    said, hint = exc.value.message, exc.value.hint or ""
    assert "in case" not in said and "than case" not in hint, (said, hint)
    assert "differ only in Unicode normalisation" in said and "normalisation" in hint, (said, hint)


def test_the_hint_of_a_pair_that_differs_in_case_alone_says_case(two):
    a, _ = two
    _folder(a, "-home-me-Shop", "Shop's decision")
    _folder(a, "-home-me-shop", "shop's decision")
    with pytest.raises(sync.SyncError) as exc:
        a.sync()
    assert "differ only in case" in exc.value.message and "normalisation" not in exc.value.message
    assert "in more than case" in (exc.value.hint or "")
