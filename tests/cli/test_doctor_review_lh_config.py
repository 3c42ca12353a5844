"""Review: with ``$LH_CONFIG`` naming a file that is not there (a typo, a dotfiles folder moved), every
key silently took its default and ``lh doctor`` said ``ok config: no file at ...``. The person asked
for that file by name: doctor warns, and says how to make it or point LH_CONFIG elsewhere."""

from tests.cli.lhrun import invoke


def _config_line(out: str) -> str:
    return next(line for line in out.splitlines() if "  config: " in line)


def test_doctor_warns_when_lh_config_names_a_missing_file(tmp_path, monkeypatch):
    missing = tmp_path / "dotfiles" / "lh.toml"
    monkeypatch.setenv("LH_CONFIG", str(missing))
    line = _config_line(invoke("doctor").out)
    assert line.startswith("warn")
    assert f"LH_CONFIG names {missing}, which does not exist" in line
    assert "lh config init" in line and "LH_CONFIG" in line.split("hint:", 1)[1]


def test_doctor_says_ok_for_no_file_at_the_default_place():
    line = _config_line(invoke("doctor").out)
    assert line.startswith("ok") and "no file at" in line


def test_doctor_reads_an_lh_config_file_that_exists(tmp_path, monkeypatch):
    conf = tmp_path / "lh.toml"
    conf.write_text("[handoff]\nstale_days = 30\n")
    conf.chmod(0o600)
    monkeypatch.setenv("LH_CONFIG", str(conf))
    line = _config_line(invoke("doctor").out)
    assert line.startswith("ok") and f"{conf} is valid" in line


def test_doctor_warns_that_a_relative_lh_config_is_ignored(monkeypatch):
    """A relative LH_CONFIG is no file lh reads (a hook runs in every project's folder): doctor says so,
    naming the value and the file read instead, as it warns of one naming a missing file."""
    from lazy_harness import paths

    monkeypatch.setenv("LH_CONFIG", "conf/lh.toml")
    line = _config_line(invoke("doctor").out)
    assert line.startswith("warn"), line
    assert f"LH_CONFIG is relative (conf/lh.toml) and ignored: lh reads {paths.config_file()}" in line, line
    assert "absolute path" in line.split("hint:", 1)[1]


def test_doctor_says_nothing_of_an_empty_lh_config(monkeypatch):
    monkeypatch.setenv("LH_CONFIG", "")
    assert "LH_CONFIG" not in invoke("doctor").out
