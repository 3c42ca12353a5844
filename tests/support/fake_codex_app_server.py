"""A fake ``codex`` executable for the install and trust tests: ``codex app-server`` speaking the
JSON-RPC of codex-cli 0.171.0 as observed (``initialize``, ``hooks/list``, ``config/batchWrite``).

It lists the hooks of ``$CODEX_HOME/hooks.json`` with the key, event name and fields the real one
gives (``<file>:<snake_event>:<group>:<index>``), each hook's hash a digest of its command and
timeout, and its trust from ``$CODEX_HOME/fake-trust.json`` (what ``config/batchWrite`` wrote).
``<bin>/fake-codex.json`` picks a mode: ``ok``; ``old`` (``hooks/list`` is an unknown method);
``silent`` (never answers after ``initialize``); ``crash`` (exits 3 with a line on stderr at once);
``refuse`` (``config/batchWrite`` writes nothing). Each hook is listed ``enabled`` unless a
``hooks.state."<key>".enabled`` write (Codex's /hooks) switched it off. Each start is appended to
``<bin>/codex-calls.jsonl``.
"""

import json
import os
import stat
import sys
from pathlib import Path

SCRIPT = r'''#!{python}
import hashlib, json, os, re, sys, time
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "fake-codex.json")) as fh:
    mode = json.load(fh).get("mode", "ok")
with open(os.path.join(here, "codex-calls.jsonl"), "a") as fh:
    call = {{"argv": sys.argv[1:], "cwd": os.getcwd(), "codex_home": os.environ.get("CODEX_HOME")}}
    fh.write(json.dumps(call) + "\n")
if sys.argv[1:2] != ["app-server"]:
    print("codex-cli 0.171.0")
    sys.exit(0)
if mode == "crash":
    sys.stderr.write("error: unexpected argument 'app-server'\n")
    sys.exit(3)
home = os.environ.get("CODEX_HOME") or os.path.join(os.environ["HOME"], ".codex")
hooks_file = os.path.join(home, "hooks.json")
trust_file = os.path.join(home, "fake-trust.json")
enabled_file = os.path.join(home, "fake-enabled.json")  # hooks.state."<key>".enabled, as /hooks writes it

def snake(name):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()

def camel(name):
    return name[0].lower() + name[1:]

def trusted(path=trust_file):
    try:
        with open(path) as fh:
            return json.load(fh)
    except OSError:
        return {{}}

def listing():
    try:
        with open(hooks_file) as fh:
            data = json.load(fh)
    except OSError:
        data = {{}}
    state, on, out = trusted(), trusted(enabled_file), []
    for event, groups in (data.get("hooks") or {{}}).items():
        for g, group in enumerate(groups):
            for i, hook in enumerate(group.get("hooks") or []):
                key = f"{{hooks_file}}:{{snake(event)}}:{{g}}:{{i}}"
                what = json.dumps([hook.get("command"), hook.get("timeout")]).encode()
                h = "sha256:" + hashlib.sha256(what).hexdigest()
                out.append({{"key": key, "eventName": camel(event), "handlerType": "command",
                            "command": hook.get("command"), "timeoutSec": hook.get("timeout"),
                            "sourcePath": hooks_file, "source": "user", "currentHash": h,
                            "enabled": on.get(key, True),
                            "trustStatus": "trusted" if state.get(key) == h else "untrusted"}})
    return out

def answer(rid, result=None, error=None):
    msg = {{"id": rid}}
    msg.update({{"error": error}} if error else {{"result": result}})
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()

for line in sys.stdin:
    msg = json.loads(line)
    method, rid = msg.get("method"), msg.get("id")
    if rid is None:
        continue
    sys.stdout.write(json.dumps({{"method": "configWarning", "params": {{"summary": "noise"}}}}) + "\n")
    if method == "initialize":
        answer(rid, {{"userAgent": "fake/0.171.0", "codexHome": home}})
    elif mode == "silent":
        time.sleep(3600)
    elif method == "hooks/list" and mode != "old":
        answer(rid, {{"data": [{{"cwd": c, "hooks": listing(), "warnings": [], "errors": []}}
                              for c in msg["params"]["cwds"]]}})
    elif method == "config/batchWrite":
        state, on = trusted(), trusted(enabled_file)
        for edit in msg["params"]["edits"]:
            key, field = re.match(r'hooks\.state\."(.*?)"(?:\.(trusted_hash|enabled))?$', edit["keyPath"]).groups()
            if mode == "refuse":
                continue
            kept = on if field == "enabled" else state
            if edit["value"] is None:
                kept.pop(key, None)
            else:
                kept[key] = edit["value"]
        for path, data in ((trust_file, state), (enabled_file, on)):
            with open(path, "w") as fh:
                json.dump(data, fh)
        answer(rid, {{"status": "ok"}})
    else:
        answer(rid, error={{"code": -32601, "message": f"unknown method {{method}}"}})
'''


def install(bin_dir: Path, mode: str = "ok") -> Path:
    """Write the fake ``codex`` into ``bin_dir`` (put it first on PATH); returns its path."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    control(bin_dir, mode)
    path = bin_dir / "codex"
    path.write_text(SCRIPT.format(python=sys.executable))
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def control(bin_dir: Path, mode: str) -> None:
    tmp = bin_dir / "fake-codex.json.tmp"
    tmp.write_text(json.dumps({"mode": mode}))
    os.replace(tmp, bin_dir / "fake-codex.json")


def calls(bin_dir: Path) -> list[dict]:
    path = bin_dir / "codex-calls.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def trusted(codex_home: Path) -> dict:
    path = codex_home / "fake-trust.json"
    return json.loads(path.read_text()) if path.exists() else {}
