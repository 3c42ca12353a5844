"""The worker's own model call: ``claude -p``, isolated so it can never feed the loop.

Isolation, flag by flag (checked against ``claude --help`` of 2.1.328 and, in tests/e2e, against the
real CLI):
- ``--settings '{"disableAllHooks": true}'``: the user's Stop/SessionEnd hooks do not fire for it;
- ``--no-session-persistence``: it writes no transcript a later hook could pick up;
- ``--tools ""``: no tools (the StructuredOutput tool that ``--json-schema`` adds still works);
  it comes last because ``--tools`` takes a variable number of values;
- cwd is a neutral empty folder from the caller, so no project CLAUDE.md or settings apply;
- ``LH_WORKER_CALL=1`` in its environment: should a hook run anyway, it exits at once.
Spend (ADR 0013): ``--max-budget-usd`` with what is left under the cap; ``CLAUDE_CODE_MAX_RETRIES=1``
so an unreachable API fails in about a second; the envelope's ``total_cost_usd`` and ``usage`` are
returned with the answer for the ledger.
The prompt goes on stdin (never argv: it is long, and argv is visible to every local user).
"""

from __future__ import annotations

import json
import os
import re
import signal
import time
from dataclasses import dataclass
from collections.abc import Mapping
from typing import Any

from lazy_harness import paths, proc
from lazy_harness.errors import ModelError
from lazy_harness.queue import WORKER_MARKER
from lazy_harness.worker.answer_parse import parse_envelope, read_object
from lazy_harness.worker.prompt import ANSWER_SCHEMA

NO_HOOKS = json.dumps({"disableAllHooks": True})


def _loop_config(cfg: Mapping[str, Any]) -> Mapping[str, Any]:
    """Accept the whole config (``config.load()``) or its ``compound_loop`` table."""
    section = cfg.get("compound_loop")
    return section if isinstance(section, Mapping) else cfg


# why: with its own retries, `claude -p` needs about 3 minutes to give up on an unreachable API;
# one retry makes it fail in about a second, and the worker decides when to try again
RETRIES_VAR = "CLAUDE_CODE_MAX_RETRIES"

# cause -> what the worker does (worker/calls.py): retry now, wait minutes, fail at once, wait for the cap
RETRY, WAIT, FAIL, CAP = "retry", "wait", "fail", "cap"
_UNREACHABLE = ("econnrefused", "connection refused", "enotfound", "eai_again", "getaddrinfo", "etimedout",
                "econnreset", "connection error", "unable to connect", "fetch failed", "network error",
                "socket hang up", "ehostunreach", "enetunreach")
_AUTH = ("invalid api key", "authentication_error", "authentication failed", "api error: 401",
         "please run /login", "not logged in", "oauth token", "invalid x-api-key", "api error: 403",
         "permission_error")
# (then codex exec's words, past its own retries: a 429, a server's 5xx, and what it says for a 500)
_OVERLOADED = ("api error: 529", "overloaded", "api error: 429", "rate_limit", "rate limit",
               "last status: 429", "too many requests", "last status: 500", "last status: 502",
               "last status: 503", "last status: 504", "last status: 529", "experiencing high demand")
# what the real CLI prints when the account's own allowance is spent (a subscription's 5-hour or weekly
# limit, a prepaid balance): every call is refused until it resets or is topped up, hours away; then
# what codex exec says for the same (0.171.0: "You've hit your usage limit. ... try again at 3:05 PM.",
# a workspace out of credits or at its spend cap)
_LIMIT = ("you've hit your limit", "you\u2019ve hit your limit", "usage limit reached", "limit reached \u00b7 resets",
          "limit reached \u2219 resets", "credit balance too low", "credit balance is too low", "out of extra usage",
          "you've hit your usage limit", "you\u2019ve hit your usage limit", "is out of credits",
          "you're out of credits", "hit your spend cap")
# what codex exec prints (stderr, exit 1, before any event) when it cannot load its config.toml: every
# call fails the same way until the person fixes the file, so the task waits as for a refused login
_CONFIG = ("error loading config.toml",)
CONFIG_HINT = ("fix Codex's config.toml ($CODEX_HOME/config.toml, ~/.codex/config.toml by default); "
               "lh doctor names the line")

# what a failure's message starts with, by cause: worker.log, the task's reason, lh status and the
# notice lh doctor shows all quote it, and :func:`cause_said` reads the cause back from a task's reason
SAID = {"unreachable": "the API is unreachable", "auth": "authentication was refused",
        "config": "Codex cannot load its config.toml",
        "budget": "the budget guard (--max-budget-usd) stopped it",
        "overloaded": "the API is overloaded or rate-limited",
        "limit": "the account's usage limit is reached"}
