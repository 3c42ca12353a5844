"""A damaged handoff.md (NUL bytes a power cut left, binary junk, text that is not UTF-8, prose with no
list line) is not a hand edit: no writer closes the items it no longer lists, it is set aside before the
next render, and ``lh memory check`` and ``lh doctor`` name it."""

import json
import os
import random
import time
from pathlib import Path

import pytest

from lazy_harness import paths
from lazy_harness.memory import damage, files, handoff, handoff_answer
from tests.cli.lhrun import invoke
from tests.test_sync import Machine, _git

NOW = 1_760_000_000.0
META = {"project": "proj", "session_id": "sess-a", "task_id": "t-a"}
TEXTS = ["Migrate the payments table", "Write the runbook", "Rotate the staging keys"]


def _nul(md: Path) -> bytes:
    return b"\0" * md.stat().st_size


def _junk(md: Path) -> bytes:
    return random.Random(7).randbytes(3000)


def _prose(md: Path) -> bytes:
    return b"Notes for tomorrow.\n\nThe payments migration waits on the DBA; the runbook is half done.\n"


def _latin1(md: Path) -> bytes:
    # why a damaged file, not a hand edit: bytes that are not UTF-8 cannot be told from a torn or
    # overwritten block, so one Latin-1 line must not close items; the file is kept aside instead
    lines = [ln for ln in md.read_text(encoding="utf-8").split("\n") if "runbook" not in ln]
    return "\n".join(lines).replace("payments table", "payments table (café)").encode("latin-1")


def _cut(md: Path) -> bytes:
    # a save cut short inside the header comment (a killed editor, a full disk): title and half a header
    data = md.read_bytes()
    return data[:data.index(files.HANDOFF_MARK.encode()) + len(files.HANDOFF_MARK) + 9]


DAMAGE = {"nul": _nul, "random": _junk, "latin1": _latin1, "prose": _prose, "cut": _cut}


def _setup(mdir: str) -> dict[str, str]:
    os.makedirs(mdir, exist_ok=True)
    handoff_answer.apply_answer(mdir, TEXTS, [], META, NOW, NOW)
    return {i["id"]: i["text"] for i in handoff.open_items(handoff.load(mdir)[0])}


def _closes(mdir: str) -> list[dict]:
    with open(os.path.join(mdir, handoff.STATE), encoding="utf-8") as fh:
        return [r for r in map(json.loads, fh) if r["op"] == "close"]


def _aside(mdir: str) -> list[str]:
    return damage.handoff_copies(mdir)


@pytest.mark.parametrize("kind", sorted(DAMAGE))
def test_a_damaged_handoff_md_is_read_as_no_edit(tmp_path, kind):
    mdir = str(tmp_path / "memory")
    opened = _setup(mdir)
    md = Path(mdir, files.HANDOFF)
    md.write_bytes(DAMAGE[kind](md))
    state, pending = handoff.load(mdir)
    assert pending == []
    assert {i["id"] for i in handoff.open_items(state)} == set(opened)
    assert {i["id"] for i in handoff.open_for_reading(mdir)} == set(opened)


@pytest.mark.parametrize("kind", sorted(DAMAGE))
def test_a_persist_after_damage_closes_nothing_and_keeps_the_damaged_bytes_aside(tmp_path, kind):
    mdir = str(tmp_path / "memory")
    opened = _setup(mdir)
    md = Path(mdir, files.HANDOFF)
    bad = DAMAGE[kind](md)
    md.write_bytes(bad)
    written, _, _ = handoff_answer.apply_answer(mdir, [], [], META, NOW + 60, NOW + 60)  # the worker's persist
    assert written == [] and _closes(mdir) == []
    for text in opened.values():
        assert text in md.read_text(encoding="utf-8")  # rendered again from handoff.jsonl
    copies = _aside(mdir)
    assert len(copies) == 1 and Path(copies[0]).read_bytes() == bad
    assert os.path.basename(copies[0]).startswith("handoff.md.damaged-")
    # the render is now a plain one: the next writer neither sets anything aside nor closes anything
    handoff_answer.apply_answer(mdir, [], [], META, NOW + 120, NOW + 120)
    assert len(_aside(mdir)) == 1 and _closes(mdir) == []


def test_a_damaged_handoff_md_with_no_log_beside_it_imports_nothing(tmp_path):
    mdir = str(tmp_path / "memory")
    os.makedirs(mdir)
    Path(mdir, files.HANDOFF).write_bytes(b"\0" * 500)
    assert handoff.load(mdir) == ({}, [])
    assert handoff.import_hand_edits(mdir, META, NOW) == []


def test_a_hand_edit_in_utf8_is_still_imported(tmp_path):
    mdir = str(tmp_path / "memory")
    _setup(mdir)
    md = Path(mdir, files.HANDOFF)
    md.write_text("".join(ln for ln in md.read_text().splitlines(True) if "runbook" not in ln) + "- Ask Zoë\n")
    handoff_answer.apply_answer(mdir, [], [], META, NOW + 60, NOW + 60)
    assert [r["text"] for r in _closes(mdir)] == ["Write the runbook"]
    assert _aside(mdir) == []


def test_a_sync_round_after_damage_closes_nothing(tmp_path):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    a = Machine(tmp_path, remote, "a")
    a.mdir.mkdir(parents=True)
    now = time.time()
    handoff_answer.apply_answer(str(a.mdir), TEXTS, [], {"session_id": "sa", "task_id": "ta"}, now - 100, now - 100)
    a.sync()
    md = a.mdir / "handoff.md"
    md.write_bytes(_nul(md))
    a.sync()
    assert _closes(str(a.mdir)) == []
    assert {i["text"] for i in handoff.open_for_reading(str(a.mdir))} == set(TEXTS)
    tracked = _git("ls-files", cwd=a.data)
    assert "damaged" not in tracked  # the copy set aside is machine-local, never pushed


def _project(tmp_path: Path) -> tuple[Path, str]:
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / ".git").mkdir()
    return proj, paths.memory_dir(str(proj))


def test_check_and_doctor_name_a_damaged_handoff_md_then_its_copy(tmp_path):
    proj, mdir = _project(tmp_path)
    _setup(mdir)
    md = Path(mdir, files.HANDOFF)
    md.write_bytes(_nul(md))
    check = invoke("memory", "check", "--project", str(proj))
    assert check.code == 1
    named = [ln for ln in check.out.splitlines() if str(md) in ln]
    assert len(named) == 1 and "NUL" in named[0], check.out
    doctor = invoke("doctor")
    assert str(md) in doctor.out + doctor.err
    handoff_answer.apply_answer(mdir, [], [], META, NOW + 60, NOW + 60)
    copy = _aside(mdir)[0]
    check = invoke("memory", "check", "--project", str(proj))
    assert check.code == 1 and copy in check.out and f"{md}:" not in check.out, check.out
    os.unlink(copy)
    check = invoke("memory", "check", "--project", str(proj))
    assert check.code == 0, check.out
