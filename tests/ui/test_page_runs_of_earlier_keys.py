"""A project that gained an origin remote moved its memory to the remote's folder; the runs journaled
under its path key stay in that folder. The page's "Changes, and undo" lists them as ``lh memory
history`` does, says where they are journaled, and its Undo button undoes one as ``lh memory undo`` does."""

import os
import re
import subprocess
from pathlib import Path
from urllib.parse import urlencode

import pytest

from lazy_harness import paths
from lazy_harness.memory import files, journal
from tests.cli.lhrun import invoke
from tests.cli.test_memory_history_moved import write_decisions
from tests.ui.conftest import serving
from tests.ui.test_server import cookie, page, request


def _git(*args: str) -> None:
    subprocess.run(["git", *args], check=True, capture_output=True)


@pytest.fixture
def moved(tmp_path):
    """(project folder, its path-keyed folder, the remote-keyed one it moved to, the forgotten id)."""
    proj = tmp_path / "shop"
    proj.mkdir()
    _git("init", "-q", str(proj))
    by_path = paths.memory_dir(str(proj))
    did = write_decisions(by_path, "shop", ["Keep prices in cents", "Round at checkout"])[0]
    assert invoke("memory", "forget", did, "--project", str(proj)).code == 0
    _git("-C", str(proj), "remote", "add", "origin", "git@example.com:team/shop.git")
    assert invoke("memory", "show", "--project", str(proj)).code == 0  # the move, as a reading command does it
    now = paths.memory_dir(str(proj))
    assert now != by_path and not journal.runs(now) and journal.runs(by_path)
    return str(proj), by_path, now, did


@pytest.fixture
def served(moved):
    with serving(moved[0]) as srv:
        yield srv


def _runs_section(server) -> str:
    status, _, body = request(server, "GET", page(server), cookie(server))
    assert status == 200, body[:300]
    return body.split('<section id="runs">', 1)[1].split("</section>", 1)[0]


def test_the_page_lists_the_runs_journaled_under_the_earlier_key(served, moved):
    _, by_path, _, did = moved
    [run] = [r["run"] for r in journal.runs(by_path)]
    section = _runs_section(served)
    assert re.findall(r'data-run="([^"]+)"', section) == [run]
    assert did in section
    assert f"journaled in {journal.folder(by_path)} before the project moved to this folder" in section
    history = invoke("memory", "history", "--project", moved[0])
    assert run in history.out  # the same run lh memory history lists


def test_its_undo_button_puts_the_forgotten_entry_back_where_the_memory_is_now(served, moved):
    proj, by_path, now, did = moved
    [run] = [r["run"] for r in journal.runs(by_path)]
    section = _runs_section(served)
    assert "/action/undo" in section  # an Undo button, not only a command to type
    key = os.path.basename(now)
    form = urlencode({"project": key, "token": served.form_token, "run": run})
    status, headers, _ = request(served, "POST", page(served, "/action/undo"), cookie(served), body=form)
    assert status == 303
    said = request(served, "GET", headers["Location"], cookie(served))[2]
    assert f"undid {run} (forget)" in said, said[:2000]
    shown = invoke("memory", "show", "--project", proj)
    assert shown.code == 0 and "Keep prices in cents" in shown.out  # back, in the folder the project reads
    assert Path(now, files.DECISIONS).exists()
    assert journal.runs(by_path)[0].get("undone") is None  # the earlier folder's journal is left as it was
    assert [r["run"] for r in journal.runs(now) if r.get("undone")] == [run]
