import os
import signal
import subprocess
import sys
import textwrap

import pytest

from lazy_harness import proc
from lazy_harness.errors import LhError
from tests.support import stop_race
from tests.support.child_events import gone, until_started


def script(tmp_path, name, body):
    path = tmp_path / name
    path.write_text(f"#!{sys.executable}\n" + textwrap.dedent(body))
    path.chmod(0o755)
    return str(path)


def test_captures_code_stdout_stderr_and_stdin(tmp_path):
    exe = script(tmp_path, "echoer", """
        import sys
        data = sys.stdin.read()
        sys.stdout.write("got:" + data)
        sys.stderr.write("warn\\n")
        sys.exit(3)
    """)
    res = proc.run([exe, "a"], input="héllo")
    assert res.code == 3
    assert res.stdout == "got:héllo"
    assert res.stderr == "warn\n"
    assert res.argv == (exe, "a")
    assert not res.timed_out and not res.ok


def test_no_input_means_devnull(tmp_path):
    exe = script(tmp_path, "reader", "import sys; print(repr(sys.stdin.read()))\n")
    res = proc.run([exe], timeout=10)
    assert res.ok and res.stdout.strip() == "''"


def test_env_and_cwd(tmp_path):
    exe = script(tmp_path, "where", "import os; print(os.getcwd()); print(os.environ.get('X_MARK'))\n")
    work = tmp_path / "work"
    work.mkdir()
    res = proc.run([exe], env={"X_MARK": "yes", "PATH": os.environ["PATH"]}, cwd=str(work))
    assert res.stdout.splitlines() == [str(work), "yes"]


def test_invalid_utf8_output_is_replaced(tmp_path):
    exe = script(tmp_path, "bytes", "import sys; sys.stdout.buffer.write(b'a\\xffb')\n")
    assert proc.run([exe]).stdout == "a\ufffdb"


def test_missing_executable_raises_with_command(tmp_path):
    missing = str(tmp_path / "nope" / "claude")
    with pytest.raises(proc.CommandNotFound) as info:
        proc.run([missing, "-p"])
    assert isinstance(info.value, LhError)
    assert missing in str(info.value) and "not found" in str(info.value)
    with pytest.raises(proc.CommandNotFound):
        proc.run(["lh-surely-not-a-command-xyz"])


def test_not_executable_raises(tmp_path):
    path = tmp_path / "plain"
    path.write_text("hi")
    with pytest.raises(proc.CommandNotFound) as info:
        proc.run([str(path)])
    assert "not executable" in str(info.value)


def test_missing_cwd_names_the_folder(tmp_path):
    exe = script(tmp_path, "ok", "print(1)\n")
    with pytest.raises(proc.ProcError) as info:
        proc.run([exe], cwd=str(tmp_path / "gone"))
    assert not isinstance(info.value, proc.CommandNotFound)
    assert "gone" in str(info.value)


def test_describe_shows_command_code_and_stderr_tail(tmp_path):
    exe = script(tmp_path, "noisy", """
        import sys
        for i in range(100):
            sys.stderr.write(f"line {i}\\n")
        sys.exit(7)
    """)
    res = proc.run([exe, "--json-schema", "x" * 500])
    text = res.describe()
    assert text.startswith(f"`{exe} --json-schema xxx")
    assert "exited 7:" in text
    assert "line 99" in text and "line 80" in text and "line 79" not in text
    assert "x" * 100 not in text  # long arguments shortened


def test_describe_caps_stderr_characters():
    res = proc.Result(("c",), 1, "", "y" * 10_000)
    assert len(res.describe()) < proc.STDERR_TAIL_CHARS + 50
    assert proc.Result(("c",), 1, "", "").describe() == "`c` exited 1 (no stderr)"


def test_timeout_kills_the_whole_process_group(tmp_path):
    pidfile = tmp_path / "grandchild.pid"
    started = tmp_path / "started"
    exe = script(tmp_path, "sleeper", f"""
        import os, subprocess, sys, time
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        open({str(pidfile)!r}, "w").write(str(child.pid))
        sys.stderr.write("started\\n"); sys.stderr.flush()
        os.rename({str(pidfile)!r}, {str(started)!r})
        time.sleep(60)
    """)
    # why: the timeout must fire once the grandchild runs; that event (the file the script renames
    # into place) decides, not a guess at how long two interpreters take to start
    res, timeout = until_started(lambda t: proc.run([exe], timeout=t), started)
    assert res.timed_out and not res.ok
    assert f"timed out after {timeout:g}s" in res.describe()
    assert "started" in res.stderr
    assert gone(int(started.read_text())), "grandchild survived the timeout"


