"""A fake ``claude`` for the reliability suite: answers per session, and records enough to judge
concurrency, crashes and leaks.

It differs from tests/support/fake_claude.py in what it records and how it answers:
- the answer can depend on the prompt: the first ``LHTOK-...`` token found inside the conversation
  fence picks an answer from ``answers`` (a mapping), or fills ``@TOKEN@`` in ``template``; an
  answer that is a string is printed as it is (an unusable answer), and ``{"__fail__": text}``
  makes that call exit 9 with ``text`` on stderr;
- each call appends a ``start`` record (pid, parent pid = the worker, monotonic time, the token, the
  whole stdin, and whether the worker lock was held while it ran) and, when it returns, an ``end``
  record, both under a lock so concurrent calls never interleave;
- modes: ``ok`` (structured_output), ``text`` (the answer as JSON inside prose in ``result``),
  ``fail`` (exit ``code`` with ``stderr``), ``garbage`` (prose, exit 0); ``sleep`` before answering;
  ``fail_times`` (the first n calls fail).
Control file: ``<bin>/fake-model.json``; records: ``<bin>/model-calls.jsonl``.
"""

import json
import os
import signal
import stat
import sys
from pathlib import Path

CONTROL = "fake-model.json"
RECORDS = "model-calls.jsonl"
FENCE = "(untrusted session data starts here)"

SCRIPT = r'''#!{python}
import fcntl, json, os, re, sys, time
here = os.path.dirname(os.path.abspath(__file__))
if sys.argv[1:] == ["--version"]:
    print("2.1.328 (Claude Code)")
    sys.exit(0)
ctl = json.load(open(os.path.join(here, {control!r})))
data = sys.stdin.read()
fence = data.find({fence!r})
m = re.compile(r"LHTOK-[A-Za-z0-9]+").search(data, max(fence, 0))
token = m.group(0) if m else None
lock_held = None
if ctl.get("lock_path"):
    lfd = os.open(ctl["lock_path"], os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(lfd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        lock_held = False
        fcntl.flock(lfd, fcntl.LOCK_UN)
    except BlockingIOError:
        lock_held = True
    finally:
        os.close(lfd)

def record(rec):
    fd = os.open(os.path.join(here, {records!r}), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.write(fd, (json.dumps(rec) + "\n").encode())
    finally:
        os.close(fd)

def count_starts():
    try:
        with open(os.path.join(here, {records!r})) as fh:
            return sum(1 for line in fh if '"event": "start"' in line)
    except FileNotFoundError:
        return 0

record({{"event": "start", "pid": os.getpid(), "ppid": os.getppid(), "t": time.monotonic(), "token": token,
        "stdin": data, "stdin_len": len(data), "argv": sys.argv[1:], "cwd": os.getcwd(),
        "marker": os.environ.get("LH_WORKER_CALL"), "lock_held": lock_held}})
calls = count_starts()
mode = ctl.get("mode", "ok")
if ctl.get("fail_times") and calls <= ctl["fail_times"]:
    mode = "fail"
if ctl.get("sleep"):
    time.sleep(ctl["sleep"])
if ctl.get("need_token") and token is None:
    mode, ctl["stderr"], ctl["code"] = "fail", "fake model: no LHTOK token in the conversation", 3
answer = (ctl.get("answers") or {{}}).get(token) if token else None
if answer is None and ctl.get("template") is not None:
    answer = json.loads(json.dumps(ctl["template"]).replace("@TOKEN@", token or "none"))
if answer is None:
    answer = ctl.get("answer", {{}})
if isinstance(answer, dict) and "__fail__" in answer:
    mode, ctl["stderr"], ctl["code"] = "fail", answer["__fail__"], 9
record({{"event": "end", "pid": os.getpid(), "t": time.monotonic(), "mode": mode}})
if mode == "fail":
    sys.stderr.write(ctl.get("stderr", "API Error: 529 overloaded") + "\n")
    sys.exit(ctl.get("code", 1))
if mode == "garbage" or isinstance(answer, str):
    print(answer if isinstance(answer, str) else "I could not do that, sorry.")
    sys.exit(0)
envelope = {{"type": "result", "subtype": "success", "is_error": False, "session_id": "fake",
            "total_cost_usd": 0}}
if mode == "text":
    envelope["result"] = "Here is the memory:\n" + json.dumps(answer)
else:
    envelope["result"] = ""
    envelope["structured_output"] = answer
print(json.dumps(envelope))
'''


def install(bin_dir: Path, **settings) -> Path:
    """Write the fake as ``<bin_dir>/claude`` with its control file; returns the executable."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    exe = bin_dir / "claude"
    exe.write_text(SCRIPT.format(python=sys.executable, control=CONTROL, records=RECORDS, fence=FENCE))
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    control(bin_dir, **settings)
    return exe


def control(bin_dir: Path, **settings) -> None:
    """Replace the control file (written whole, then renamed: a running call never reads half of it)."""
    tmp = bin_dir / (CONTROL + ".tmp")
    tmp.write_text(json.dumps(settings))
    os.replace(tmp, bin_dir / CONTROL)


def records(bin_dir: Path) -> list[dict]:
    path = bin_dir / RECORDS
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        out.append(json.loads(line))  # a torn record would fail the test: the fake writes whole lines
    return out


def calls(bin_dir: Path) -> list[dict]:
    """One dict per call (its start record plus ``end`` time, or None while running or killed), in start order."""
    recs = records(bin_dir)
    ends = {r["pid"]: r["t"] for r in recs if r["event"] == "end"}
    return [dict(r, end=ends.get(r["pid"])) for r in recs if r["event"] == "start"]


def kill_running(bin_dir: Path) -> None:
    """SIGKILL the process group of every call that has not ended (a killed worker's orphans)."""
    exe = str(bin_dir / "claude").encode()
    for call in calls(bin_dir):
        if call["end"] is None and exe in _cmdline(call["pid"]):  # why: never a recycled pid
            try:
                os.killpg(call["pid"], signal.SIGKILL)  # why: proc.run starts each call as a group leader
            except (ProcessLookupError, PermissionError):
                pass


def _cmdline(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read()
    except OSError:
        return b""
