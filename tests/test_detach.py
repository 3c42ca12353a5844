"""Detaching lives in one place, ``detach.py``: nothing else in src starts a process in a new
session, forks, or calls ``posix_spawn``/``os.spawn*`` (read with ``ast``, so a lazy import or an
aliased call is seen too)."""

import ast
import os
import sys

import lazy_harness
from lazy_harness import detach

SRC = os.path.dirname(os.path.abspath(lazy_harness.__file__))
THE_SITE = os.path.join(SRC, "detach.py")
# why: proc.run waits for its child; the new session only lets a timeout kill the child's own
# children with it (os.killpg). Nothing outlives the call, so it is not a detach
# why: a process group of its own so a timeout kills it whole; each is waited for, never left behind
# (codex_trust_server.py: the app-server's JSON-RPC conversation, closed and waited for in AppServer.close)
WAITED_FOR = {os.path.join(SRC, "proc.py"): {"start_new_session"},
              os.path.join(SRC, "codex_trust_server.py"): {"start_new_session"}}

CALLS = {"setsid", "setpgid", "setpgrp", "fork", "forkpty", "daemon", "posix_spawn", "posix_spawnp",
         "spawnl", "spawnle", "spawnlp", "spawnlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe"}
KEYWORDS = {"start_new_session", "setsid", "setpgroup", "process_group", "preexec_fn"}


def detaching(path: str) -> set[str]:
    """What in ``path`` starts a process apart from its caller: the names of calls (``os.setsid``,
    ``posix_spawn``...) and of keywords (``start_new_session=``, ``setsid=``...) it uses."""
    with open(path, encoding="utf-8") as fh:
        tree = ast.parse(fh.read(), path)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in CALLS:
                found.add(name)
            found |= {k.arg for k in node.keywords if k.arg in KEYWORDS}
        elif isinstance(node, ast.ImportFrom) and node.module == "os":
            found |= {a.name for a in node.names if a.name in CALLS}
    return found


def test_the_reader_sees_each_way_of_detaching(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("import os, subprocess\nfrom os import setsid as s\n\ndef f():\n"
                     "    subprocess.Popen(['x'], start_new_session=True)\n"
                     "    os.posix_spawn('x', ['x'], {}, setsid=True)\n"
                     "    subprocess.run(['x'], preexec_fn=os.setsid)\n    subprocess.run(['x'])\n")
    assert detaching(str(probe)) == {"setsid", "start_new_session", "posix_spawn", "preexec_fn"}


def test_detach_py_is_the_only_module_that_detaches():
    assert detaching(THE_SITE)  # the reader does see the one site
    others = {}
    for folder, _, names in os.walk(SRC):
        for name in names:
            path = os.path.join(folder, name)
            if not name.endswith(".py") or path == THE_SITE:
                continue
            found = detaching(path) - WAITED_FOR.get(path, set())
            if found:
                others[os.path.relpath(path, SRC)] = sorted(found)
    assert not others, f"detach through lazy_harness.detach, not: {others}"


def test_a_detached_program_gets_no_stdin_and_writes_to_the_log(tmp_path):
    log = tmp_path / "logs" / "spawn.log"
    done = tmp_path / "done"
    script = (f"import os, sys; print(sys.stdin.read() == '', os.getsid(0) == os.getpid(), flush=True); "
              f"open({str(done)!r}, 'w').close()")
    pid = detach.spawn([sys.executable, "-c", script], str(log), dict(os.environ))
    assert os.waitpid(pid, 0)[1] == 0  # our own child: wait for it, no sleep
    assert done.exists() and log.read_text() == "True True\n"


def test_a_detached_program_answers_on_its_pipe(tmp_path):
    log = tmp_path / "spawn.log"
    script = "import os, sys; print('pulled', os.getsid(0) == os.getpid()); print('oops', file=sys.stderr)"
    pid, fd = detach.spawn_answering([sys.executable, "-c", script], str(log), dict(os.environ))
    try:
        said = b""
        while chunk := os.read(fd, 512):
            said += chunk
    finally:
        os.close(fd)
    assert os.waitpid(pid, 0)[1] == 0
    assert said == b"pulled True\n" and log.read_text() == "oops\n"


def test_a_program_we_start_is_not_broken_by_the_persons_python_variables(tmp_path, monkeypatch):
    """The hooks run isolated (-I); what they start (the worker, the sync, the answerer) gets the
    person's environment: a PYTHONHOME of another Python would stop it, and a relative PYTHONPATH
    entry (``:``, ``.``) would put the session's project folder, its working folder, on its path."""
    project, mods, log = tmp_path / "project", tmp_path / "mods", tmp_path / "spawn.log"
    project.mkdir()
    mods.mkdir()
    (project / "datetime.py").write_text(f"open({str(tmp_path / 'ran')!r}, 'w').close()\n")
    done = tmp_path / "done"
    (mods / "childmod.py").write_text(f"import datetime\nopen({str(done)!r}, 'w').close()\n")
    monkeypatch.chdir(project)
    env = dict(os.environ, PYTHONHOME="/nonexistent", PYTHONPATH=f":.:{mods}")
    pid = detach.spawn(detach.module_argv("childmod"), str(log), env)
    assert os.waitpid(pid, 0)[1] == 0, log.read_text()
    assert done.exists() and not (tmp_path / "ran").exists()
