"""The hook entry point stays light: run each event the way Claude Code does and list what it imported.

``python -X importtime -m lazy_harness.hooks <Event>`` names every module imported in the process.
The same for ``python -c pass`` on this interpreter is the baseline (site may import certifi,
pathlib or typing through a .pth file); only what the hook adds on top counts. The run measured is
the second one: the first compiles config.toml into its JSON snapshot (that run may import tomllib).
"""

import json
import os
import subprocess
import sys

import pytest

import lazy_harness
from lazy_harness import hotload
from lazy_harness import paths

from tests.support import memory_samples as ms
from tests.hooks.hookrun import enable_loop, worker_lock_held

BANNED = ("click", "yaml", "filelock", "tomllib", "logging", "dataclasses", "typing", "pathlib", "subprocess",
          "asyncio", "sqlite3", "datetime", "importlib.metadata", "lazy_harness.cli")
# our modules the hot path may load: the entry, the event modules and what they share (the same list
# is compiled into the hooks' bundle: lazy_harness/hotload.py)
ALLOWED_OURS = set(hotload.HOT)
# why: the prompt hook opens its SQLite index through the C module alone (recall.index.sqlite): the
# sqlite3 package would add datetime and collections.abc
ALLOWED_BY_EVENT = {"UserPromptSubmit": {"_sqlite3", "mmap", "struct", "_struct", "itertools", "operator"}}


PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(lazy_harness.__file__)))


def imported(argv: list[str], env: dict, stdin: bytes = b"",
             site: bool = True) -> tuple[subprocess.CompletedProcess, list[str]]:
    """Run ``python -X importtime ARGV`` and return (process, module names in import order).

    ``site=False`` runs with ``-S`` (no site, so nothing a .pth file imports hides a module we load)
    and finds the package through PYTHONPATH.
    """
    flags = ["-X", "importtime"]
    if not site:
        flags.insert(0, "-S")
        env = dict(env, PYTHONPATH=PACKAGE_PARENT)
    p = subprocess.run([sys.executable, *flags, *argv], input=stdin, capture_output=True, env=env, timeout=60)
    names = []
    for line in p.stderr.decode().splitlines():
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip()
            if name != "package":  # the header line
                names.append(name)
    return p, names


def is_banned(name: str) -> bool:
    return any(name == b or name.startswith(b + ".") for b in BANNED)


@pytest.fixture
def world(tmp_path, isolated_home, monkeypatch):
    """Loop on, a project with some memory, a transcript where Claude Code keeps one, a fake claude."""
    return make_world(tmp_path, isolated_home)


