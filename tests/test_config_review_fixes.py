"""Review r13: lh config validate/show read config.toml through the loaders' check, enable_loop keeps a
symlinked config a link and a CRLF file's bytes, and an unknown key or section gets a suggestion."""

import os

from lazy_harness import config, paths
from lazy_harness.config.edit import enable_loop
from lazy_harness.errors import ConfigError

from tests.cli.lhrun import invoke


def _config(text: str, mode: int = 0o600) -> str:
    path = paths.config_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)
    os.chmod(path, mode)
    return path


def test_validate_refuses_a_config_the_loaders_refuse():
    path = _config("[compound_loop]\nenabled = true\n[handoff]\nstale_days = 30\n", 0o664)
    r = invoke("config", "validate")
    assert r.code == 1
    assert path in r.out and "open to group or others (mode 0664)" in r.out
    assert ": valid" not in r.out


def test_validate_path_refuses_a_file_the_loaders_would_refuse(tmp_path):
    other = tmp_path / "draft.toml"
    other.write_text("[handoff]\nstale_days = 30\n")
    other.chmod(0o666)
    r = invoke("config", "validate", str(other))
    assert r.code == 1 and str(other) in r.out and "open to group or others" in r.out


def test_show_says_a_refused_config_is_not_read_and_defaults_are_in_effect():
    path = _config("[handoff]\nstale_days = 30\n", 0o664)
    r = invoke("config", "show")
    assert "# config file\n" not in r.out + "\n" and "stale_days = 14  # default" in r.out
    first = r.out.splitlines()[0]
    assert path in first and "not read" in first and "defaults in effect" in first
    assert "open to group or others" in r.out + r.err


def test_validate_and_show_still_read_a_private_config():
    _config("[handoff]\nstale_days = 30\n")
    assert invoke("config", "validate").code == 0
    assert "stale_days = 30  # config file" in invoke("config", "show").out


def test_enable_loop_keeps_a_symlinked_config_a_link(tmp_path):
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir(mode=0o700)
    target = dotfiles / "lh.toml"
    target.write_text("# mine\n[compound_loop]\nenabled = false   # off for now\n")
    target.chmod(0o600)
    link = paths.config_file()
    os.makedirs(os.path.dirname(link), exist_ok=True)
    os.symlink(str(target), link)
    assert enable_loop(link) == "enabled"
    assert os.path.islink(link) and os.readlink(link) == str(target)
    assert target.read_text() == "# mine\n[compound_loop]\nenabled = true   # off for now\n"
    assert config.load()["compound_loop"]["enabled"] is True


def test_enable_loop_follows_a_relative_link_chain(tmp_path):
    folder = os.path.dirname(paths.config_file())
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "real.toml"), "w") as fh:
        fh.write("[compound_loop]\nenabled = false\n")
    os.chmod(os.path.join(folder, "real.toml"), 0o600)
    os.symlink("real.toml", os.path.join(folder, "mid.toml"))
    os.symlink("mid.toml", paths.config_file())
    assert enable_loop(paths.config_file()) == "enabled"
    assert os.path.islink(paths.config_file()) and os.path.islink(os.path.join(folder, "mid.toml"))
    with open(os.path.join(folder, "real.toml")) as fh:
        assert fh.read() == "[compound_loop]\nenabled = true\n"


def test_enable_loop_refuses_a_link_to_a_file_the_loader_refuses(tmp_path):
    target = tmp_path / "shared.toml"
    target.write_text("[compound_loop]\nenabled = false\n")
    target.chmod(0o666)
    link = paths.config_file()
    os.makedirs(os.path.dirname(link), exist_ok=True)
    os.symlink(str(target), link)
    try:
        enable_loop(link)
    except ConfigError as exc:
        assert str(target) in exc.message and "\n" not in exc.message
    else:
        raise AssertionError("enable_loop wrote through a link to a file the loader refuses")
    assert os.path.islink(link) and target.read_text() == "[compound_loop]\nenabled = false\n"


def test_enable_loop_keeps_crlf_bytes_except_the_changed_line():
    before = b"# mine\r\n[compound_loop]\r\nenabled = false\r\nmodel = \"x\"\r\n\r\n[handoff]\r\nstale_days = 30\r\n"
    path = _config(before.decode())
    assert enable_loop(path) == "enabled"
    with open(path, "rb") as fh:
        assert fh.read() == before.replace(b"enabled = false", b"enabled = true")


def test_enable_loop_inserts_a_line_with_the_files_line_ending():
    before = b"# mine\r\n[compound_loop]\r\nmodel = \"x\"\r\n"
    path = _config(before.decode())
    assert enable_loop(path) == "enabled"
    with open(path, "rb") as fh:
        assert fh.read() == b"# mine\r\n[compound_loop]\r\nenabled = true\r\nmodel = \"x\"\r\n"


def test_enable_loop_adds_a_section_with_the_files_line_ending():
    before = b"# mine\r\n[handoff]\r\nstale_days = 30\r\n"
    path = _config(before.decode())
    assert enable_loop(path) == "enabled"
    with open(path, "rb") as fh:
        assert fh.read() == before + b"\r\n[compound_loop]\r\nenabled = true\r\n"


def test_an_unknown_key_gets_a_suggestion(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[budget]\ndailyusd = 1.0\n")
    _, _, warnings = config.parse_file(str(path))
    assert warnings == [f"{path}:2: budget.dailyusd: unknown key, ignored (did you mean budget.daily_usd?)"]


def test_a_key_in_the_wrong_section_gets_its_section(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[recall]\nstale_days = 30\n")
    _, _, warnings = config.parse_file(str(path))
    assert warnings == [f"{path}:2: recall.stale_days: unknown key, ignored (did you mean handoff.stale_days?)"]


def test_an_unknown_section_gets_a_suggestion(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[recal]\nmax_chars = 10\n")
    _, _, warnings = config.parse_file(str(path))
    assert warnings == [f"{path}:1: recal: unknown section, ignored (did you mean recall?)"]


def test_nothing_close_gets_no_suggestion(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[budget]\nzzzqqq = 1\n")
    _, _, warnings = config.parse_file(str(path))
    assert warnings == [f"{path}:2: budget.zzzqqq: unknown key, ignored"]


def test_validate_and_doctor_show_the_suggestion():
    _config("[budget]\ndailyusd = 1.0\n")
    r = invoke("config", "validate")
    assert r.code == 0 and "did you mean budget.daily_usd?" in r.out
    d = invoke("doctor")
    assert "did you mean budget.daily_usd?" in d.out + d.err
