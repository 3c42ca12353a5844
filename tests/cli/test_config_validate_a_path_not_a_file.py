"""``lh config validate PATH`` with a PATH that is not a file (``/dev/null``, the home folder, a FIFO)
says so and asks for the path of a config.toml; before, it hinted ``move /dev/null aside`` and ``move
<home> aside``: harmful to follow. lh's own config.toml in its own place that is not a file keeps
``move <file> aside, then lh config init writes a new one`` (right there); one that ``$LH_CONFIG``
names elsewhere is pointed at a file instead, and a link to such a thing is removed, not what it
leads to moved."""

import os

import pytest

from lazy_harness import paths, private
from tests.cli.lhrun import invoke

ASIDE = " aside"


def _given(path: str) -> list[str]:
    """The lines of ``lh config validate PATH`` (refused: exit 1)."""
    r = invoke("config", "validate", path)
    assert r.code == 1, r
    return (r.out + r.err).splitlines()


@pytest.mark.parametrize("what", ["/dev/null", "home", "folder", "fifo"])
def test_a_path_given_that_is_not_a_file_asks_for_a_config_toml(what, isolated_home, tmp_path):
    path = {"/dev/null": "/dev/null", "home": str(isolated_home), "folder": str(tmp_path / "drafts"),
            "fifo": str(tmp_path / "config.toml")}[what]
    if what == "folder":
        os.mkdir(path)
    if what == "fifo":
        os.mkfifo(path)
    lines = _given(path)
    assert lines[0] == (f"{path}: not read: {path} is not a regular file (hint: give the path of a config.toml "
                        f"file; with no PATH this checks {paths.config_file()})"), lines
    assert not any(ASIDE in line for line in lines), lines
    assert lines[-1] == f"{path}: 1 error; not the file lh reads, which is {paths.config_file()}", lines


def test_lhs_own_config_toml_in_its_place_that_is_a_folder_is_still_moved_aside():
    target = paths.config_file()
    os.makedirs(target)
    for lines in (_given(target), (invoke("config", "validate").out.splitlines())):
        assert f"(hint: move {target} aside, then lh config init writes a new one)" in lines[0], lines


def test_a_config_toml_lh_config_names_that_is_not_a_file_is_pointed_elsewhere(isolated_home, monkeypatch):
    monkeypatch.setenv("LH_CONFIG", str(isolated_home))
    lines = invoke("config", "validate").out.splitlines()
    assert lines[0] == (f"{isolated_home}: not read: {isolated_home} is not a regular file; lh uses the defaults "
                        f"(hint: point LH_CONFIG at a config.toml file ({isolated_home} is not one))"), lines
    why = private.config_problem()
    assert why is not None and ASIDE not in private.fix(paths.config_file(), why)


def test_a_config_toml_linked_to_dev_null_is_unlinked_not_dev_null_moved():
    target = paths.config_file()
    os.makedirs(os.path.dirname(target), mode=0o700)
    os.symlink("/dev/null", target)
    lines = invoke("config", "validate").out.splitlines()
    assert lines[0] == (f"{target}: not read: /dev/null is not a regular file; lh uses the defaults (hint: remove "
                        f"the link {target} (it leads to /dev/null), then lh config init writes a new one)"), lines
    assert not any("move /dev/null" in line for line in lines), lines


def test_another_file_of_ours_that_is_not_a_file_is_still_moved_aside(monkeypatch, tmp_path):
    """The hooks' bundle (lh doctor names the fix for its folder): neither config.toml nor a link to it."""
    bundle = os.path.join(paths.cache_dir(), "hooks", "bundle")
    why = f"{bundle} is not a regular file"
    assert private.fix(os.path.dirname(bundle), why) == f"move {bundle} aside"
    monkeypatch.setenv("LH_CONFIG", str(tmp_path / "config.toml"))
    assert private.fix(os.path.dirname(bundle), why) == f"move {bundle} aside"
