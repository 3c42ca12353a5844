"""The fake ``claude`` executable of every test that does not run the real CLI: put first on PATH,
it records each call and answers from a control file beside it.

Control file ``<bin>/fake-claude.json`` (replaced whole by ``control()``, so a running call never
reads half of it):
- ``mode``: ``ok`` (the answer as ``structured_output``), ``text`` (the answer as JSON inside prose
  in ``result``), ``fail`` (exit ``code`` with ``stderr``), ``garbage`` (prose, exit 0);
- ``unreachable`` and ``auth``: the error envelope claude 2.1.330 prints with one API retry (exit 1);
  ``over_budget``: the one of ``--max-budget-usd`` (subtype ``error_max_budget_usd``, with its cost);
  ``cost`` (``total_cost_usd``, default 0), ``usage`` (the envelope's usage) and ``model`` shape the
  success envelope; ``fail_as``: the mode of the calls ``fail_times`` fails (default ``fail``);
- ``answer``: what ``ok`` and ``text`` answer (``install`` defaults it to ``DEFAULT_ANSWER``; under
  ``ok``, a key the ``--json-schema`` requires and the answer lacks comes as an empty list, as a
  model answers the real CLI's schema: ``{}`` is "nothing to record");
  ``answers`` (token -> answer) and ``template`` (``@TOKEN@`` filled in) answer per session: the
  first ``LHTOK-...`` token inside the conversation fence of the prompt picks them; an answer that is
  a string is printed as it is (an unusable answer); ``{"__fail__": text}`` fails that call (exit 9);
- the model check's call (its ``--json-schema`` asks for ``verdicts``) answers apart: ``check_answer``
  as it is (a string: unusable; ``{"__fail__": text}``: fails), else one verdict per entry of the JSON
  array between the ``check_block`` markers ``[start, end]``, hostile when its text holds one of the
  ``check_hostile`` substrings (``check_why`` its reason); no markers: no verdicts;
- ``need_token``: fail a distill call whose prompt holds no token; ``fail_times``: the first n calls fail;
  ``sleep``: seconds to wait before answering; ``hold``: call numbers that never answer (calls to
  kill in flight, whatever the machine's speed); ``gate``: a path every call waits for after its start
  record (a test sees the calls in flight, then lets them answer); ``lock_path``: record
  whether that lock was held by someone else while the call ran.

Records ``<bin>/calls.jsonl``: a ``start`` record when a call begins (its number ``n``, pid, parent
pid = the worker, monotonic time, token, argv, cwd, the ``LH_WORKER_CALL`` marker, the whole stdin,
``lock_held``) and an ``end`` record when it returns. Writers append under an exclusive ``flock``
and loop until the whole line is written; ``records()`` reads under a shared ``flock`` and keeps only
whole lines, so a reader never sees half a record, however large the stdin.
"""

import fcntl
import json
import os
import signal
import stat
import sys
import time
from pathlib import Path

CONTROL = "fake-claude.json"
RECORDS = "calls.jsonl"
FENCE = "(untrusted session data starts here)"

SCRIPT = r'''#!{python}
import fcntl, json, os, re, sys, time
here = os.path.dirname(os.path.abspath(__file__))
records = os.path.join(here, {records!r})
if sys.argv[1:] == ["--version"]:
    print("2.1.328 (Claude Code)")
    sys.exit(0)
with open(os.path.join(here, {control!r})) as fh:
    ctl = json.load(fh)
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
    """Append one whole line under the lock; a start record gets its call number, counted under it."""
    fd = os.open(records, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        if rec["event"] == "start":
            with open(records, "rb") as fh:
                rec["n"] = 1 + sum(1 for line in fh if line.endswith(b"\n") and b'"event": "start"' in line)
        view = memoryview((json.dumps(rec) + "\n").encode())
        while view:
            view = view[os.write(fd, view):]
        return rec
    finally:
        os.close(fd)


start = record({{"event": "start", "pid": os.getpid(), "ppid": os.getppid(), "t": time.monotonic(),
                "token": token, "argv": sys.argv[1:], "cwd": os.getcwd(),
                "marker": os.environ.get("LH_WORKER_CALL"), "lock_held": lock_held,
                "retries": os.environ.get("CLAUDE_CODE_MAX_RETRIES"),
                "stdin_len": len(data), "stdin": data}})
mode = ctl.get("mode", "ok")
if ctl.get("fail_times") and start["n"] <= ctl["fail_times"]:
    mode = ctl.get("fail_as", "fail")
if ctl.get("sleep"):
    time.sleep(ctl["sleep"])
if start["n"] in ctl.get("hold", ()):
    time.sleep(3600)  # held in flight until the test kills it
while ctl.get("gate") and not os.path.exists(ctl["gate"]):
    time.sleep(0.01)  # held after its start record until the test makes the gate file
schema = sys.argv[sys.argv.index("--json-schema") + 1] if "--json-schema" in sys.argv else ""
if '"verdicts"' in schema:  # the model check's call (worker/model_check.py)
    answer = ctl.get("check_answer")
    if answer is None:
        start_at, end_at = ctl.get("check_block") or ["", ""]
        block = data[data.rfind(start_at) + len(start_at):data.rfind(end_at)] if start_at else "[]"
        try:
            items = json.loads(block)
        except ValueError:
            items = []
        answer = {{"verdicts": [{{"id": e["id"], "hostile": any(w in e["text"] for w in ctl.get("check_hostile", ())),
                                 "why": ctl.get("check_why", "fake verdict")}} for e in items]}}
else:
    if ctl.get("need_token") and token is None:
        mode, ctl["stderr"], ctl["code"] = "fail", "fake claude: no LHTOK token in the conversation", 3
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
usage = ctl.get("usage", {{"input_tokens": 0, "output_tokens": 0}})
errors = {{"unreachable": "API Error: Connection refused (ECONNREFUSED)",
          "auth": "Invalid API key · Please run /login"}}
if mode in errors:
    print(json.dumps({{"type": "result", "subtype": "success", "is_error": True, "result": errors[mode],
                      "terminal_reason": "api_error", "total_cost_usd": 0, "usage": usage}}))
    sys.exit(1)
if mode == "over_budget":
    print(json.dumps({{"type": "result", "subtype": "error_max_budget_usd", "is_error": True,
                      "total_cost_usd": ctl.get("cost", 0), "usage": usage}}))
    sys.exit(1)
if mode == "garbage" or isinstance(answer, str):
    print(answer if isinstance(answer, str) else "I could not do that, sorry.")
    sys.exit(0)
envelope = {{"type": "result", "subtype": "success", "is_error": False, "session_id": "fake",
            "total_cost_usd": ctl.get("cost", 0), "usage": usage,
            "modelUsage": {{ctl.get("model", "claude-haiku-4-5-20251001"): {{"costUSD": ctl.get("cost", 0)}}}}}}
if mode == "text":
    envelope["result"] = "Here is the memory:\n" + json.dumps(answer)
else:
    envelope["result"] = ""
    if isinstance(answer, dict) and schema:  # the real CLI gives only what its schema lets through
        answer = {{**{{key: [] for key in json.loads(schema).get("required") or ()}}, **answer}}
    envelope["structured_output"] = answer
print(json.dumps(envelope))
'''