UNNAMED = "model call failed"  # the start of a failure of no known cause
# causes outside the transcript: the same session's next task may well succeed (worker/one_task.py)
TEMPORARY = frozenset({"unreachable", "auth", "config", "overloaded", "limit", "timeout", "killed"})
_TASK_FAILED = re.compile(r"model call failed \d+ time\(s\): ")
_TIMED_OUT = re.compile(r"\w+ gave no answer within ")
_KILLED = re.compile(r"\w+ was killed by signal ")


class CallError(ModelError):
    """A failed model call: ``cause`` names what went wrong, ``action`` what the worker should do,
    ``usage`` what the call cost (a call cut off by --max-budget-usd still cost money)."""

    def __init__(self, message: str, cause: str, action: str, usage: Usage | None = None,
                 hint: str | None = None) -> None:
        super().__init__(message, hint=hint or (CONFIG_HINT if cause == "config" else None))
        self.cause = cause
        self.action = action
        self.usage = usage or Usage()


@dataclass
class Usage:
    """What claude reported about one call (``--output-format json``); zeros when it said nothing."""

    model: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    cache_creation_tokens: int = 0
    cache_read_tokens: int = 0
    cost_usd: float = 0.0
    reported: bool = False  # the envelope carried total_cost_usd
    duration_s: float = 0.0


@dataclass
class Call:
    answer: dict
    usage: Usage


def build_argv(cfg: Mapping[str, Any], max_budget_usd: float | None = None,
               schema: Mapping[str, Any] | None = None) -> list[str]:
    """The ``claude -p`` command line for one model job (``--max-budget-usd`` when given; the distill
    answer schema unless another job passes its own)."""
    loop = _loop_config(cfg)
    argv = [
        str(loop.get("claude_path") or "claude"), "-p",
        "--model", str(loop.get("model") or "claude-haiku-4-5"),
        "--output-format", "json",
        "--json-schema", json.dumps(schema or ANSWER_SCHEMA, separators=(",", ":")),
        "--settings", NO_HOOKS,
        "--no-session-persistence",
        # why: no MCP server of the person's is started for our call (``--tools ""`` keeps their tools
        # from the model, not their processes from running): only those of --mcp-config, and none is given
        "--strict-mcp-config",
    ]
    if max_budget_usd is not None:
        argv += ["--max-budget-usd", f"{max(max_budget_usd, 0.0):.4f}"]
    return argv + ["--tools", ""]


def call_env(env: Mapping[str, str] | None) -> dict[str, str]:
    """The caller's environment plus the marker the hooks check, with auto memory off.

    # why: auto memory is what creates ``<claude dir>/projects/<key of the neutral folder>/memory``
    for every call (checked with 2.1.330; ``--no-session-persistence`` only drops the transcript).
    why ``handed_on``: the call runs in the neutral folder, where a relative ``CLAUDE_CONFIG_DIR`` (or
    ``CODEX_HOME``) names a folder without the person's login.
    """
    out = paths.handed_on(os.environ if env is None else env)
    out[WORKER_MARKER] = "1"
    out["CLAUDE_CODE_DISABLE_AUTO_MEMORY"] = "1"
    out[RETRIES_VAR] = "1"  # fail fast: one API retry at most (ADR 0013)
    return out


