"""A damaged line in ``aliases.jsonl`` (a torn write, a lost newline) no longer takes a project's
learnings away without a word: what the line still holds is salvaged, and ``lh memory check``, ``lh
doctor`` and the hooks' log name the file and line, as for decisions.jsonl. The line stays as it was.

Two projects: beta, whose repository gained an origin (its path key is an alias of its new folder),
and report, which must not get beta's learnings from a salvaged line."""

import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import aliases
from tests.cli.lhrun import invoke
from tests.memory.test_damaged_lines import logged_once_per_state
from tests.memory.test_follows_project import TITLES, add_origin, learning, shown, start, write_as_session
from tests.support import memory_samples as ms

NOW = time.time()


@pytest.fixture
def beta_and_report(tmp_path):
    """(beta's root, its old path key, the path of its aliases.jsonl, report's root)."""
    beta = ms.make_project(tmp_path / "w", "beta")
    write_as_session(beta, {"learnings": [learning(t) for t in TITLES]})
    old_key = os.path.basename(paths.memory_dir(beta))
    add_origin(beta, "https://github.com/acme/beta")
    assert shown(start(beta)) == 3  # migrated: the path key is an alias now
    path = os.path.join(paths.memory_dir(beta), aliases.FILE)
    report = ms.make_project(tmp_path / "w", "report")
    write_as_session(report, {"decisions": [{"summary": "Report renders PDFs with weasyprint"}]}, session="r-1")
    return beta, old_key, path, report


def tear(path: str, at: int) -> bytes:
    """The file cut ``at`` bytes into its only line, then a newline (a write cut short, then ended)."""
    with open(path, "rb") as fh:
        data = fh.read()
    assert data.count(b"\n") == 1
    torn = data[:at] + b"\n"
    with open(path, "wb") as fh:
        fh.write(torn)
    return torn


def test_a_torn_alias_line_is_salvaged_and_named_once_in_the_hooks_log(beta_and_report):
    beta, old_key, path, report = beta_and_report
    torn = tear(path, len(b'{"op": "alias", "folder": "') + len(old_key) + len(b'", "why": "the pro'))
    assert shown(start(beta, sid="after-tear")) == 3
    assert all(t in invoke("memory", "show", "--project", beta).out for t in TITLES)
    assert shown(start(report, sid="report")) == 0
    logged = logged_once_per_state()
    assert len(logged) == 1 and f"{path}: 1 line(s) salvaged (1: not JSON)" in logged[0], logged
    start(beta, sid="again")
    assert len(logged_once_per_state()) == 1  # the same file state: said once
    with open(path, "rb") as fh:
        assert fh.read() == torn  # nothing rewritten away


def test_check_and_doctor_name_the_file_and_line(beta_and_report):
    beta, old_key, path, _ = beta_and_report
    torn = tear(path, len(b'{"op": "alias", "folder": "') + len(old_key) + len(b'", "wh'))
    checked = invoke("memory", "check", "--project", beta)
    assert f"{path}:1: salvaged: not JSON" in checked.out, checked.out
    assert "0 line(s) skipped, 1 salvaged, in 1 file(s)" in checked.out
    found = [ln for ln in invoke("doctor").out.splitlines() if "memory lines:" in ln]
    assert len(found) == 1 and found[0].startswith("warn") and f"{path}:1" in found[0], found
    with open(path, "rb") as fh:
        assert fh.read() == torn


def test_a_line_cut_inside_the_key_is_skipped_and_named(beta_and_report):
    beta, old_key, path, _ = beta_and_report
    torn = tear(path, len(b'{"op": "alias", "folder": "') + len(old_key) // 2)  # the key itself cut: nothing sure
    assert shown(start(beta, sid="cut")) == 0
    checked = invoke("memory", "check", "--project", beta)
    assert checked.code == 1 and f"{path}:1: skipped: not JSON" in checked.out, checked.out
    found = [ln for ln in invoke("doctor").out.splitlines() if "memory lines:" in ln]
    assert len(found) == 1 and f"{path}:1 (not JSON)" in found[0], found
    logged = logged_once_per_state()
    assert len(logged) == 1 and f"{path}: 1 line(s) skipped (1: not JSON)" in logged[0], logged
    again = invoke("memory", "adopt", "--project", beta, "--", old_key)  # what the doc says to do then
    assert again.code == 0, again.out + again.err
    assert shown(start(beta, sid="re-adopted")) == 3
    with open(path, "rb") as fh:
        assert fh.read().startswith(torn)  # the damaged line stays; the alias is written after it


def test_a_record_written_after_a_torn_last_line_keeps_both(beta_and_report):
    beta, old_key, path, _ = beta_and_report
    with open(path, "rb") as fh:
        data = fh.read()
    with open(path, "wb") as fh:  # cut short before its newline (a crash), then the next record is written
        fh.write(data[:len(b'{"op": "alias", "folder": "') + len(old_key) + len(b'", "why"')])
    assert aliases.record(paths.memory_dir(beta), aliases.ADOPT, "l-0badbeef", "assigned by hand", NOW)
    owned = aliases.owned(paths.memory_dir(beta))
    assert old_key in owned.keys and "l-0badbeef" in owned.adopted
    assert shown(start(beta, sid="glued")) == 3
