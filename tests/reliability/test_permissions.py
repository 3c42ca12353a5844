"""Permissions: what lazy-harness creates is private, and a forged task cannot point the worker
anywhere but the Claude dir's projects folder."""

import os
import stat
import subprocess
import sys

import pytest

from lazy_harness import paths, queue
from tests.reliability import rig
from tests.support import fake_claude
from tests.support.sessions import wait_finished


def _mode(path: str) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def _tree(root: str) -> list[str]:
    out = [root]
    for d, dirs, files in os.walk(root):
        out += [os.path.join(d, n) for n in dirs + files]
    return out


def test_queue_log_and_memory_files_are_created_private(loop_on, model, tmp_path):
    """Run with umask 000, so a file or folder created without an explicit mode would show up."""
    proj = rig.project(tmp_path, "shop")
    good = rig.session(proj, rig.new_token())
    failing = rig.session(proj)  # no token: the fake model fails on it, so failed/ and .error exist too
    rig.configure(loop_on, max_attempts=2)
    fake_claude.control(model, mode="ok", template=rig.TEMPLATE, need_token=True)
    transcripts_dir = os.path.dirname(good["transcript_path"])
    old = os.umask(0)
    try:
        rig.hook("SessionEnd", failing)
        rig.hook("SessionEnd", good)
        wait_finished(paths.queue_dir(), timeout=rig.WAIT, count=2)
        rig.wait_workers_gone()
    finally:
        os.umask(old)
    assert len(rig.tasks("done")) == 1 and len(rig.tasks("failed")) == 1

    claude = paths.claude_dir()
    ours = [p for p in _tree(claude)
            if p != claude and p != paths.projects_dir()
            and not (p == transcripts_dir or os.path.dirname(p) == transcripts_dir and p.endswith(".jsonl"))]
    ours += _tree(paths.data_dir())  # knowledge/ and projects/
    wrong = {p: oct(_mode(p)) for p in ours if _mode(p) != (0o700 if os.path.isdir(p) else 0o600)}
    assert wrong == {}
    # and the list covered what the issue names
    q = paths.queue_dir()
    mdir = rig.memory(proj)
    must = [q, *(os.path.join(q, w) for w in ("tmp", "processing", "done", "failed", "state")),
            os.path.join(q, ".worker.lock"), paths.logs_dir(), rig.log_file("hooks.log"), rig.log_file("worker.log"),
            rig.log_file("compound-loop.log"), mdir, os.path.join(mdir, "decisions.jsonl"),
            os.path.join(mdir, "failures.jsonl"), os.path.join(mdir, "handoff.md"), paths.learnings_dir(),
            os.path.join(q, "done", rig.tasks("done")[0]), os.path.join(q, "failed", rig.tasks("failed")[0]),
            os.path.join(q, "failed", rig.tasks("failed")[0] + ".error")]
    learned = rig.learning_files()
    must += learned + [os.path.dirname(p) for p in learned]
    state = os.path.join(q, "state")
    must += [os.path.join(state, n) for n in os.listdir(state)]
    assert set(must) <= set(ours), sorted(set(must) - set(ours))
    assert any(n.endswith(".done") for n in os.listdir(state)) and learned


# --- forged tasks ---------------------------------------------------------------------------------

def _forge(q: str, name: str, fields: dict | None = None, raw: bytes | None = None) -> str:
    """Write a task file straight into the queue, as an attacker with write access to it would."""
    queue.ensure_layout(q)
    data = raw if raw is not None else queue.format_task(fields).encode()
    tmp = os.path.join(q, "tmp", name)
    with open(tmp, "wb") as fh:
        fh.write(data)
    os.replace(tmp, os.path.join(q, name))
    return name


@pytest.fixture
def forged(loop_on, model, tmp_path):
    """A real session, an outside folder holding a copy of it and a planted target, and helpers."""
    proj = rig.project(tmp_path, "shop")
    legit = rig.session(proj, rig.new_token())
    outside = tmp_path / "outside"
    outside.mkdir()
    stolen = outside / "stolen.jsonl"
    secret_token = rig.new_token()
    stolen.write_text(open(legit["transcript_path"]).read().replace("LHTOK-", f"{secret_token} LHTOK-", 1))
    (outside / "memory").mkdir()
    (outside / "precious.txt").write_text("do not touch\n")
    projects = paths.projects_dir()
    key_dir = os.path.dirname(legit["transcript_path"])
    return {"legit": legit, "outside": outside, "stolen": str(stolen), "projects": projects, "key_dir": key_dir,
            "memory": rig.memory(proj), "secret_token": secret_token, "proj": proj}


