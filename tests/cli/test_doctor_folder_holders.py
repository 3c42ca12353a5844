"""``lh doctor`` names a folder of ours that another user could rename on the way to (ADR 0031,
amended): the folder at fault, the folder of ours it holds, and what to run."""

import os

import pytest

from lazy_harness import paths
from tests.cli.lhrun import invoke

ME = os.geteuid()


def _line(out: str, check: str) -> str:
    return next(ln for ln in out.splitlines() if ln.startswith("fail") and f" {check}: " in ln)


@pytest.mark.skipif(ME != 0, reason="giving a folder to another user needs root (CI runs as root)")
def test_doctor_names_a_data_folder_inside_another_users_folder(tmp_path, monkeypatch):
    vd = tmp_path / "vd"
    vd.mkdir()
    os.chown(vd, 65534, 65534)
    os.chmod(vd, 0o1777)
    monkeypatch.setenv("XDG_DATA_HOME", str(vd))
    os.mkdir(paths.data_dir(), 0o700)
    r = invoke("doctor")
    assert r.code == 1
    line = _line(r.out, "data folder")
    assert f"{vd} (holding {paths.data_dir()}) belongs to uid 65534, not to you (uid {ME}) nor root" in line, line
    assert "hooks skip until it is fixed" in line and "(hint: point XDG_DATA_HOME at a folder of yours)" in line


def test_doctor_names_the_persons_open_folder_holding_the_cache(tmp_path, monkeypatch):
    vc = tmp_path / "vc"
    vc.mkdir()
    os.chmod(vc, 0o777)
    monkeypatch.setenv("XDG_CACHE_HOME", str(vc))
    r = invoke("doctor")
    assert r.code == 1
    for check, ours in (("cache folder", paths.cache_dir()), ("recall folder", paths.recall_dir())):
        line = _line(r.out, check)
        assert f"{vc} (holding {ours}) is open to group or others (mode 0777) without the sticky bit" in line, line
        assert f"(hint: chmod go-w {vc} (or chmod +t {vc}), or point XDG_CACHE_HOME at a folder of yours)" in line
