"""``lh doctor`` never says a folder is fine while the folder of ours holding it is refused (ADR
0031): the memory and learnings folders live in the data folder, and nothing is written there until
it is fixed; their lines fail with the refused folder's reason and its fix, and doctor exits 1."""

import os

import pytest

from lazy_harness import paths
from tests.cli.lhrun import invoke

ME = os.geteuid()


def _lines(out: str, check: str) -> list[str]:
    return [ln for ln in out.splitlines() if ln[6:].startswith(f"{check}: ")]  # "fail  check: ..."


def _fails_with(out: str, check: str, why: str, hint: str) -> None:
    lines = _lines(out, check)
    assert lines and all(ln.startswith("fail") for ln in lines), (check, lines)
    assert any(why in ln and ln.endswith(f"(hint: {hint})") for ln in lines), (check, lines)


def test_a_data_folder_open_to_others_fails_the_memory_and_learnings_lines(tmp_path, monkeypatch):
    data = paths.data_dir()
    os.makedirs(data)
    os.chmod(data, 0o777)
    r = invoke("doctor")
    assert r.code == 1
    why = f"{data} is open to group or others (mode 0777)"
    for check in ("memory folder", "learnings folder", "data folder"):
        _fails_with(r.out, check, why, f"chmod 700 {data}")
    ledger = paths.ledger_file()
    assert _lines(r.out, "ledger lines") == [f"fail  ledger lines: {ledger}: not read while {why}"]


@pytest.mark.skipif(ME != 0, reason="giving a folder to another user needs root (CI runs as root)")
def test_a_data_folder_of_another_user_fails_the_memory_line(tmp_path, monkeypatch):
    xdg = tmp_path / "share"
    xdg.mkdir()
    monkeypatch.setenv("XDG_DATA_HOME", str(xdg))
    data = paths.data_dir()
    os.mkdir(data, 0o700)
    os.chown(data, 65534, 65534)
    r = invoke("doctor")
    assert r.code == 1
    why = f"{data} belongs to uid 65534, not to you (uid {ME})"
    hint = next(ln for ln in _lines(r.out, "data folder")).split("(hint: ", 1)[1][:-1]
    assert hint.startswith(f"move {data} aside (e.g. mv {data} {data}.not-mine)"), hint
    for check in ("memory folder", "learnings folder"):
        _fails_with(r.out, check, why, hint)


@pytest.mark.skipif(ME != 0, reason="giving a folder to another user needs root (CI runs as root)")
def test_a_data_folder_inside_another_users_folder_fails_the_memory_line(tmp_path, monkeypatch):
    vd = tmp_path / "vd"
    vd.mkdir()
    os.chown(vd, 65534, 65534)
    os.chmod(vd, 0o1777)
    monkeypatch.setenv("XDG_DATA_HOME", str(vd))
    r = invoke("doctor")
    assert r.code == 1
    why = f"{vd} (holding {paths.data_dir()}) belongs to uid 65534, not to you (uid {ME}) nor root"
    _fails_with(r.out, "memory folder", why, "point XDG_DATA_HOME at a folder of yours")


def test_a_memory_folder_elsewhere_is_judged_as_before(tmp_path, monkeypatch):
    """``[memory] path`` outside the data folder: a refused data folder says nothing about it."""
    data = paths.data_dir()
    os.makedirs(data)
    os.chmod(data, 0o777)
    elsewhere = tmp_path / "mem"
    config = paths.config_file()
    os.makedirs(os.path.dirname(config))
    with open(config, "w") as fh:
        fh.write(f'[memory]\npath = "{elsewhere}"\n')
    r = invoke("doctor")
    assert _lines(r.out, "memory folder") == [f"ok    memory folder: {elsewhere} (created on first use)"]


def test_a_refused_queue_folder_fails_once_and_is_never_said_to_be_fine(tmp_path, monkeypatch):
    queue = paths.queue_dir()
    os.makedirs(queue)
    os.chmod(queue, 0o777)
    r = invoke("doctor")
    assert r.code == 1
    lines = _lines(r.out, "queue folder")
    assert len(lines) == 1 and lines[0].startswith(f"fail  queue folder: {queue} is open to group or others"), lines
