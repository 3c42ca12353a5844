"""``lh config init`` writes nothing into a config folder another user owns or may write (ADR 0031):
every loader refuses a config.toml there, so writing one and saying "wrote" would only mislead. It
refuses as the other commands do: one line with lh doctor's reason for the folder and what to run,
exit 1, nothing written. A folder open to others (0777) is the real thing; one "of another user" is
made by asking ``private.problem`` for another owner of that one path."""

import os

from lazy_harness import paths, private
from tests.cli.lhrun import invoke
from tests.cli.test_cliown_foreign_folders import foreign


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


# --- $LH_CONFIG names the file: its folder is judged as the loaders judge it (private.open_holder) ---

def _lh_config_in(monkeypatch, folder: str) -> str:
    target = os.path.join(folder, "config.toml")
    monkeypatch.setenv("LH_CONFIG", target)
    return target


def test_init_refuses_an_lh_config_whose_folder_is_open_to_others(isolated_home, monkeypatch, tmp_path):
    folder = str(tmp_path / "open")
    os.mkdir(folder)
    os.chmod(folder, 0o777)  # no sticky bit: another user may rename a file of theirs in as config.toml
    target = _lh_config_in(monkeypatch, folder)
    why = private.config_problem()  # what every loader says of this config.toml, before anything is written
    assert why and "without the sticky bit" in why
    r = invoke("config", "init")
    assert r.code == 1, (r.out, r.err)
    assert "wrote" not in r.out
    assert r.err.strip().splitlines() == [
        f"lh: {why}; not used until it is fixed (lh doctor lists each one) (hint: {private.fix(target, why)})"]
    assert os.listdir(folder) == []  # no config.toml, no temporary file left


def test_init_refuses_exactly_what_lh_status_refuses(isolated_home, monkeypatch, tmp_path):
    folder = str(tmp_path / "open")
    os.mkdir(folder)
    os.chmod(folder, 0o777)
    _lh_config_in(monkeypatch, folder)
    status = invoke("status")
    init = invoke("config", "init")
    assert init.code == status.code == 1
    assert init.err.strip() and init.err.strip() in status.err, (init.err, status.err)


def test_init_writes_an_lh_config_whose_folder_the_loaders_accept(isolated_home, monkeypatch, tmp_path):
    for name, mode in (("sticky", 0o1777), ("private", 0o700), ("readable", 0o755)):
        folder = str(tmp_path / name)
        os.mkdir(folder)
        os.chmod(folder, mode)
        target = _lh_config_in(monkeypatch, folder)
        r = invoke("config", "init")
        assert r.code == 0 and target in r.out, (name, r.out, r.err)
        assert os.path.isfile(target) and private.config_problem() is None  # the loaders read it
        assert oct(os.stat(folder).st_mode & 0o7777) == oct(mode)  # the user's folder left as it was
