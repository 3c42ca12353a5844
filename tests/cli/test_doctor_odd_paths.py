"""lh doctor with paths out of the ordinary: a HOME given relative to the current folder, and a cache
folder whose name holds a character a URI reads as syntax (``#``, ``?``, ``%``)."""

import os
import subprocess

from lazy_harness import paths

from tests.cli.lhrun import invoke, lh_script


def test_a_relative_home_whose_folders_do_not_exist_yet_ends(tmp_path, isolated_home):
    """The writable check walked up from a missing folder to one that exists; from a relative path it
    reached "" and walked on forever, and lh doctor never ended."""
    env = dict(os.environ, HOME="relhome")
    # why a timeout: it bounds the hang the test is about, nothing waits on it otherwise
    p = subprocess.run([*lh_script(), "doctor"], capture_output=True, text=True, timeout=60, env=env, cwd=tmp_path)
    assert "Traceback" not in p.stderr
    lines = {ln.split(":", 1)[0].split(None, 1)[1]: ln for ln in p.stdout.splitlines() if ":" in ln}
    assert lines["queue folder"].startswith("ok") and "relhome/.claude/queue (created on first use)" in lines[
        "queue folder"], p.stdout
    assert lines["log folder"].startswith("ok"), p.stdout
    assert not (tmp_path / "relhome").exists()  # read-only: nothing made


def test_an_index_in_a_folder_named_with_a_hash_reads(tmp_path, monkeypatch, isolated_home):
    """The index was opened as ``file:<path>?mode=ro``: a ``#`` in the path ended the URI there, so a
    sound index was said unreadable, and the hint (reindex) did not help."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache #1 ?x %41"))
    assert invoke("memory", "reindex").code == 0
    assert os.path.isfile(paths.recall_index_file())
    before = sorted(os.listdir(tmp_path))
    found = [ln for ln in invoke("doctor").out.splitlines() if "recall index:" in ln]
    assert found == [f"ok    recall index: {paths.recall_index_file()} reads"]
    assert sorted(os.listdir(tmp_path)) == before  # read-only: no database made where the URI ended
