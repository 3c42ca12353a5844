"""lh config path|show|init|validate."""

import stat
import tomllib

import pytest

from lazy_harness import config, paths

from tests.cli.lhrun import invoke, run


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_path_follows_the_resolver(tmp_path, monkeypatch, isolated_home):
    r = invoke("config", "path")
    assert (r.code, r.out) == (0, f"{isolated_home}/.config/lazy-harness/config.toml\n")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert invoke("config", "path").out == f"{tmp_path}/xdg/lazy-harness/config.toml\n"
    monkeypatch.setenv("LH_CONFIG", str(tmp_path / "mine.toml"))
    assert invoke("config", "path").out == f"{tmp_path}/mine.toml\n"


def test_init_writes_the_example_then_never_overwrites(tmp_path, monkeypatch):
    target = tmp_path / "conf" / "config.toml"
    monkeypatch.setenv("LH_CONFIG", str(target))
    r = invoke("config", "init")
    assert r.code == 0 and str(target) in r.out
    assert target.read_text() == config.render_example()
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    target.write_text("# mine\n")
    again = invoke("config", "init")
    assert again.code == 1
    assert again.err.count("\n") == 1 and str(target) in again.err and "exists" in again.err
    assert target.read_text() == "# mine\n"


def test_validate_the_example_is_clean(tmp_path):
    path = write(tmp_path / "c.toml", config.render_example())
    r = invoke("config", "validate", str(path))
    assert r.code == 0
    assert r.out == f"{path}: valid\n"


def test_validate_wrong_value_names_file_line_key_and_type(tmp_path):
    path = write(tmp_path / "c.toml", "[compound_loop]\nenabled = true\ndebounce_seconds = \"soon\"\n")
    r = invoke("config", "validate", str(path))
    assert r.code == 1
    assert f'{path}:3: compound_loop.debounce_seconds: expected an integer, got "soon"\n' in r.out
    assert r.out.endswith(f"{path}: 1 error; not the file lh reads, which is {paths.config_file()}\n")


def test_validate_says_paused_of_the_file_lh_reads_only(tmp_path, monkeypatch):
    """A draft's errors pause nothing: its last line names the file lh reads instead; the file lh reads
    (``LH_CONFIG``) with the same error pauses distillation, and says so."""
    draft = write(tmp_path / "draft.toml", "[compound_loop]\nenabled = true\ndebounce_seconds = \"soon\"\n")
    r = invoke("config", "validate", str(draft))
    assert r.code == 1 and "distillation" not in r.out, r.out
    assert r.out.endswith(f"not the file lh reads, which is {paths.config_file()}\n"), r.out
    monkeypatch.setenv("LH_CONFIG", str(draft))
    for args in ((), (str(draft),)):
        r = invoke("config", "validate", *args)
        assert r.code == 1 and r.out.endswith(f"{draft}: 1 error; distillation is paused until the file is valid\n")


def test_validate_unknown_key_warns_and_exits_zero(tmp_path):
    path = write(tmp_path / "c.toml", "[compound_loop]\ndebounce = 5\n")
    r = invoke("config", "validate", str(path))
    assert r.code == 0
    assert (f"{path}:2: warning: compound_loop.debounce: unknown key, ignored "
            "(did you mean compound_loop.debounce_seconds?)\n") in r.out
    assert r.out.endswith(f"{path}: valid, 1 warning\n")


def test_validate_default_location_without_a_file(isolated_home):
    r = invoke("config", "validate")
    assert r.code == 0
    assert "no config file" in r.out and "defaults" in r.out


def test_validate_a_named_file_that_does_not_exist(isolated_home, tmp_path):
    r = invoke("config", "validate", str(tmp_path / "nope.toml"))
    assert r.code == 1 and "does not exist" in r.err
    # lh config init writes the configured file, never PATH: it would not help here
    assert "lh config init" not in r.err and "check the path" in r.err


def test_validate_the_configured_file_when_it_does_not_exist_points_at_init(isolated_home):
    from lazy_harness import paths

    r = invoke("config", "validate", paths.config_file())
    assert r.code == 1 and "does not exist" in r.err and "lh config init" in r.err


