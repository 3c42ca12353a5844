"""A scratch folder lh hands to another program (the schema file ``codex exec`` reads, the ``CODEX_HOME``
of the app-server that hashes our hooks) is made in the system's temporary folder only when no other
user can rename in it or in a folder above it (ADR 0031's rule for a folder of ours). In a ``TMPDIR``
another user can rename in, they could swap the new folder for their own between its making and its use:
a ``schema.json`` there that is a link to the person's ``~/.bashrc`` was written through, a
``config.toml`` there was loaded by Codex as the person's."""

import os

import pytest

from lazy_harness import codex_trust, paths
from lazy_harness.config import defaults
from lazy_harness.worker import codex_distill
from tests.support import fake_codex, fake_codex_app_server
from tests.support.as_person import PERSON, as_root, made_by


def open_to_others(tmp_path) -> str:
    """A folder any local user can rename in: 0777 without the sticky bit (the person's own here, so
    that the test runs unprivileged too; one of another user's is below)."""
    path = tmp_path / "shared-tmp"
    path.mkdir()
    os.chmod(path, 0o777)
    return str(path)


def schema_path_given(tmp_path, monkeypatch) -> str:
    fake = fake_codex.use(tmp_path, monkeypatch)
    cfg = defaults()
    cfg["worker"]["distiller"] = "codex"
    workdir = tmp_path / "neutral"
    workdir.mkdir()
    codex_distill.call("p", cfg, dict(os.environ), str(workdir))
    [rec] = fake_codex.calls(fake)
    return rec["argv"][rec["argv"].index("--output-schema") + 1]


def test_the_schema_is_not_written_in_a_tmpdir_others_may_rename_in(tmp_path, monkeypatch, tmpdir_at):
    shared = tmpdir_at(open_to_others(tmp_path))

    given = schema_path_given(tmp_path, monkeypatch)

    assert not paths.is_within(given, shared)
    assert paths.is_within(given, paths.cache_dir())
    assert os.listdir(shared) == []


@as_root
def test_the_schema_is_not_written_in_a_tmpdir_of_another_user(tmp_path, monkeypatch, tmpdir_at):
    theirs = tmpdir_at(made_by(str(tmp_path / "theirs"), PERSON, 0o1777))

    given = schema_path_given(tmp_path, monkeypatch)

    assert not paths.is_within(given, theirs) and os.listdir(theirs) == []


def test_a_tmpdir_of_the_persons_closed_to_others_is_still_used(tmp_path, monkeypatch, tmpdir_at):
    mine = tmp_path / "my-tmp"
    mine.mkdir(mode=0o700)
    tmpdir_at(mine)

    given = schema_path_given(tmp_path, monkeypatch)

    assert paths.is_within(given, str(mine))
    assert os.listdir(mine) == []  # removed after the call


def test_codex_homes_scratch_is_not_made_in_a_tmpdir_others_may_rename_in(tmp_path, monkeypatch, tmpdir_at):
    shared = tmpdir_at(open_to_others(tmp_path))
    bin_dir = tmp_path / "bin"
    fake_codex_app_server.install(bin_dir)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    group = {"hooks": [{"type": "command", "command": "lh-hook Stop --agent codex"}]}

    codex_trust.our_hashes([("stop:0:0", "Stop", group)])

    homes = [c["codex_home"] for c in fake_codex_app_server.calls(bin_dir) if c["argv"][:1] == ["app-server"]]
    assert homes and not any(paths.is_within(h, shared) for h in homes)
    assert os.listdir(shared) == []


def test_the_fallback_is_refused_when_the_cache_is_not_the_persons(tmp_path, monkeypatch, tmpdir_at):
    tmpdir_at(open_to_others(tmp_path))
    cache = tmp_path / "open-cache"
    cache.mkdir()
    os.chmod(cache, 0o777)
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    (cache / "lazy-harness").mkdir(mode=0o777)
    os.chmod(cache / "lazy-harness", 0o777)

    from lazy_harness import scratch

    with pytest.raises(scratch.Refused) as got:
        scratch.folder("lh-codex-")

    assert "lazy-harness" in str(got.value) and "TMPDIR" in str(got.value)
