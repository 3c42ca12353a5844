"""The worker's own model call: ``claude -p``, isolated so it can never feed the loop.

Isolation, flag by flag (checked against ``claude --help`` of 2.1.328 and, in tests/e2e, against the
real CLI):
- ``--settings '{"disableAllHooks": true}'``: the user's Stop/SessionEnd hooks do not fire for it;
- ``--no-session-persistence``: it writes no transcript a later hook could pick up;
- ``--tools ""``: no tools (the StructuredOutput tool that ``--json-schema`` adds still works);
  it comes last because ``--tools`` takes a variable number of values;
- cwd is a neutral empty folder from the caller, so no project CLAUDE.md or settings apply;
- ``LH_WORKER_CALL=1`` in its environment: should a hook run anyway, it exits at once.
The prompt goes on stdin (never argv: it is long, and argv is visible to every local user).
"""

from __future__ import annotations

import json
import os
from typing import Any, Mapping

from lazy_harness import proc
from lazy_harness.errors import ModelError
from lazy_harness.hooks.entry import WORKER_MARKER
from lazy_harness.worker.answer import parse_envelope
from lazy_harness.worker.prompt import ANSWER_SCHEMA

NO_HOOKS = json.dumps({"disableAllHooks": True})


def _loop_config(cfg: Mapping[str, Any]) -> Mapping[str, Any]:
    """Accept the whole config (``config.load()``) or its ``compound_loop`` table."""
    section = cfg.get("compound_loop")
    return section if isinstance(section, Mapping) else cfg


def build_argv(cfg: Mapping[str, Any], schema: Mapping[str, Any] | None = None) -> list[str]:
    """The ``claude -p`` command line for one model job (the distill answer schema by default)."""
    loop = _loop_config(cfg)
    return [
        str(loop.get("claude_path") or "claude"), "-p",
        "--model", str(loop.get("model") or "claude-haiku-4-5"),
        "--output-format", "json",
        "--json-schema", json.dumps(schema or ANSWER_SCHEMA, separators=(",", ":")),
        "--settings", NO_HOOKS,
        "--no-session-persistence",
        "--tools", "",
    ]


def call_env(env: Mapping[str, str] | None) -> dict[str, str]:
    """The caller's environment plus the marker the hooks check."""
    out = dict(os.environ if env is None else env)
    out[WORKER_MARKER] = "1"
    return out


def distill_call(prompt: str, cfg: Mapping[str, Any], env: Mapping[str, str] | None, workdir: str,
                 schema: Mapping[str, Any] | None = None) -> dict:
    """Run the model on ``prompt`` from ``workdir``; return the answer object (not yet validated).

    Raises ModelError (transient) when claude is missing, times out, exits non-zero or answers
    something that holds no JSON object; the message names the exit code and the tail of stderr.
    """
    loop = _loop_config(cfg)
    argv = build_argv(cfg, schema)
    timeout = float(loop.get("timeout_seconds") or 120)
    try:
        result = proc.run(argv, input=prompt, timeout=timeout, env=call_env(env), cwd=workdir)
    except proc.CommandNotFound:
        raise ModelError(f"claude not found: {argv[0]}", hint="lh doctor", transient=True) from None
    except proc.ProcError as exc:
        raise ModelError(f"cannot run claude: {exc.message}", hint="lh doctor", transient=True) from None
    if result.timed_out:
        raise ModelError(f"model call timed out: {_scrubbed(result, loop).describe()}",
                         hint="raise compound_loop.timeout_seconds", transient=True)
    if result.code != 0:
        shown = _scrubbed(result, loop)
        detail = shown.describe()
        if shown.stdout.strip():
            detail += f"; {_stdout_reason(shown.stdout)}"
        raise ModelError(f"model call failed: {detail}", transient=True)
    try:
        return parse_envelope(result.stdout)
    except ModelError:
        # why: the message quotes the output; quote it from a redacted copy (the model may have
        # echoed a secret of the session), which fails to parse just the same
        try:
            parse_envelope(_scrubbed(result, loop).stdout)
            message = "claude's answer could not be read"
        except ModelError as exc:
            message = exc.message
        raise ModelError(f"{message} (from `{proc.command_line(argv[:2])} ...`)", transient=True) from None


def _scrubbed(result: proc.Result, loop: Mapping[str, Any]) -> proc.Result:
    """``result`` with credentials in its output redacted, before any of it is quoted in an error
    (worker.log, the failed task and its .error file)."""
    from dataclasses import replace

    from lazy_harness.redact import redact

    extra = tuple(loop.get("redact_patterns") or ())
    return replace(result, stdout=redact(result.stdout, extra)[0], stderr=redact(result.stderr, extra)[0])


def _stdout_reason(stdout: str) -> str:
    """What a failed call printed on stdout: the CLI's own error envelope when there is one."""
    try:
        parse_envelope(stdout)
    except ModelError as exc:
        if "reported an error" in exc.message:
            return exc.message
    return "stdout: " + proc.tail(stdout, lines=5, chars=500)