def call(prompt: str, cfg: Mapping[str, Any], env: Mapping[str, str] | None, workdir: str,
         max_budget_usd: float | None = None, schema: Mapping[str, Any] | None = None) -> Call:
    """One model call: the answer (not yet validated) and what it cost.

    Raises :class:`CallError` naming the real cause: claude not found (fail at once, with the
    install hint), API unreachable, authentication refused or the account's usage limit reached
    (wait and retry minutes later, or at the limit's reset), overloaded, killed by a signal or an
    unreadable answer (retry now), the budget guard (wait for the cap), no answer within
    ``timeout_seconds`` (wait). The message starts with the cause (:data:`SAID`) and names the exit
    code and the tail of stderr.
    """
    loop = _loop_config(cfg)
    argv = build_argv(cfg, max_budget_usd, schema)
    timeout = float(loop.get("timeout_seconds") or 120)
    started = time.monotonic()
    try:
        result = proc.run(argv, input=prompt, timeout=timeout, env=call_env(env), cwd=workdir)
    except proc.CommandNotFound:
        raise CallError(f"claude not found: {argv[0]}", "not_found", FAIL,
                        hint="install Claude Code (npm install -g @anthropic-ai/claude-code) or set "
                             "compound_loop.claude_path; lh doctor") from None
    except proc.ProcError as exc:
        raise CallError(f"cannot run claude: {exc.message}", "cannot_start", FAIL, hint="lh doctor") from None
    usage = usage_of(result.stdout, str(loop.get("model") or "claude-haiku-4-5"))
    usage.duration_s = round(time.monotonic() - started, 3)
    if result.timed_out:
        raise CallError(f"claude gave no answer within {timeout:g} s (compound_loop.timeout_seconds) and was "
                        f"stopped: {_scrubbed(result, loop).describe()}", "timeout", WAIT, usage,
                        hint="raise compound_loop.timeout_seconds")
    if result.code < 0:  # why: killed by a signal (the OOM killer, kill -9): it read the prompt, said nothing
        raise CallError(f"claude was killed by {signal_name(-result.code)} "
                        f"({_failure_said(_scrubbed(result, loop), argv)})", "killed", RETRY, usage)
    if result.code != 0:
        cause, action = classify(result.stdout + "\n" + result.stderr)
        label = SAID.get(cause, UNNAMED)
        raise CallError(f"{label} ({_failure_said(_scrubbed(result, loop), argv)})", cause, action, usage,
                        hint="claude /login, or check ANTHROPIC_API_KEY" if cause == "auth" else None)
    keys = answer_keys(schema)
    required = tuple((schema or ANSWER_SCHEMA).get("required") or ())
    try:
        return Call(parse_envelope(result.stdout, keys, required), usage)
    except ModelError:
        # why: the message quotes the output; quote it from a redacted copy (the model may have
        # echoed a secret of the session), which fails to parse just the same
        try:
            parse_envelope(_scrubbed(result, loop).stdout, keys, required)
            message = "claude's answer could not be read"
        except ModelError as exc:
            message = exc.message
        cause, action = classify(result.stdout)
        if action == RETRY:
            cause = "answer"
        raise CallError(f"{message} (from `{proc.command_line(argv[:2])} ...`)", cause, action, usage) from None


def signal_name(number: int) -> str:
    try:
        return f"signal {number} ({signal.Signals(number).name})"
    except ValueError:
        return f"signal {number}"


def cause_said(reason: str) -> str | None:
    """The cause a failure's message (or a task's reason, ``model call failed N time(s): ...``)
    names by its first words; None for a failure of no known cause."""
    text = reason[m.end():] if (m := _TASK_FAILED.match(reason)) else reason
    for cause, said in SAID.items():
        if text.startswith(said):
            return cause
    if _TIMED_OUT.match(text):
        return "timeout"
    if _KILLED.match(text):
        return "killed"
    return None


def answer_keys(schema: Mapping[str, Any] | None) -> tuple[str, ...] | None:
    """The keys an answer to ``schema`` (the distill answer's when None) has: its properties; None
    for a schema that names none (then any object the model wrote as text is taken)."""
    props = (schema or ANSWER_SCHEMA).get("properties")
    return tuple(props) if isinstance(props, Mapping) and props else None


def classify(output: str) -> tuple[str, str]:
    """(cause, action) for a failed call, from what claude or codex printed (envelope, events and
    stderr). ``config``: Codex cannot load its config.toml; it waits like ``auth`` (worker/calls.py);
    ``limit``: the account's usage limit or balance is spent; it waits like ``auth``, until the reset
    the message names when it names one (worker/waiting.py)."""
    low = output.lower()
    if "error_max_budget_usd" in low:
        return "budget", CAP
    if any(s in low for s in _CONFIG):  # why first: the file's own text may hold any of the words below
        return "config", WAIT
    if any(s in low for s in _LIMIT):  # why before the rest: its message may say "rate limit" too
        return "limit", WAIT
    if any(s in low for s in _UNREACHABLE):
        return "unreachable", WAIT
    if any(s in low for s in _AUTH):
        return "auth", WAIT
    if any(s in low for s in _OVERLOADED):
        return "overloaded", RETRY
    return "failed", RETRY


