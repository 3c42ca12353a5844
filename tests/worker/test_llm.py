"""llm.call against a fake `claude` executable first on PATH that records what it was given."""

import json
import os
import sys
import textwrap
from pathlib import Path

import pytest

from lazy_harness.config import defaults
from lazy_harness.errors import ModelError
from lazy_harness.queue import WORKER_MARKER
from lazy_harness.worker import llm
from lazy_harness.worker.prompt import ANSWER_SCHEMA
from tests.support.child_events import gone, until_started

ANSWER = {"decisions": [{"summary": "Keep the queue in Postgres"}], "failures": [], "learnings": [],
          "handoff": ["write the runbook"]}
ENVELOPE = {"type": "result", "subtype": "success", "is_error": False, "num_turns": 2,
            "result": json.dumps(ANSWER), "structured_output": ANSWER, "session_id": "s"}


def fake_claude(tmp_path: Path, body: str) -> Path:
    """Write bin/claude: records argv, cwd, stdin and the marker into rec/, then runs ``body``."""
    bin_dir = tmp_path / "bin"
    rec = tmp_path / "rec"
    bin_dir.mkdir(exist_ok=True)
    rec.mkdir(exist_ok=True)
    script = bin_dir / "claude"
    script.write_text(f"#!{sys.executable}\n" + textwrap.dedent(f"""\
        import json, os, sys, time
        rec = {str(rec)!r}
        json.dump(sys.argv[1:], open(os.path.join(rec, "argv.json"), "w"))
        open(os.path.join(rec, "cwd"), "w").write(os.getcwd())
        open(os.path.join(rec, "stdin"), "w").write(sys.stdin.read())
        open(os.path.join(rec, "marker"), "w").write(os.environ.get({WORKER_MARKER!r}, "<unset>"))
        open(os.path.join(rec, "pid"), "w").write(str(os.getpid()))
    """) + textwrap.dedent(body))
    script.chmod(0o755)
    return rec


@pytest.fixture
def cfg():
    values = defaults()
    values["compound_loop"]["timeout_seconds"] = 20
    return values


@pytest.fixture
def env(tmp_path, monkeypatch):
    path = f"{tmp_path / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"
    monkeypatch.setenv("PATH", path)
    return {**os.environ, "PATH": path, "KEEP_ME": "yes"}


@pytest.fixture
def workdir(tmp_path):
    path = tmp_path / "neutral"
    path.mkdir()
    return str(path)


def test_isolated_call_returns_the_answer(tmp_path, cfg, env, workdir):
    rec = fake_claude(tmp_path, f"print(json.dumps({ENVELOPE!r}))\n")
    cfg["compound_loop"]["model"] = "claude-test-model"
    out = llm.call("PROMPT TEXT\nwith lines", cfg, env, workdir).answer
    assert out == ANSWER
    argv = json.loads((rec / "argv.json").read_text())
    assert argv[0] == "-p"
    assert argv[argv.index("--model") + 1] == "claude-test-model"
    assert argv[argv.index("--output-format") + 1] == "json"
    assert json.loads(argv[argv.index("--json-schema") + 1]) == ANSWER_SCHEMA
    assert json.loads(argv[argv.index("--settings") + 1]) == {"disableAllHooks": True}
    assert "--no-session-persistence" in argv
    assert argv[-2:] == ["--tools", ""]  # an empty value, last because --tools is variadic
    assert "PROMPT TEXT" not in " ".join(argv)
    assert (rec / "stdin").read_text() == "PROMPT TEXT\nwith lines"
    assert (rec / "cwd").read_text() == workdir
    assert (rec / "marker").read_text() == "1"


def test_caller_env_kept_and_not_mutated(tmp_path, cfg, env, workdir):
    rec = fake_claude(tmp_path, f"""\
        open(os.path.join(rec, "keep"), "w").write(os.environ.get("KEEP_ME", ""))
        print(json.dumps({ENVELOPE!r}))
    """)
    llm.call("p", cfg, env, workdir)
    assert (rec / "keep").read_text() == "yes"
    assert WORKER_MARKER not in env


def test_accepts_the_compound_loop_table(tmp_path, cfg, env, workdir):
    rec = fake_claude(tmp_path, f"print(json.dumps({ENVELOPE!r}))\n")
    assert llm.call("p", cfg["compound_loop"], env, workdir).answer == ANSWER
    assert "--model" in json.loads((rec / "argv.json").read_text())


def test_claude_path_from_config(tmp_path, cfg, env, workdir):
    rec = fake_claude(tmp_path, f"print(json.dumps({ENVELOPE!r}))\n")
    other = tmp_path / "elsewhere"
    other.mkdir()
    (tmp_path / "bin" / "claude").rename(other / "claude-custom")
    cfg["compound_loop"]["claude_path"] = str(other / "claude-custom")
    assert llm.call("p", cfg, env, workdir).answer == ANSWER
    assert (rec / "argv.json").exists()