def test_validate_syntax_error_through_the_console_script_has_no_traceback(tmp_path):
    path = write(tmp_path / "c.toml", "[compound_loop]\nenabled = true\nmodel = \n")
    p = run("config", "validate", str(path))
    assert p.returncode == 1
    assert "Traceback" not in p.stdout + p.stderr
    assert f"{path}:3: TOML syntax error" in p.stdout + p.stderr


def test_validate_every_kind_of_bad_file_without_traceback(tmp_path):
    bad = tmp_path / "bin.toml"
    bad.write_bytes(b"\xff\xfe[")
    for target in (bad, tmp_path):  # not UTF-8; a folder
        p = run("config", "validate", str(target))
        assert p.returncode == 1
        assert "Traceback" not in p.stdout + p.stderr
        assert p.stdout.startswith(str(target))
        assert p.stdout.endswith(": 1 error; not the file lh reads, which is " + paths.config_file() + "\n")


def test_show_prints_effective_values_as_toml_with_their_source(tmp_path, monkeypatch):
    path = write(tmp_path / "c.toml", "[compound_loop]\nenabled = true\nmodel = \"m1\"\n")
    monkeypatch.setenv("LH_CONFIG", str(path))
    r = invoke("config", "show")
    assert r.code == 0
    shown = tomllib.loads(r.out)
    expected = config.defaults()
    expected["compound_loop"].update(enabled=True, model="m1")
    assert shown == expected
    lines = r.out.splitlines()
    assert "enabled = true  # config file" in lines
    assert 'model = "m1"  # config file' in lines
    assert "min_messages = 4  # default" in lines
    assert f"# config file: {path}" in r.out
    assert f"# knowledge dir: {paths.knowledge_dir()}" in r.out


def test_validate_and_show_report_a_capped_value(tmp_path, monkeypatch):
    path = write(tmp_path / "c.toml", "[context]\nmax_chars = 50000\n[recall]\nmax_chars = 900\n")
    r = invoke("config", "validate", str(path))
    assert r.code == 0
    assert f"{path}:2: warning: context.max_chars: 50000 is above the cap of 9500; 9500 is used\n" in r.out
    assert r.out.endswith(f"{path}: valid, 1 warning\n")
    monkeypatch.setenv("LH_CONFIG", str(path))
    shown = invoke("config", "show")
    assert shown.code == 0
    lines = shown.out.splitlines()
    assert lines[lines.index("[context]") + 2] == (
        "max_chars = 9500  # config file, capped (the file says 50000, the cap is 9500)")
    assert lines[lines.index("[recall]") + 2] == "max_chars = 900  # config file"
    assert "context.max_chars: 50000 is above the cap" in shown.err


def test_show_without_a_file_says_so(isolated_home):
    r = invoke("config", "show")
    assert r.code == 0
    assert "(not present: all defaults)" in r.out
    assert tomllib.loads(r.out) == config.defaults()


def test_show_with_a_wrong_value_shows_defaults_for_it_and_exits_one(tmp_path, monkeypatch):
    path = write(tmp_path / "c.toml", "[compound_loop]\ndebounce_seconds = \"soon\"\n")
    monkeypatch.setenv("LH_CONFIG", str(path))
    r = invoke("config", "show")
    assert r.code == 1
    assert "compound_loop.debounce_seconds: expected an integer" in r.err
    assert tomllib.loads(r.out)["compound_loop"]["debounce_seconds"] == 60


@pytest.mark.parametrize("key", ["queue", "logs", "claude dir", "memory dir (this folder)"])
def test_show_lists_the_resolved_locations(key, isolated_home):
    r = invoke("config", "show")
    assert f"# {key}: " in r.out


def test_show_says_a_value_under_its_floor_was_raised(tmp_path, monkeypatch):
    path = write(tmp_path / "c.toml", "[recall]\nmax_chars = 200\n")
    monkeypatch.setenv("LH_CONFIG", str(path))
    shown = invoke("config", "show")
    assert shown.code == 0
    lines = shown.out.splitlines()
    assert lines[lines.index("[recall]") + 2] == (
        "max_chars = 820  # config file, raised (the file says 200, the floor is 820)")