# The worker's SIGTERM handler set (worker/loop.py), a call whose child runs on: once the child is up
# and the main thread asleep waiting for its output, the signal's flag is set with no call interrupted,
# which is what a kill that lands between the main thread's last bytecode and its blocking call leaves.
_STOPPED_JUST_BEFORE_THE_WAIT = stop_race.TRIP + """
from lazy_harness import proc
from lazy_harness.worker import loop
started = sys.argv[1]
start_trip(signal.SIGTERM, lambda: os.path.exists(started))
child = "import os, sys, time; open(sys.argv[1], 'w').write(str(os.getpid())); time.sleep(120)"
with loop._stopped_by_sigterm():
    proc.run([sys.executable, "-c", child, started], timeout=3600)
"""


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="reads the main thread's state in /proc")
def test_a_sigterm_that_lands_just_before_the_wait_for_a_call_still_stops_the_worker(tmp_path):
    """A SIGTERM that arrives after the worker's last check for signals and before it blocks on the
    model call's output interrupts nothing: the handler ran only when claude answered or the call's
    timeout (compound_loop.timeout_seconds) ran out, and claude ran on meanwhile. The wait wakes to look."""
    started = tmp_path / "child.pid"
    done = subprocess.run([sys.executable, "-c", _STOPPED_JUST_BEFORE_THE_WAIT, str(started)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 128 + signal.SIGTERM, done.stderr
    assert gone(int(started.read_text())), "the call's child survived the worker's SIGTERM"


# A stop signal that lands inside Popen itself: after the fork, while Popen waits for the child's exec.
# The wrapper around the fork makes that moment certain: it starts the child with the real call, then
# raises the signal in this process before Popen has returned the child to proc.run.
_FORK_THEN_SIGNAL = """
import os, signal, subprocess, sys
import _posixsubprocess
born = []
# why either name: subprocess calls fork_exec by its own alias since 3.11, by the module's before
_WHERE = (subprocess, "_fork_exec") if hasattr(subprocess, "_fork_exec") else (_posixsubprocess, "fork_exec")
_real_fork_exec = getattr(*_WHERE)

def _fork_exec(*args, **kwargs):
    pid = _real_fork_exec(*args, **kwargs)
    born.append(pid)
    with open(sys.argv[1], "w") as fh:
        fh.write(str(pid))
    signal.raise_signal(signal.SIGTERM)
    return pid

setattr(*_WHERE, _fork_exec)
from lazy_harness import proc
"""

_STOPPED_INSIDE_THE_START = _FORK_THEN_SIGNAL + """
from lazy_harness.worker import loop
with loop._stopped_by_sigterm():
    proc.run([sys.executable, "-c", "import time; time.sleep(120)"], timeout=3600)
"""


def _kill_left(pidfile):
    if pidfile.exists():
        try:
            os.kill(int(pidfile.read_text()), signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_a_sigterm_that_lands_while_the_call_starts_still_kills_the_call(tmp_path):
    """The worker's SIGTERM raised inside Popen, before proc.run knew the child: the child (claude -p in
    a session of its own, spending) ran on after the worker had gone. The stop now waits until the child
    is known, then ends it."""
    pidfile = tmp_path / "child.pid"
    try:
        done = subprocess.run([sys.executable, "-c", _STOPPED_INSIDE_THE_START, str(pidfile)],
                              capture_output=True, text=True, timeout=60)
        assert pidfile.exists(), f"the child was not started through fork_exec: {done.stderr}"
        assert done.returncode == 128 + signal.SIGTERM, done.stderr
        assert gone(int(pidfile.read_text()), timeout=10), "the call's child survived the worker's SIGTERM"
    finally:
        _kill_left(pidfile)


_HANDLED_INSIDE_THE_START = _FORK_THEN_SIGNAL + """
seen = []
signal.signal(signal.SIGTERM, lambda signum, frame: seen.append(born[:]))
res = proc.run([sys.executable, "-c", "print(open('/proc/self/status').read())"], timeout=60)
blocked = [line.split()[1] for line in res.stdout.splitlines() if line.startswith("SigBlk:")]
print(blocked[0], len(seen), len(seen[0]))
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads the child's signal mask in /proc")
def test_a_stop_held_while_the_call_starts_reaches_its_handler_once_and_never_the_childs_mask(tmp_path):
    """Holding the stop signals while the child starts must not hand the child a mask that blocks them
    (claude -p would then outlive a plain kill), and a handler that only notes the signal sees it once,
    after the child started."""
    pidfile = tmp_path / "child.pid"
    try:
        done = subprocess.run([sys.executable, "-c", _HANDLED_INSIDE_THE_START, str(pidfile)],
                              capture_output=True, text=True, timeout=60)
    finally:
        _kill_left(pidfile)
    assert done.returncode == 0, done.stderr
    mask, calls, born = done.stdout.split()
    stops = (1 << signal.SIGHUP - 1) | (1 << signal.SIGINT - 1) | (1 << signal.SIGTERM - 1)
    assert int(mask, 16) & stops == 0, f"the child started with stop signals blocked: SigBlk {mask}"
    assert (calls, born) == ("1", "1")