def make_world(tmp_path, isolated_home, **decision: str):
    """:func:`world`, its one decision with the fields ``decision`` (a machine, an author...) added:
    (the environment to run a hook in, ``payload(event, session id)``)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "claude").write_text("#!/bin/sh\nexit 1\n")
    (bin_dir / "claude").chmod(0o755)
    enable_loop(isolated_home, claude_path=str(bin_dir / "claude"))
    project = tmp_path / "proj"
    project.mkdir()
    memory = paths.memory_dir(str(project))
    os.makedirs(memory)
    with open(os.path.join(memory, "decisions.jsonl"), "w") as fh:
        fh.write(json.dumps({"ts": "2025-01-01T00:00:00+00:00", "type": "decision", "project": "proj",
                             "session_id": "s", "task_id": "t", "summary": "Use a file queue", "context": "",
                             "alternatives": [], "rationale": "simple", "tags": [], **decision}) + "\n")
    folder = os.path.join(paths.projects_dir(), paths.project_key(str(project)))
    os.makedirs(folder, exist_ok=True)

    def payload(event: str, sid: str) -> bytes:
        transcript = os.path.join(folder, f"{sid}.jsonl")
        with open(transcript, "w") as fh:
            fh.write('{"type":"user","message":{"role":"user","content":"hi"}}\n')
        return json.dumps({"session_id": sid, "transcript_path": transcript, "cwd": str(project),
                           "hook_event_name": event, "source": "startup", "reason": "other",
                           "stop_hook_active": False, "prompt": "remind me why the queue is kept so simple"}).encode()

    ms.index_now()  # as the worker leaves it: the hooks only read the index
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    return env, payload


@pytest.mark.parametrize("site", [True, False], ids=["site", "no-site"])
@pytest.mark.parametrize("event", ["Stop", "SessionEnd", "SessionStart", "UserPromptSubmit"])
def test_hook_entry_imports_no_heavy_module(world, event, site):
    env, payload = world
    _, baseline = imported(["-c", "pass"], env, site=site)
    argv = ["-m", "lazy_harness.hooks", event]
    with worker_lock_held(paths.claude_dir()):  # spawned workers find the lock taken and leave
        first, _ = imported(argv, env, payload(event, "aaaaaaaa-0000-0000-0000-000000000001"), site=site)
        p, names = imported(argv, env, payload(event, "bbbbbbbb-0000-0000-0000-000000000002"), site=site)
    assert first.returncode == 0 and p.returncode == 0
    if not site:
        assert "pathlib" not in baseline  # without site the check below covers every banned module
    added = [n for n in names if n not in set(baseline)]
    allowed = ALLOWED_BY_EVENT.get(event, set())
    assert not [n for n in added if is_banned(n) and n not in allowed], f"{event} imported heavy modules: {added}"
    ours = {n for n in names if n == "lazy_harness" or n.startswith("lazy_harness.")}
    assert "lazy_harness.hooks.entry" in ours
    assert ours <= ALLOWED_OURS, f"{event} loaded modules outside the hot-path allow-list: {ours - ALLOWED_OURS}"
    log = open(os.path.join(paths.logs_dir(), "hooks.log")).read().splitlines()
    last = log[-1]
    assert f" {event} session=bbbbbbbb-000" in last
    if event in ("Stop", "SessionEnd"):
        assert " queued " in last, last  # the measured run went all the way to the enqueue and spawn
    else:
        assert "error" not in last, last
    if event == "UserPromptSubmit":
        assert "injected 1" in last, last  # the measured run went all the way to a search and an injection


def test_entry_module_import_alone_is_light(world):
    env, _ = world
    _, baseline = imported(["-c", "pass"], env)
    _, names = imported(["-c", "import lazy_harness.hooks.entry"], env)
    added = [n for n in names if n not in set(baseline)]
    assert not [n for n in added if is_banned(n)], added
    # queue (its modules and their retain) holds WORKER_MARKER, which the worker sets and the hooks
    # check: os-only modules every producer event imports anyway (under 1 ms from their .pyc)
    assert {n for n in added if n.startswith("lazy_harness")} <= {
        "lazy_harness", "lazy_harness.hooks", "lazy_harness.hooks.entry", "lazy_harness.logfile",
        "lazy_harness.private", "lazy_harness.paths", "lazy_harness.project_identity", "lazy_harness.atomic",
        "lazy_harness.jsonload",
        "lazy_harness.queue",
        "lazy_harness.queue.task", "lazy_harness.queue.state", "lazy_harness.queue.turn",
        "lazy_harness.queue.produce", "lazy_harness.queue.consume", "lazy_harness.queue.retain"}


@pytest.mark.parametrize("event", ["SessionStart", "UserPromptSubmit"])
def test_the_reading_hooks_leave_the_producer_side_of_the_queue_unloaded(world, event):
    """SessionStart and the prompt hook only read the queue: its producer side (the enqueue, the turn
    digest, the kept transcripts) is loaded on first use (queue.__getattr__), each module less a
    fraction of a millisecond of every start."""
    env, payload = world
    argv = ["-m", "lazy_harness.hooks", event]
    with worker_lock_held(paths.claude_dir()):
        imported(argv, env, payload(event, "aaaaaaaa-0000-0000-0000-000000000001"))
        p, names = imported(argv, env, payload(event, "bbbbbbbb-0000-0000-0000-000000000002"))
    assert p.returncode == 0
    assert not {"lazy_harness.queue.produce", "lazy_harness.queue.turn", "lazy_harness.queue.retain"} & set(names)


def test_a_start_leaves_the_consumer_side_of_the_queue_remote_spellings_and_the_schema_unloaded(world):
    """SessionStart asks the queue only whether tasks wait for a worker (``queue.needs_worker``, in
    queue/task.py): the consumer (claim, finish, recovery) and the state files' gates are the worker's
    and the Stop hook's. A project without an origin reads no remote's spelling (remote_spelling.py), and
    a config snapshot that is current needs no schema (its stamp is schema.py's ``stat``). Each module
    is 0.1 to 0.3 ms of every start."""
    env, payload = world
    argv = ["-m", "lazy_harness.hooks", "SessionStart"]
    with worker_lock_held(paths.claude_dir()):
        imported(argv, env, payload("SessionStart", "aaaaaaaa-0000-0000-0000-000000000001"))
        p, names = imported(argv, env, payload("SessionStart", "bbbbbbbb-0000-0000-0000-000000000002"))
    assert p.returncode == 0 and "lazy_harness.hooks.session_start" in names
    unused = {"lazy_harness.queue.consume", "lazy_harness.queue.state", "lazy_harness.remote_spelling",
              "lazy_harness.config.schema"}
    assert not unused & set(names), sorted(unused & set(names))


def test_stop_uses_the_compiled_config_on_the_second_run(world):
    env, payload = world
    with worker_lock_held(paths.claude_dir()):
        stop = ["-m", "lazy_harness.hooks", "Stop"]
        first, names1 = imported(stop, env, payload("Stop", "cccccccc-0000-0000-0000-000000000003"))
        second, names2 = imported(stop, env, payload("Stop", "dddddddd-0000-0000-0000-000000000004"))
    assert first.returncode == second.returncode == 0
    assert "tomllib" in names1  # the first run compiled config.toml
    assert os.path.exists(os.path.join(paths.state_dir(), "config.json"))
    assert "tomllib" not in names2
    # and an edit of config.toml is picked up at once (the snapshot is keyed by mtime and size)
    cfg = paths.config_file()
    with open(cfg, "a") as fh:
        fh.write("debounce_seconds = 61\n")
    _, names3 = imported(["-m", "lazy_harness.hooks", "Stop"], env,
                         payload("Stop", "eeeeeeee-0000-0000-0000-000000000005"))
    assert "tomllib" in names3


def test_plugin_session_start_after_the_first_imports_no_heavy_module(world):
    """``lh-hook SessionStart --plugin``: the first start edits config.toml (a rare path); every later
    one only looks for its marker."""
    env, payload = world
    _, baseline = imported(["-c", "pass"], env)
    argv = ["-m", "lazy_harness.hooks", "SessionStart", "--plugin"]
    with worker_lock_held(paths.claude_dir()):
        first, _ = imported(argv, env, payload("SessionStart", "eeeeeeee-0000-0000-0000-000000000005"))
        p, names = imported(argv, env, payload("SessionStart", "ffffffff-0000-0000-0000-000000000006"))
    assert first.returncode == 0 and p.returncode == 0 and b"systemMessage" in first.stdout
    added = [n for n in names if n not in set(baseline)]
    assert not [n for n in added if is_banned(n)], added
    assert {n for n in names if n.startswith("lazy_harness")} <= ALLOWED_OURS


def _worker_modules(names: list[str]) -> list[str]:
    return [n for n in names if n == "lazy_harness.worker" or n.startswith("lazy_harness.worker.")]


@pytest.mark.parametrize("event", ["Stop", "SessionEnd"])
def test_a_producer_hook_queues_without_importing_the_worker(world, event):
    """Enqueueing and starting the worker are the queue's and detach's: the producer path loads no
    module of ``lazy_harness.worker`` (the hook exits with ``os._exit``, so ``-X importtime`` lists
    what ``sys.modules`` held at its end)."""
    env, payload = world
    with worker_lock_held(paths.claude_dir()):
        p, names = imported(["-m", "lazy_harness.hooks", event], env,
                            payload(event, "abababab-0000-0000-0000-000000000007"))
    assert p.returncode == 0
    assert " queued " in open(os.path.join(paths.logs_dir(), "hooks.log")).read().splitlines()[-1]
    assert "lazy_harness.queue.submit" in names and "lazy_harness.detach" in names
    assert not _worker_modules(names), f"{event} imported {_worker_modules(names)}"


HANDOFF_NOW_CORE = """
import json, os, sys, time
from lazy_harness.queue import submit
name, decision = submit.submit(json.loads(sys.stdin.read()), "handoff-now", True, os.environ, time.time())
sys.stdout.write(json.dumps({"decision": decision, "modules": sorted(sys.modules)}))
"""


def test_handoff_nows_producing_core_queues_without_importing_the_worker(world):
    """``lh knowledge handoff-now`` finds the session in the CLI (which may read transcripts with the
    worker's reader) and then queues it through the same ``queue.submit`` as the hooks."""
    env, payload = world
    with worker_lock_held(paths.claude_dir()):
        p = subprocess.run([sys.executable, "-c", HANDOFF_NOW_CORE],
                           input=payload("Stop", "acacacac-0000-0000-0000-000000000008"),
                           capture_output=True, env=env, timeout=60)
    assert p.returncode == 0, p.stderr.decode()
    out = json.loads(p.stdout)
    assert out["decision"].startswith("queued ")
    assert not _worker_modules(out["modules"]), _worker_modules(out["modules"])


COUNT_LOADS = """
import sys
from lazy_harness import config
from lazy_harness.hooks import entry
loads = []
real = config.load_fast
def counted(env=None):
    loads.append(env)
    return real(env)
config.load_fast = counted
entry.main(["lh-hook", sys.argv[1]])
sys.stdout.write(f"loads={len(loads)}")
"""


@pytest.mark.parametrize("event", ["Stop", "SessionEnd"])
def test_a_producer_hook_reads_the_config_once(world, event):
    env, payload = world
    with worker_lock_held(paths.claude_dir()):
        p = subprocess.run([sys.executable, "-c", COUNT_LOADS, event],
                           input=payload(event, "adadadad-0000-0000-0000-000000000009"),
                           capture_output=True, env=env, timeout=60)
    assert p.returncode == 0, p.stderr.decode()
    assert " queued " in open(os.path.join(paths.logs_dir(), "hooks.log")).read().splitlines()[-1]
    assert p.stdout.decode() == "loads=1"


def test_a_start_that_reads_the_open_items_from_their_cache_loads_no_markdown_parser(tmp_path, isolated_home):
    """handoff.md's parser and renderer (memory/handoff_markdown.py, 0.4 ms to load) serve the writers and
    a hand edit's import; a start whose handoff.md and log are as the last render left them reads the
    open items from their cache, and shows them, without it."""
    from lazy_harness.memory import handoff

    env, payload = make_world(tmp_path, isolated_home)
    mdir = paths.memory_dir(str(tmp_path / "proj"))
    handoff.append(mdir, [handoff.record(handoff.OPEN, "Rotate the staging key before Friday", "sess-1", "t-1",
                                         1_700_000_000.0)])
    handoff.write_markdown(mdir, {"session_id": "sess-1", "task_id": "t-1", "project": "proj"}, 1_700_000_100.0)
    argv = ["-m", "lazy_harness.hooks", "SessionStart"]
    with worker_lock_held(paths.claude_dir()):
        imported(argv, env, payload("SessionStart", "aaaaaaaa-0000-0000-0000-000000000001"))
        p, names = imported(argv, env, payload("SessionStart", "bbbbbbbb-0000-0000-0000-000000000002"))
    assert p.returncode == 0 and b"Rotate the staging key before Friday" in p.stdout, p.stdout
    assert "lazy_harness.memory.handoff" in names
    assert "lazy_harness.memory.handoff_markdown" not in names


def test_the_config_read_from_its_snapshot_loads_no_file_writer(world):
    """``config.load_fast`` with config.toml unchanged reads the snapshot and writes nothing, so it
    loads neither memory's writer (atomic) nor fcntl: the prompt hook reads the config before it sends
    the answerer its question, and each module loaded there is waited for."""
    env, _ = world
    read = ["-c", "from lazy_harness import config; config.load_fast()"]
    first, _ = imported(read, env)  # compiles config.toml into its snapshot
    assert first.returncode == 0, first.stderr.decode()[-500:]
    assert os.path.exists(os.path.join(paths.state_dir(), "config.json"))
    again, names = imported(read, env)
    assert again.returncode == 0 and "lazy_harness.config" in names
    assert not {"lazy_harness.atomic", "fcntl"} & set(names), sorted(n for n in names if n.startswith("lazy"))
