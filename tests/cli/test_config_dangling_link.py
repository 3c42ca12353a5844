"""A config.toml that is a link to nothing (a dotfiles folder moved or deleted): ``lh doctor`` said "no
file at ...: defaults apply" as for no file at all, and ``lh hooks install`` refused with "set
[compound_loop] enabled = true in <target>", a file in a folder that does not exist."""

import os

from tests.cli.lhrun import invoke


def _dangling(home, target):
    cfg = home / ".config" / "lazy-harness" / "config.toml"
    cfg.parent.mkdir(parents=True, mode=0o700)
    os.chmod(cfg.parent.parent, 0o700)
    os.symlink(target, cfg)
    return cfg


def test_doctor_names_a_config_link_that_leads_nowhere(isolated_home, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "gone" / "dotfiles" / "config.toml"
    cfg = _dangling(isolated_home, str(target))
    out = invoke("doctor").out
    line = next(x for x in out.splitlines() if " config:" in x)
    assert line.startswith("warn") and str(cfg) in line and str(target) in line
    assert "no file at" not in line


def test_install_hint_for_a_link_to_a_missing_folder_is_one_that_can_be_done(isolated_home, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "gone" / "dotfiles" / "config.toml"
    cfg = _dangling(isolated_home, str(target))
    outcome = invoke("hooks", "install")
    assert outcome.code == 1
    err = outcome.err.strip()
    assert len(err.splitlines()) == 1 and str(cfg) in err and str(target) in err
    assert f"set [compound_loop] enabled = true in {target}" not in err
    assert f"rm {cfg}" in err
    assert os.path.islink(cfg) and os.readlink(cfg) == str(target)  # nothing replaced behind the person's back


def test_validate_and_init_name_a_config_link_that_leads_nowhere_and_do_not_send_to_each_other(
        isolated_home, tmp_path, monkeypatch):
    # why: validate said "no config file ... (lh config init writes one)", and init "already exists;
    # not overwritten (hint: lh config validate)": each sent the person to the other
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "gone" / "dotfiles" / "config.toml"
    cfg = _dangling(isolated_home, str(target))
    checked = invoke("config", "validate")
    assert checked.code == 1, checked.out
    err = checked.err.strip()
    assert len(err.splitlines()) == 1 and "no config file" not in checked.out + err
    assert f"{cfg} is a link to {target}, which does not exist" in err and f"rm {cfg}" in err, err
    made = invoke("config", "init")
    assert made.code == 1
    err = made.err.strip()
    assert len(err.splitlines()) == 1 and "lh config validate" not in err, err
    assert f"{cfg} is a link to {target}, which does not exist; not overwritten" in err
    assert f"rm {cfg}, then lh config init" in err, err
    assert os.path.islink(cfg) and os.readlink(cfg) == str(target)  # nothing replaced behind the person's back
    os.remove(cfg)
    assert invoke("config", "init").code == 0 and os.path.isfile(cfg)  # the hint, followed, works