def _fields(f, **over) -> dict:
    base = {"cwd": str(f["proj"]), "session_jsonl": f["legit"]["transcript_path"],
            "session_id": f["legit"]["session_id"], "memory_dir": f["memory"], "timestamp": "2026-11-22T10:00:00+00:00",
            "event": "SessionEnd", "forced": "1"}
    base.update(over)
    return base


def test_a_forged_task_cannot_make_the_worker_read_or_write_elsewhere(forged, model, tmp_path):
    f = forged
    q = paths.queue_dir()
    out = f["outside"]
    projects, key_dir = f["projects"], f["key_dir"]
    # symlinks planted inside the projects folder, pointing out of it
    os.symlink(f["stolen"], os.path.join(key_dir, "linked.jsonl"))
    os.symlink(str(out), os.path.join(projects, "-evil"))
    os.makedirs(os.path.join(key_dir, "x"))
    os.symlink(str(out / "memory"), os.path.join(projects, "-evil2"))
    # the task file itself a symlink to a task outside the queue
    (out / "outside.task").write_text(queue.format_task(_fields(f, session_jsonl=f["stolen"])))
    rel_up = os.path.relpath(str(out), key_dir)
    cases = {
        "transcript outside": _fields(f, session_jsonl=f["stolen"]),
        "memory outside": _fields(f, memory_dir=str(out / "memory")),
        "transcript via ..": _fields(f, session_jsonl=os.path.join(key_dir, rel_up, "stolen.jsonl")),
        "memory via ..": _fields(f, memory_dir=os.path.join(key_dir, rel_up, "memory")),
        "memory not <projects>/<key>/memory": _fields(f, memory_dir=os.path.join(key_dir, "x", "memory")),
        "memory directly under projects": _fields(f, memory_dir=os.path.join(projects, "memory")),
        "transcript symlinked out": _fields(f, session_jsonl=os.path.join(key_dir, "linked.jsonl")),
        "project folder symlinked out": _fields(f, memory_dir=os.path.join(projects, "-evil", "memory")),
        "memory folder symlinked out": _fields(f, memory_dir=os.path.join(projects, "-evil2")),
        "no paths at all": {"session_id": "x", "event": "Stop"},
    }
    names = {}
    for n, (label, fields) in enumerate(cases.items()):
        names[label] = _forge(q, f"17000000000000000{n:02d}-forged.task", fields)
    names["garbage task file"] = _forge(q, "1700000000000000090-forged.task", raw=os.urandom(4096))
    os.symlink(str(out / "outside.task"), os.path.join(q, "1700000000000000091-forged.task"))
    names["task file symlinked out"] = "1700000000000000091-forged.task"
    before = rig.snapshot(out)

    worker = subprocess.run([sys.executable, "-m", "lazy_harness.worker"], env=dict(os.environ),
                            capture_output=True, timeout=rig.WAIT)

    assert worker.returncode == 0, worker.stderr
    assert rig.snapshot(out) == before  # nothing outside was written (or even created)
    assert fake_claude.calls(model) == []  # nothing was read into a prompt
    assert rig.tasks("") == [] and rig.tasks("processing") == [] and rig.tasks("done") == []
    for label, name in names.items():
        path = os.path.join(q, "failed", name)
        task = queue.read_task(path)
        error = open(path + ".error").read()
        assert task["outcome"] == "failed" and task["reason"].startswith("untrusted task: "), (label, task)
        assert error.strip() == task["reason"], label
    assert not os.path.exists(f["memory"])


def test_a_symlink_planted_in_the_memory_folder_is_refused(forged, model):
    """The memory folder is trusted, but its decisions.jsonl or handoff.md points outside: nothing written."""
    f = forged
    precious = str(f["outside"] / "precious.txt")
    os.makedirs(f["memory"], mode=0o700)
    for n, planted in enumerate(("decisions.jsonl", "handoff.md"), 1):
        target = os.path.join(f["memory"], planted)
        os.symlink(precious, target)
        rig.hook("SessionEnd", f["legit"])
        wait_finished(paths.queue_dir(), timeout=rig.WAIT, count=n)
        rig.wait_workers_gone()
        assert len(rig.tasks("failed")) == n
        task = queue.read_task(os.path.join(paths.queue_dir(), "failed", rig.tasks("failed")[-1]))
        assert "resolves outside" in task["reason"] and planted in task["reason"], task
        assert open(precious).read() == "do not touch\n"
        assert sorted(os.listdir(f["memory"])) == [planted]  # refused before writing anything
        assert rig.learning_files() == []
        os.unlink(target)
    assert rig.tasks("done") == []
