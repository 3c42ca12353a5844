"""What a remote chose (a learning's file name, an entry's id) reaches the lines a round prints:
``lh sync``'s ``conflict:`` lines, ``lh sync --status`` and worker.log. Anyone who can push to the
remote chooses that text, so a terminal escape in it must reach no terminal as a control sequence
(a retitled window, a cleared screen, a line shown reversed). Real git, two machine homes, one bare
remote."""

from lazy_harness import sync
from tests.test_sync import Machine, _git

# retitles the window, clears the screen, reverses what follows
EVIL = "knowledge/learnings/2026-01/2026-01-02-\x1b]0;owned\x07\x1b[2J\u202eretry.md"
HEAD = "---\ntitle: Retry the model call\nstatus: active\nproject_folder: -work-demo\n---\n"


def test_a_remote_file_name_holding_escapes_is_printed_escaped(tmp_path):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    a, b = Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")
    a.add("decision", "Use SQLite for the index")
    a.sync()
    b.sync()
    p = b.data / EVIL  # whoever can push names a learning as they like
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(HEAD + "Retry twice.\n")
    b.sync()
    a.sync()
    (a.data / EVIL).write_text(HEAD + "Retry twice, 2 s apart (edited on a).\n")
    (b.data / EVIL).write_text(HEAD + "Retry three times (edited on b).\n")
    b.sync()
    result = a.sync()
    [said] = result["conflicts"]
    assert "edited on both machines" in said
    assert not any(c in said for c in "\x1b\x07\u202e") and "\\u001b" in said
    assert sync.status(a.cfg, a.env)["conflicts"] == [said]


def test_a_stale_lock_of_a_remote_branch_is_named_escaped(tmp_path):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    a = Machine(tmp_path, remote, "a")
    a.add("decision", "Use SQLite for the index")
    a.sync()
    # a round killed while it fetched a branch the remote named (git refuses C0 controls in a ref name,
    # not an 8-bit CSI or a bidi override)
    refs = a.data / ".git" / "refs" / "remotes" / "origin"
    refs.mkdir(parents=True, exist_ok=True)
    (refs / "fix-\x9b2J\u202eretry.lock").write_text("")
    [said] = a.sync()["repaired"]
    assert said.startswith("removed a stale refs/remotes/origin/fix-")
    assert not any(c in said for c in "\x9b\u202e") and "\\u009b2J\\u202eretry" in said