def usage_of(stdout: str, model: str) -> Usage:
    """Tokens and cost from the ``--output-format json`` envelope (zeros when there is none)."""
    out = Usage(model=model)
    envelope = _envelope(stdout)
    if envelope is None:
        return out
    cost = envelope.get("total_cost_usd")
    if isinstance(cost, (int, float)) and _dollars(cost):
        out.cost_usd = float(cost)
        out.reported = True
    usage = envelope.get("usage")
    if isinstance(usage, dict):
        for field_name, key in (("input_tokens", "input_tokens"), ("output_tokens", "output_tokens"),
                                ("cache_creation_tokens", "cache_creation_input_tokens"),
                                ("cache_read_tokens", "cache_read_input_tokens")):
            value = usage.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                setattr(out, field_name, value)
    models = envelope.get("modelUsage")
    if isinstance(models, dict) and models:
        # why: the CLI may use another model besides ours (a small one for titles); name the costliest
        def spent(item: tuple[object, object]) -> float:
            v = item[1].get("costUSD") if isinstance(item[1], dict) else 0
            return v if isinstance(v, (int, float)) and _dollars(v) else 0
        out.model = str(max(models.items(), key=spent)[0])[:100]
        costs = [float(v) for v in (m.get("costUSD") for m in models.values() if isinstance(m, dict))
                 if isinstance(v, (int, float)) and _dollars(v)]
        if not out.reported and costs:
            # why: an envelope without total_cost_usd (another CLI version) still says what each model
            # cost; counted as $0 instead, its calls never moved the cap
            out.cost_usd, out.reported = float(sum(costs)), True
    return out


def _dollars(value: object) -> bool:
    """A cost the envelope may state: a number from 0 to what the ledger takes as one call's (no NaN, no
    infinity, no boolean, no integer too large for a float)."""
    from lazy_harness.cost.ledger import MAX_COST_USD

    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= MAX_COST_USD


def _envelope(stdout: str) -> dict | None:
    """The envelope of claude's output: the whole of it, else its last line that is a JSON object (a
    warning printed before it). One nested too deep to parse whole is read member by member, so the
    call's cost reaches the ledger even when its answer cannot be read (answer_parse.read_object)."""
    text = (stdout or "").strip()
    data = read_object(text)
    if data is not None:
        return data
    for line in reversed(text.splitlines()):
        data = read_object(line)
        if data is not None:
            return data
    return None


def _scrubbed(result: proc.Result, loop: Mapping[str, Any]) -> proc.Result:
    """``result`` with credentials in its output redacted, before any of it is quoted in an error
    (worker.log, the failed task and its .error file): claude's envelope and codex's events decoded
    first (:func:`_decoded_redacted`), stderr as it is."""
    from dataclasses import replace

    from lazy_harness.redact import redact

    extra = tuple(loop.get("redact_patterns") or ())
    return replace(result, stdout=_decoded_redacted(result.stdout, extra), stderr=redact(result.stderr, extra)[0])


def _decoded_redacted(stdout: str, extra: tuple[str, ...]) -> str:
    """``stdout`` with every string of the JSON it holds (the whole of it, else each line that is
    JSON) redacted as decoded text and encoded again, then the whole redacted as text.

    # why decoded first: inside a JSON string a line break is a ``\\n`` escape, and the rules that
    # need lines (a YAML ``password: |`` block, a .netrc entry, a key wrapped over two lines) miss
    # it; the error quotes the decoded text. The text pass after it keeps what only the encoding
    # shows (an answer object's ``"password": "x"`` member).
    """
    from lazy_harness.redact import redact, redact_obj

    def encoded(text: str) -> str | None:
        try:
            data = json.loads(text)
            if not isinstance(data, (dict, list)):
                return None
            return json.dumps(redact_obj(data, extra, keys=True)[0], ensure_ascii=False)
        except (ValueError, RecursionError):  # why: claude's output is the model's (answer_parse.read_object)
            return None

    whole = encoded(stdout.strip()) if stdout.strip() else None
    if whole is None:
        whole = "\n".join(encoded(line) or line for line in stdout.split("\n"))
    return redact(whole, extra)[0]


def _failure_said(shown: proc.Result, argv: list[str]) -> str:
    """What a call that exited non-zero said, first (the envelope's error, the stderr tail), then the
    command, cut to ``claude -p ...`` and its code: the reason's first words are the error, not the
    command line (a wait reason is shown cut at 100 characters)."""
    said = []
    if shown.stdout.strip():
        said.append(_stdout_reason(shown.stdout))
    err = proc.tail(shown.stderr)
    if err:
        said.append(f"stderr: {err}")
    return f"{'; '.join(said) or 'no output'}; `{proc.command_line(argv[:2])} ...` exited {shown.code}"


def _stdout_reason(stdout: str) -> str:
    """What a failed call printed on stdout: the CLI's own error envelope when there is one."""
    try:
        parse_envelope(stdout)
    except ModelError as exc:
        if "reported an error" in exc.message:
            return exc.message
    return "stdout: " + proc.tail(stdout, lines=5, chars=500)
