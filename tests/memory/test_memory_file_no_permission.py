"""A memory file this user may not read (its mode changed, another user's file) was read as empty: its
entries were missing from every session, `lh memory show` and `search` without a word. Its readers now
name it: SessionStart in hooks.log (the other sections shown), the commands in one line, `lh doctor`.
why monkeypatched: the tests may run as root, whom no mode stops; the refusal is the kernel's EACCES."""

import os
import time

import pytest

from lazy_harness import config, paths
from lazy_harness.errors import LhError
from lazy_harness.memory import damage, files, lines
from lazy_harness.recall.readback import digest
from tests.support import memory_samples as ms

NOW = time.time()


@pytest.fixture
def denied(isolated_home, tmp_path, monkeypatch) -> tuple[str, str]:
    root = ms.make_project(str(tmp_path), "demo")
    mdir = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), [ms.decision(NOW - 900, "Pin the protobuf version")])
    ms.write_jsonl(os.path.join(mdir, files.FAILURES), [ms.failure(NOW - 800, "The nightly import timed out")])
    path = os.path.join(mdir, files.DECISIONS)
    opener = lines.open_regular

    def refuse(p: str):
        if p == path:
            raise PermissionError(13, "Permission denied", p)
        return opener(p)

    monkeypatch.setattr(lines, "open_regular", refuse)
    return root, path


def test_the_tail_of_a_file_that_cannot_be_opened_is_an_error_naming_it_not_empty(denied):
    _, path = denied
    with pytest.raises(LhError) as caught:
        files.tail_records(path, 5)
    assert path in str(caught.value) and "Permission denied" in str(caught.value)


def test_session_start_names_it_and_shows_the_rest(denied):
    root, path = denied
    text, stats = digest.build_context(root, config.defaults(), os.environ, NOW, "startup")
    assert text is not None and "The nightly import timed out" in text and "Pin the protobuf version" not in text
    assert any(path in e and "Permission denied" in e for e in stats["errors"]), stats["errors"]


def test_doctor_and_check_word_it(denied, monkeypatch):
    _, path = denied
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if p == path else real(p, mode, **kw))
    assert damage.unreadable(path) == "not readable by this user (its permissions)"
    assert damage.unreadable(path.replace(files.DECISIONS, files.FAILURES)) is None