def test_answer_in_result_text(tmp_path, cfg, env, workdir):
    envelope = dict(ENVELOPE, structured_output=None, result="Sure:\n```json\n" + json.dumps(ANSWER) + "\n```")
    fake_claude(tmp_path, f"print(json.dumps({envelope!r}))\n")
    assert llm.call("p", cfg, env, workdir).answer == ANSWER


def test_missing_executable(tmp_path, cfg, env, workdir):
    cfg["compound_loop"]["claude_path"] = str(tmp_path / "no" / "claude")
    with pytest.raises(ModelError) as info:
        llm.call("p", cfg, env, workdir)
    assert str(info.value).startswith(f"claude not found: {tmp_path / 'no' / 'claude'}")
    assert "npm install -g @anthropic-ai/claude-code" in info.value.hint
    assert info.value.action == llm.FAIL  # fails at once: retrying cannot make claude appear
    assert info.value.cause == "not_found"


def test_missing_on_path(tmp_path, cfg, workdir):
    cfg["compound_loop"]["claude_path"] = "claude-definitely-absent"
    with pytest.raises(ModelError, match="claude not found: claude-definitely-absent"):
        llm.call("p", cfg, {"PATH": str(tmp_path)}, workdir)


def test_non_zero_exit_shows_code_and_stderr_tail(tmp_path, cfg, env, workdir):
    fake_claude(tmp_path, """\
        for i in range(60):
            sys.stderr.write(f"stderr line {i}\\n")
        sys.exit(3)
    """)
    with pytest.raises(ModelError) as info:
        llm.call("p", cfg, env, workdir)
    msg = str(info.value)
    assert "exited 3" in msg and "`claude -p ...` exited 3" in msg
    assert "stderr line 59" in msg and "stderr line 40" in msg and "stderr line 39" not in msg
    assert info.value.action == llm.RETRY


def test_non_zero_exit_with_an_error_envelope(tmp_path, cfg, env, workdir):
    envelope = dict(ENVELOPE, is_error=True, subtype="error_during_execution", result="API Error: 401 invalid key",
                    structured_output=None)
    fake_claude(tmp_path, f"print(json.dumps({envelope!r})); sys.exit(1)\n")
    with pytest.raises(ModelError) as info:
        llm.call("p", cfg, env, workdir)
    msg = str(info.value)
    assert "exited 1" in msg and "error_during_execution" in msg and "API Error: 401" in msg


def test_a_failed_call_names_the_error_first_not_the_command_line(tmp_path, cfg, env, workdir):
    """Issue 35, item 5: the wait reason, shown cut at 100 characters, read "the API is unreachable:
    claude -p --model ... --json-schema '{"t…"."""
    envelope = dict(ENVELOPE, is_error=True, subtype="success", terminal_reason="api_error",
                    result="API Error: Connection refused (ECONNREFUSED)", structured_output=None)
    fake_claude(tmp_path, f"sys.stderr.write('retrying\\n'); print(json.dumps({envelope!r})); sys.exit(1)\n")
    with pytest.raises(ModelError) as info:
        llm.call("p", cfg, env, workdir)
    msg = str(info.value)
    assert msg.startswith("the API is unreachable (claude reported an error (api_error): API Error: Connection "
                          "refused (ECONNREFUSED)"), msg
    assert "--json-schema" not in msg and "--model" not in msg
    assert msg.endswith("; stderr: retrying; `claude -p ...` exited 1)")


def test_garbage_answer(tmp_path, cfg, env, workdir):
    fake_claude(tmp_path, "print('this is not json at all')\n")
    with pytest.raises(ModelError) as info:
        llm.call("p", cfg, env, workdir)
    assert "no JSON result" in str(info.value) and info.value.action == llm.RETRY


def test_timeout_kills_the_fake(tmp_path, cfg, env, workdir):
    rec = fake_claude(tmp_path, """\
        import subprocess
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        open(os.path.join(rec, "child.tmp"), "w").write(str(child.pid))
        sys.stderr.write("thinking...\\n"); sys.stderr.flush()
        os.rename(os.path.join(rec, "child.tmp"), os.path.join(rec, "child"))
        time.sleep(60)
    """)

    def call(timeout: float) -> ModelError:
        cfg["compound_loop"]["timeout_seconds"] = timeout
        with pytest.raises(ModelError) as info:
            llm.call("p", cfg, env, workdir)
        return info.value

    # why: the timeout must fire once the fake's child runs: that event (the file the fake renames into
    # place) decides, not a guess at how long two interpreters take to start on a loaded machine
    error, timeout = until_started(call, rec / "child")
    assert f"timed out after {timeout:g}s" in str(error) and "thinking..." in str(error)
    assert error.action == llm.WAIT  # back to the queue: a later try may be answered in time
    for name in ("pid", "child"):
        pid = int((rec / name).read_text())
        assert gone(pid), f"{name} {pid} survived the timeout"
