"""Two names of the remote that differ only in case (``Decisions.jsonl`` beside ``decisions.jsonl``,
two learnings ``2026-01-02-A.md`` and ``2026-01-02-a.md``, a project folder ``-home-me-App`` beside
``-home-me-app``) or only in Unicode normalisation (NFC and NFD of one name) are one file on a
case-insensitive or normalising disk (macOS, Windows): written there, one is written over the other.
The round refuses such a pair from the remote on every platform, by name, with one line naming both
(docs/how/sync.md, "Names one disk takes for one"). A pair this machine holds itself is left alone.
Real git, machine homes, one bare remote on disk, a plain clone that pushes the names."""

import unicodedata
from pathlib import Path

import pytest

from lazy_harness import sync
from tests.test_sync import KEY, Machine, _git
from tests.test_sync_remote_many_files import DECISION, LEARNING, _push_paths

CAFE = "2026-01-02-caf\u00e9.md"  # NFC: é one code point


@pytest.fixture
def remote(tmp_path) -> Path:
    path = tmp_path / "remote.git"
    _git("init", "-q", "--bare", "-b", "main", str(path))
    return path


@pytest.mark.parametrize(("first", "second"), [
    (f"projects/{KEY}/decisions.jsonl", f"projects/{KEY}/Decisions.jsonl"),
    ("knowledge/learnings/2026-01/2026-01-02-a.md", "knowledge/learnings/2026-01/2026-01-02-A.md"),
    (f"knowledge/learnings/2026-01/{CAFE}", f"knowledge/learnings/2026-01/{unicodedata.normalize('NFD', CAFE)}"),
    ("projects/-home-me-app/decisions.jsonl", "projects/-home-me-App/failures.jsonl"),
])
def test_a_pair_of_names_one_disk_takes_for_one_is_refused_naming_both(tmp_path, remote, first, second):
    a = Machine(tmp_path, remote, "a")
    a.add("decision", "Use a file queue")
    a.sync()
    _push_paths(tmp_path, remote, [first, second], blob_text=DECISION)
    a.add("decision", "Made here meanwhile")
    before = (a.mdir / "decisions.jsonl").read_bytes()
    with pytest.raises(sync.SyncError) as exc:
        a.sync()
    said = exc.value.message
    # both named, the folder where the folders differ
    one, two = (p if "-home-me-" not in p else p.rsplit("/", 1)[0] for p in (first, second))
    # names that differ in normalisation alone read the same printed: escaped, to tell which is which
    same = unicodedata.normalize("NFC", one) == unicodedata.normalize("NFC", two)
    how = "Unicode normalisation" if same else "case"
    assert "refused, nothing merged" in said and f"differ only in {how}, one " in said, said
    assert f"one {'folder' if '-home-me-' in first else 'file'} on a case-insensitive" in said, said
    assert (ascii if same else repr)(one) in said and (ascii if same else repr)(two) in said, said
    assert (a.mdir / "decisions.jsonl").read_bytes() == before
    assert not (a.data / "knowledge" / "learnings").exists() and not (a.data / "projects" / "-home-me-app").exists()
    _push_paths(tmp_path, remote, [], gone=second)  # one of them deleted on the remote: the rounds go on
    assert a.sync()["pushed"]


def test_the_remote_bringing_a_name_this_machine_holds_in_another_case_is_refused(tmp_path, remote):
    a = Machine(tmp_path, remote, "a")
    a.add("decision", "Use a file queue")
    a.sync()
    _push_paths(tmp_path, remote, [f"projects/{KEY}/Decisions.jsonl"], blob_text=DECISION)
    with pytest.raises(sync.SyncError, match="differ only in case"):
        a.sync()
    assert not (a.mdir / "Decisions.jsonl").exists()


def test_a_name_renamed_to_another_case_on_the_remote_merges(tmp_path, remote):
    """The remote took the old name out as it brought the new one: no pair in what the merge makes."""
    a = Machine(tmp_path, remote, "a")
    a.sync()
    _push_paths(tmp_path, remote, ["knowledge/learnings/2026-01/2026-01-02-Retry.md"])
    a.sync()
    _push_paths(tmp_path, remote, [], gone="knowledge/learnings/2026-01/2026-01-02-Retry.md")
    _push_paths(tmp_path, remote, ["knowledge/learnings/2026-01/2026-01-02-retry.md"])
    a.sync()
    assert [p.name for p in (a.data / "knowledge" / "learnings" / "2026-01").iterdir()] == ["2026-01-02-retry.md"]


def test_a_pair_one_name_of_which_is_this_machines_own_says_so_and_a_rename_here_settles_it(tmp_path, remote):
    """A learning saved by hand on each machine, one as ``Retry``, one as ``retry``: the refusal said the
    remote held both and asked for a rename on the remote, which holds one; this machine's is renamed
    here, where the person is."""
    a, b = Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")
    a.add("decision", "Use a file queue")
    a.sync()
    b.sync()
    month = "knowledge/learnings/2026-01"
    for m, name in ((a, "2026-01-02-Retry.md"), (b, "2026-01-02-retry.md")):
        (m.data / month).mkdir(parents=True, exist_ok=True)
        (m.data / month / name).write_text(LEARNING.decode())
    b.sync()
    with pytest.raises(sync.SyncError) as exc:
        a.sync()
    said, hint = exc.value.message, exc.value.hint or ""
    assert f"the remote brings '{month}/2026-01-02-retry.md'" in said, said
    assert f"this machine holds '{month}/2026-01-02-Retry.md'" in said and "refused, nothing merged" in said, said
    assert f"rename this machine's '{month}/2026-01-02-Retry.md' in {a.data}" in hint, hint
    (a.data / month / "2026-01-02-Retry.md").rename(a.data / month / "2026-01-02-retry-kept.md")
    assert a.sync()["pushed"]
    b.sync()
    assert sorted(p.name for p in (b.data / month).iterdir()) == ["2026-01-02-retry-kept.md", "2026-01-02-retry.md"]
