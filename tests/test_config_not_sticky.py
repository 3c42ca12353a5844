"""A config.toml that could not be read for a reason outside the file (an import broken by a hostile
PYTHONPATH, a read error) is not remembered as invalid: the next hook reads the file again, and a valid
file is valid. What the file itself holds wrong (its syntax, a value) is kept until it changes."""

import os

from lazy_harness import config, paths
from lazy_harness.config import validate


def _write(text: str) -> None:
    path = paths.config_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write(text)


def test_a_failure_of_one_run_is_not_kept_in_the_snapshot(isolated_home, monkeypatch):
    _write("[compound_loop]\nenabled = true\n")

    def broken(*_a, **_k):
        raise ImportError("cannot import name 'date' from 'datetime' (/work/project/datetime.py)")

    with monkeypatch.context() as m:
        m.setattr(validate, "parse_bytes", broken)
        assert config.invalid(config.load_fast())  # this run: defaults, and why
    cfg = config.load_fast()
    assert config.invalid(cfg) is None and cfg["compound_loop"]["enabled"] is True


def test_what_the_file_holds_wrong_is_kept_until_it_changes(isolated_home, monkeypatch):
    _write("[compound_loop]\nenabled = \n")
    assert config.invalid(config.load_fast())
    calls = []
    real = validate.parse_bytes
    monkeypatch.setattr(validate, "parse_bytes", lambda *a, **k: calls.append(1) or real(*a, **k))
    assert config.invalid(config.load_fast())
    assert not calls  # read from the snapshot: the file did not change