DEFAULT_ANSWER = {
    "decisions": [{"summary": "Use a file queue between hooks and worker", "context": "hooks must be fast",
                   "alternatives": ["sqlite", "a daemon"], "rationale": "crash-safe and inspectable",
                   "tags": ["architecture"]}],
    "failures": [{"summary": "pytest collected the worktree twice", "root_cause": "worktree not ignored",
                  "resolution": "ignored .worktrees", "prevention": "keep worktrees under an ignored folder",
                  "tags": ["testing"]}],
    "learnings": [{"title": "Rename is the atomic commit of a spool", "learning": "Write to tmp, rename in.",
                   "context": "Any file queue.", "scope": "universal", "tags": ["queue"]}],
    "handoff": ["finish the retry command", "document the queue format"],
}


def install(bin_dir: Path, mode: str = "ok", answer: dict | None = None, **settings) -> Path:
    """Write the fake as ``<bin_dir>/claude`` with its control file; returns the executable."""
    bin_dir = Path(bin_dir)
    bin_dir.mkdir(parents=True, exist_ok=True)
    exe = bin_dir / "claude"
    exe.write_text(SCRIPT.format(python=sys.executable, control=CONTROL, records=RECORDS, fence=FENCE))
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    control(bin_dir, mode=mode, answer=DEFAULT_ANSWER if answer is None else answer, **settings)
    return exe


def control(bin_dir: Path, **settings) -> None:
    """Replace the control file (written whole, then renamed: a running call never reads half of it)."""
    tmp = Path(bin_dir) / (CONTROL + ".tmp")
    tmp.write_text(json.dumps(settings))
    os.replace(tmp, Path(bin_dir) / CONTROL)


def on_path(monkeypatch, bin_dir: Path) -> None:
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")


def use(tmp_path: Path, monkeypatch, mode: str = "ok", **settings) -> Path:
    """Install the fake in ``tmp_path/bin`` and put it first on PATH; returns the bin folder."""
    bin_dir = tmp_path / "bin"
    install(bin_dir, mode=mode, **settings)
    on_path(monkeypatch, bin_dir)
    return bin_dir


def records(bin_dir: Path) -> list[dict]:
    """Every whole record so far, in the order written.

    Read under a shared lock, so no writer is half-way through a line; a last line without its
    newline (a call killed inside its write) is left out.
    """
    try:
        fd = os.open(os.path.join(bin_dir, RECORDS), os.O_RDONLY)
    except FileNotFoundError:
        return []
    try:
        fcntl.flock(fd, fcntl.LOCK_SH)
        with os.fdopen(os.dup(fd), "rb") as fh:
            data = fh.read()
    finally:
        os.close(fd)
    return [json.loads(line) for line in data.split(b"\n")[:-1]]


def calls(bin_dir: Path) -> list[dict]:
    """One dict per call (its start record plus ``end``: its end time, or None while running or
    killed), in start order."""
    recs = records(bin_dir)
    ends = {r["pid"]: r["t"] for r in recs if r["event"] == "end"}
    return [dict(r, end=ends.get(r["pid"])) for r in recs if r["event"] == "start"]


def wait_calls(bin_dir: Path, n: int, timeout: float = 60.0) -> list[dict]:
    """Every call, once at least ``n`` have started (their start records are on disk). The timeout
    only keeps a bug from hanging the suite."""
    deadline = time.monotonic() + timeout
    while True:
        got = calls(bin_dir)
        if len(got) >= n:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"the fake claude was called {len(got)} times, not {n}, within {timeout} s")
        time.sleep(0.02)


def kill_running(bin_dir: Path) -> None:
    """SIGKILL the process group of every call that has not ended (a killed worker's orphans)."""
    exe = str(Path(bin_dir) / "claude").encode()
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


def is_check(call: dict) -> bool:
    """Whether a recorded call is the model check's (its schema asks for ``verdicts``), not a distill."""
    argv = call.get("argv") or []
    return "--json-schema" in argv and '"verdicts"' in argv[argv.index("--json-schema") + 1]
