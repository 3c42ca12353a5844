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


def test_a_schema_rewritten_with_its_size_mtime_and_inode_is_another_schema(isolated_home, tmp_path, monkeypatch):
    """An upgrade that writes schema.py over the old file (``cp -p``, an installer that keeps the
    wheel's mtimes and is given the freed inode again) of the same size leaves size, mtime and inode as
    they were: the change time (which no writer sets) and the version say the schema is another."""
    path = paths.config_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write("[recall]\nmax_chars = 200\n")
    schema = tmp_path / "lazy_harness" / "config" / "schema.py"
    schema.parent.mkdir(parents=True)
    schema.write_text("# the schema of 0.1.0\n")
    monkeypatch.setattr(config, "__file__", str(schema.parent / "__init__.py"))
    before = os.stat(schema)
    with monkeypatch.context() as older:
        older.setattr(validate, "FLOORS", {})
        assert config.load_fast()["recall"]["max_chars"] == 200
    with open(schema, "r+") as fh:  # the same inode, the same size, the wheel's mtime
        fh.write("# the schema of 0.2.0\n")
    os.utime(schema, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.stat(schema)
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (before.st_ino, before.st_size, before.st_mtime_ns)
    assert config.load_fast()["recall"]["max_chars"] == 820


def test_another_version_with_the_same_schema_file_stat_compiles_again(isolated_home, tmp_path, monkeypatch):
    """Two installs whose schema.py stat alike (a restored backup, an image built twice) but whose
    versions differ: the version is part of the key (the compile's rules live beside schema.py too)."""
    import lazy_harness

    path = paths.config_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write("[recall]\nmax_chars = 200\n")
    with monkeypatch.context() as older:
        older.setattr(validate, "FLOORS", {})
        older.setattr(lazy_harness, "__version__", "0.1.0")
        assert config.load_fast()["recall"]["max_chars"] == 200
    assert config.load_fast()["recall"]["max_chars"] == 820
