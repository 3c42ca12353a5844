"""``last_key.read_record`` on SessionStart's path: the record a version before kept in the
profile's ``<queue>/state/keys`` is looked for with one call when it is gone, not with the folder
checks and a failed open of a record that is there; one still there is read and wins as before."""

import builtins
import os

import pytest

from lazy_harness import paths
from lazy_harness.memory import last_key
from tests.support import memory_samples as ms


@pytest.fixture
def calls(monkeypatch):
    """The paths under the profile's ``<queue>/state`` each file system call was given."""
    seen: list[tuple[str, str]] = []
    state = paths.state_dir()

    def counting(name, real):
        def call(path, *a, **kw):
            if isinstance(path, str) and (path == state or path.startswith(state + os.sep)):
                seen.append((name, path))
            return real(path, *a, **kw)
        return call

    for name in ("lstat", "stat", "listdir", "open", "access", "scandir"):
        monkeypatch.setattr(os, name, counting(name, getattr(os, name)))
    monkeypatch.setattr(builtins, "open", counting("open()", builtins.open))
    return seen


def _project(tmp_path) -> tuple[str, str]:
    root = ms.make_project(str(tmp_path / "w"), "api")
    last_key.remember_key(root, paths.memory_dir(root))
    return root, paths.last_key_file(root)


def test_a_record_kept_before_and_gone_costs_one_call(tmp_path, calls):
    root, path = _project(tmp_path)
    os.makedirs(paths.profile_records_dir("keys"))  # another project's old record may still be there
    calls.clear()
    assert last_key.read_record(path)[0] == os.path.basename(paths.memory_dir(root))
    assert len(calls) <= 1, calls


def test_no_folder_of_records_kept_before_costs_one_call(tmp_path, calls):
    root, path = _project(tmp_path)
    calls.clear()
    assert last_key.read_record(path)[0] == os.path.basename(paths.memory_dir(root))
    assert len(calls) <= 1, calls


def test_a_record_kept_before_naming_another_key_is_still_read_and_wins(tmp_path, calls):
    root, path = _project(tmp_path)
    old = os.path.join(paths.profile_records_dir("keys"), os.path.basename(path))
    os.makedirs(os.path.dirname(old))
    with open(old, "w", encoding="utf-8") as fh:
        fh.write(f"other-key\n{root}\n")
    assert last_key.read_record(path)[:2] == ("other-key", root)
    last_key.remember_key(root, paths.memory_dir(root))  # the machine's record stands for it now
    assert not os.path.lexists(old)
    assert last_key.read_record(path)[0] == os.path.basename(paths.memory_dir(root))
