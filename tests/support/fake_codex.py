"""The fake ``codex`` executable of the unit tests of the Codex distiller: put first on PATH, it
records each call and answers ``codex exec --json`` from a control file beside it.

Control file ``<bin>/fake-codex.json`` (replaced whole by ``control()``):
- ``mode``: ``ok`` (``answer`` as the agent message, JSON), ``text`` (prose, no JSON), ``nulls``
  (``answer`` with every optional key of each item null, as a strict schema allows), ``fail``
  (an ``error`` and a ``turn.failed`` event saying ``message``, exit ``code``, ``stderr``),
  ``hang`` (never answers);
- ``usage``: the ``turn.completed`` usage (default 1000 in, 200 out, 100 cached).
Records ``<bin>/codex-calls.jsonl``: argv, cwd, the whole stdin, the ``LH_WORKER_CALL`` marker,
``CODEX_HOME`` (None when unset) and the schema file's content (read while the call runs).
"""

import json
import os
import stat
import sys
from pathlib import Path

CONTROL = "fake-codex.json"
RECORDS = "codex-calls.jsonl"
DEFAULT_ANSWER = {
    "decisions": [
        {"summary": "Keep the billing queue in Postgres", "rationale": "ops backs it up", "tags": ["queue"]}
    ],
    "failures": [],
    "learnings": [],
    "handoff": ["Schedule the nightly vacuum job"],
}

SCRIPT = r"""#!{python}
import json, os, sys, time
here = os.path.dirname(os.path.abspath(__file__))
if sys.argv[1:] == ["--version"]:
    print("codex-cli 0.171.0")
    sys.exit(0)
with open(os.path.join(here, {control!r})) as fh:
    ctl = json.load(fh)
data = sys.stdin.read()
argv = sys.argv[1:]
schema = None
if "--output-schema" in argv:
    with open(argv[argv.index("--output-schema") + 1]) as fh:
        schema = json.load(fh)
rec = {{"argv": argv, "cwd": os.getcwd(), "stdin": data, "marker": os.environ.get("LH_WORKER_CALL"), "schema": schema,
       "codex_home": os.environ.get("CODEX_HOME")}}
with open(os.path.join(here, {records!r}), "a") as fh:
    fh.write(json.dumps(rec) + "\n")
def say(event):
    print(json.dumps(event), flush=True)
mode = ctl.get("mode", "ok")
say({{"type": "thread.started", "thread_id": "t-1"}})
say({{"type": "turn.started"}})
if mode == "hang":
    time.sleep(3600)
if mode == "fail":
    say({{"type": "error", "message": ctl.get("message", "stream disconnected")}})
    say({{"type": "turn.failed", "error": {{"message": ctl.get("message", "stream disconnected")}}}})
    sys.stderr.write(ctl.get("stderr", ""))
    sys.exit(ctl.get("code", 1))
answer = ctl.get("answer")
if mode == "nulls":
    for section in ("decisions", "failures", "learnings"):
        for item in answer.get(section, []):
            for key in ("context", "alternatives", "rationale", "root_cause", "resolution", "prevention",
                        "scope", "cues"):
                item.setdefault(key, None)
    answer.setdefault("handoff_closed", None)
text = "I cannot answer that in JSON." if mode == "text" else json.dumps(answer)
say({{"type": "item.completed", "item": {{"id": "item_1", "type": "agent_message", "text": text}}}})
usage = ctl.get("usage") or {{"input_tokens": 1000, "cached_input_tokens": 100, "output_tokens": 200}}
say({{"type": "turn.completed", "usage": usage}})
"""


def install(bin_dir: Path, mode: str = "ok", answer: dict | None = None, **settings) -> Path:
    """Write the fake as ``<bin_dir>/codex`` with its control file; returns the executable."""
    bin_dir = Path(bin_dir)
    bin_dir.mkdir(parents=True, exist_ok=True)
    exe = bin_dir / "codex"
    exe.write_text(SCRIPT.format(python=sys.executable, control=CONTROL, records=RECORDS))
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    control(bin_dir, mode=mode, answer=DEFAULT_ANSWER if answer is None else answer, **settings)
    return exe


def control(bin_dir: Path, **settings) -> None:
    tmp = Path(bin_dir) / (CONTROL + ".tmp")
    tmp.write_text(json.dumps(settings))
    os.replace(tmp, Path(bin_dir) / CONTROL)


def use(tmp_path: Path, monkeypatch, mode: str = "ok", only: bool = True, **settings) -> Path:
    """Install the fake in ``tmp_path/codex-bin``; ``only``: PATH is that folder alone (no claude
    there, whatever the machine has), else it goes first. Returns the bin folder."""
    bin_dir = tmp_path / "codex-bin"
    install(bin_dir, mode=mode, **settings)
    path = str(bin_dir) if only else f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"
    monkeypatch.setenv("PATH", path)
    return bin_dir


def calls(bin_dir: Path) -> list[dict]:
    path = Path(bin_dir) / RECORDS
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
