"""The hooks' config snapshot is compiled under the validation rules of the version that wrote it: a
version whose floors, caps or defaults differ reads config.toml again instead of keeping the old
values until the person happens to edit the file."""

import os

from lazy_harness import config, paths
from lazy_harness.config import validate


def test_a_snapshot_made_under_other_rules_is_not_used(isolated_home, monkeypatch):
    path = paths.config_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write("[recall]\nmax_chars = 200\n")
    with monkeypatch.context() as older:  # a version without the floor, and its stamp of the schema
        older.setattr(validate, "FLOORS", {})
        older.setattr(config, "_SCHEMA_STAMP", " ".join(f"{s}.{k}" for s, keys in config.SCHEMA.items()
                                                         for k in keys))
        assert config.load_fast()["recall"]["max_chars"] == 200
    assert config.load_fast()["recall"]["max_chars"] == 820
