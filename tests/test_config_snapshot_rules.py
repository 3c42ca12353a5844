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
    with monkeypatch.context() as older:  # a version without the floor, and its schema file
        older.setattr(validate, "FLOORS", {})
        older.setattr(config, "_schema_stamp", lambda: ["/elsewhere/lazy_harness/config/schema.py", 1, 2, 3])
        assert config.load_fast()["recall"]["max_chars"] == 200
    assert config.load_fast()["recall"]["max_chars"] == 820


def test_the_snapshot_is_keyed_by_the_schema_file_as_it_is_now(isolated_home, tmp_path, monkeypatch):
    """An upgrade or an edit of schema.py gives the file another size, mtime or inode: the snapshot
    compiled under the file before is not used. The schema's contents are not read for it (a hook whose
    snapshot is current does not import config/schema.py: tests/hooks/test_entry_imports.py)."""
    path = paths.config_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write("[recall]\nmax_chars = 200\n")
    schema = tmp_path / "lazy_harness" / "config" / "schema.py"
    schema.parent.mkdir(parents=True)
    schema.write_text("# the schema as installed\n")
    monkeypatch.setattr(config, "__file__", str(schema.parent / "__init__.py"))
    assert config.load_fast()["recall"]["max_chars"] == 820
    with monkeypatch.context() as older:
        older.setattr(validate, "FLOORS", {})
        schema.write_text("# the schema after an upgrade, one line longer\n\n")
        assert config.load_fast()["recall"]["max_chars"] == 200
    schema.write_text("# the schema as installed\n")
    assert config.load_fast()["recall"]["max_chars"] == 820
