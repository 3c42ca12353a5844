"""``lh config validate`` names the fix for a config.toml the loaders refuse, as every other command
does: a folder where the file belongs, a file it cannot read."""

import errno
import os

from lazy_harness import paths
from tests.cli.lhrun import invoke


def test_validate_of_a_config_toml_that_is_a_folder_says_move_it_aside():
    target = paths.config_file()
    os.makedirs(target)
    r = invoke("config", "validate")
    assert r.code == 1, r
    text = r.out + r.err
    assert f"(hint: move {target} aside, then lh config init writes a new one)" in text, text
    assert "chmod" not in text, text


def test_validate_of_an_unreadable_config_toml_says_chmod_600(monkeypatch):
    target = paths.config_file()
    os.makedirs(os.path.dirname(target), mode=0o700)
    with open(target, "w") as fh:
        fh.write("[recall]\n")
    os.chmod(target, 0o600)
    real = os.open

    def denied(path, flags, mode=0o777, *, dir_fd=None):  # as a mode-000 file without root's override
        if dir_fd is not None and path == os.path.basename(target):
            raise PermissionError(errno.EACCES, "Permission denied", path)
        return real(path, flags, mode, dir_fd=dir_fd)

    monkeypatch.setattr(os, "open", denied)
    r = invoke("config", "validate")
    text = r.out + r.err
    assert r.code == 1 and f"(hint: chmod 600 {target})" in text, text
