"""A remote path whose name this machine cannot write: a name longer than the file system takes (255
bytes), or bytes that are not UTF-8. git stores either in a tree and pushes it; anyone who can push
can add one. Each round of every machine then stopped in git's checkout with an error that named no
way out (``git checkout-index failed: ... File name too long``, ``... is not in the cache``). The
round refuses such a remote before merging, naming the path and what to do, like any other stranger
(docs/how/sync.md, "A remote that holds something other than memory"). Real git, one machine home,
one bare remote, a plain clone that pushes the name."""

import subprocess

import pytest

from lazy_harness import sync
from tests.test_sync import Machine, _git

LEARNING = b"---\ntitle: Retry\nstatus: active\n---\nRetry twice.\n"


def _push_name(tmp_path, remote, name: bytes, gone: bool = False) -> None:
    """Add (or with ``gone`` remove) a file of that name on the remote, as a plain clone of it can."""
    clone = tmp_path / "other"
    if not clone.exists():
        _git("clone", "-q", "-b", "main", str(remote), str(clone))
    _git("pull", "-q", cwd=clone)
    if gone:
        subprocess.run([b"git", b"rm", b"-q", b"--cached", b"--", name], cwd=clone, check=True)
    else:
        blob = subprocess.run(["git", "hash-object", "-w", "--stdin"], cwd=clone, input=LEARNING,
                              capture_output=True, check=True).stdout.strip()
        subprocess.run([b"git", b"update-index", b"--add", b"--cacheinfo", b"100644," + blob + b"," + name],
                       cwd=clone, check=True)
    _git("-c", "user.name=x", "-c", "user.email=x@x", "commit", "-q", "-m", "x", cwd=clone)
    _git("push", "-q", "origin", "main", cwd=clone)


@pytest.mark.parametrize(("name", "why"), [
    (b"knowledge/learnings/2026-01/2026-01-02-" + b"retry-" * 50 + b".md", "longer than 255 bytes"),
    (b"knowledge/learnings/2026-01/2026-01-02-caf\xe9.md", "not UTF-8"),
])
def test_a_name_this_machine_cannot_write_is_refused_naming_it(tmp_path, name, why):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", "-b", "main", str(remote))
    a = Machine(tmp_path, remote, "a")
    a.add("decision", "Use a file queue")
    a.sync()
    _push_name(tmp_path, remote, name)
    a.add("decision", "Made here meanwhile")
    before = (a.mdir / "decisions.jsonl").read_bytes()
    with pytest.raises(sync.SyncError) as exc:
        a.sync()
    said = exc.value.message
    assert why in said and "refused, nothing merged" in said and "2026-01-02-" in said
    assert "delete it on the remote" in (exc.value.hint or "")
    assert (a.mdir / "decisions.jsonl").read_bytes() == before
    _push_name(tmp_path, remote, name, gone=True)  # deleted on the remote: the rounds go on
    assert a.sync()["pushed"]


def test_a_dotted_path_no_clone_checks_out_gets_a_hint_that_works(tmp_path):
    """``projects/../../../escape.jsonl`` (a tree git's plumbing can push): refused, nothing written outside
    the data folder, and the hint, which said "delete it on the remote" (a clone's checkout fails on it
    and ``git rm`` calls it outside the repository), says to push the branch back over it; done as it
    says, the rounds go on."""
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", "-b", "main", str(remote))
    a = Machine(tmp_path, remote, "a")
    a.add("decision", "Use a file queue")
    a.sync()
    evil = tmp_path / "evil"
    _git("clone", "-q", "--no-checkout", str(remote), str(evil))

    def run(*args: str, given: bytes | None = None) -> str:
        return subprocess.run(["git", *args], cwd=evil, input=given, capture_output=True, check=True).stdout.decode()

    blob = run("hash-object", "-w", "--stdin", given=b'{"summary": "escaped"}\n').strip()
    tree = run("mktree", given=f"100644 blob {blob}\tescape.jsonl\n".encode()).strip()
    for _ in range(3):
        tree = run("mktree", given=f"040000 tree {tree}\t..\n".encode()).strip()
    projects = run("mktree", given=(run("ls-tree", "HEAD:projects") + f"040000 tree {tree}\t..\n").encode()).strip()
    top = "".join(ln + "\n" for ln in run("ls-tree", "HEAD").splitlines() if not ln.endswith("\tprojects"))
    root = run("mktree", given=(top + f"040000 tree {projects}\tprojects\n").encode()).strip()
    commit = run("-c", "user.name=x", "-c", "user.email=x@x", "commit-tree", root, "-p", "HEAD", "-m", "dots").strip()
    run("push", "-q", "origin", f"{commit}:refs/heads/main")
    with pytest.raises(sync.SyncError) as exc:
        a.sync()
    assert "'..'" in exc.value.message and "refused, nothing merged" in exc.value.message, exc.value.message
    hint = exc.value.hint or ""
    assert "git rm" in hint and "--no-checkout" in hint and "git push --force origin <that commit>:main" in hint, hint
    assert not list(tmp_path.rglob("escape.jsonl"))
    run("push", "-q", "--force", "origin", "HEAD:main")  # as the hint says: the commit before it
    a.add("decision", "Made here after")
    assert a.sync()["pushed"]
