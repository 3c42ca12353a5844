"""``lh config init`` writes nothing into a config folder another user owns or may write (ADR 0031):
every loader refuses a config.toml there, so writing one and saying "wrote" would only mislead. It
refuses as the other commands do: one line with lh doctor's reason for the folder and what to run,
exit 1, nothing written. A folder open to others (0777) is the real thing; one "of another user" is
made by asking ``private.problem`` for another owner of that one path."""

import os

from lazy_harness import paths, private
from tests.cli.lhrun import invoke


def foreign(monkeypatch, folder: str) -> None:
    """``folder`` looks owned by another user to every check of private.py."""
    real = private.problem

    def problem(path, strict=False, uid=None):
        if os.path.abspath(path) == os.path.abspath(folder):
            return real(path, strict, uid=os.geteuid() + 1)  # why: our own folder, judged for another owner
        return real(path, strict, uid)

    monkeypatch.setattr(private, "problem", problem)


def one_refusal(err: str, folder: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("lh: ") and folder in lines[0]
    why = private.problem(folder)
    assert why and why in lines[0] and private.fix(folder, why) in lines[0]  # what lh doctor says, and the fix
    assert "Traceback" not in err


def test_init_refuses_a_config_folder_open_to_others(isolated_home):
    folder = paths.own_config_dir()
    assert folder
    os.makedirs(folder, mode=0o700)
    os.chmod(folder, 0o777)
    r = invoke("config", "init")
    assert r.code == 1, (r.out, r.err)
    one_refusal(r.err, folder)
    assert "wrote" not in r.out
    assert os.listdir(folder) == []  # no config.toml, no temporary file left


def test_init_refuses_a_config_folder_of_another_user(isolated_home, monkeypatch):
    folder = paths.own_config_dir()
    assert folder
    os.makedirs(folder, mode=0o700)
    foreign(monkeypatch, folder)
    r = invoke("config", "init")
    assert r.code == 1, (r.out, r.err)
    one_refusal(r.err, folder)
    assert "belongs to uid" in r.err
    assert os.listdir(folder) == []


def test_init_still_writes_into_a_private_folder_or_makes_one(isolated_home):
    folder = paths.own_config_dir()
    assert folder and not os.path.exists(folder)
    r = invoke("config", "init")
    assert r.code == 0 and paths.config_file() in r.out
    assert os.path.isfile(paths.config_file())
    assert private.problem(folder) is None  # made private (0700)
