"""The worker's model call through the Codex CLI: ``codex exec``, for a machine without Claude Code
(``[worker] distiller``, ADR 0044). Same prompt, same answer schema, same validation as ``claude -p``
(worker/llm.py); what differs is how the call is made and what it reports.

Isolation, flag by flag (checked against the real 0.171.0 in tests/e2e):
- ``--ephemeral``: it writes no rollout a later hook or reader could pick up;
- ``--thread-source lazy-harness``: should one be written anyway, the rollout reader knows it for
  the harness's own run and never distils it (worker/rollout.py);
- ``--disable hooks``: the person's hooks (ours included) do not run for it; ``--disable memories``:
  should the person have turned on Codex's own memories, our prompt never feeds them;
- ``--sandbox read-only`` and a neutral empty folder as cwd (``--skip-git-repo-check``): no file is
  written, no project's AGENTS.md applies; ``LH_WORKER_CALL=1`` as for claude;
- no tool: the features that give the model one (a shell, web search, apps, images, agents) and each
  MCP server of the person's config.toml are turned off, as ``--tools ""`` does for claude: the
  transcript is untrusted text, and a tool would let it have any readable file copied into memory
  or sent out;
- ``--output-schema``: the answer schema made strict (every key required, optional ones nullable,
  no others), which the Responses API asks for; a null is read as an absent key afterwards. Codex
  does not check the answer against it: :func:`answer_of` and worker/answer.py do;
- ``--json``: the events on stdout give the final message and the tokens (``turn.completed``);
- the prompt on stdin (``-``), then end of input: never on argv, where every local user could read
  it and where one argument stops at 128 KiB; a timeout (``compound_loop.timeout_seconds``) ends
  a call that hangs (Codex retries an unreachable API for minutes).
Spend: Codex reports tokens, no cost. The ledger's dollars are the tokens at ``[worker]
codex_input_usd_per_mtok`` / ``codex_output_usd_per_mtok``; when those are 0 (unpriced) they are
the tokens at DEFAULT_PRICES, a deliberately high price, so a dollar cap still stops, early rather
than late; the line then says ``cost_reported: false``. Either way the line says ``cost_source:
priced`` and the prices (``usd_per_mtok``): ``lh cost`` names it as priced from its token counts, and
the cap's estimate learns from it for calls at the same prices (cost/ledger.py). A call stopped at
its timeout or killed before any turn reported its tokens is charged its estimate instead
(``cost_source: estimated``). Codex has no
``--max-budget-usd``: one call can pass a cap by its own cost, bounded by the timeout.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from lazy_harness import proc, scratch
from lazy_harness.regular_file import NotRegularFile, read_regular
from lazy_harness.errors import ModelError
from lazy_harness.worker import llm
from lazy_harness.worker.answer_parse import extract_object, whole
from lazy_harness.worker.prompt import ANSWER_SCHEMA

THREAD_SOURCE = "lazy-harness"
DISTILLERS = ("auto", "claude", "codex")
# dollars per million tokens (input, output) for tokens of a model with no price in config
DEFAULT_PRICES = (2.50, 15.00)
_STRICT_KEYS = ("type", "properties", "required", "items", "enum", "description", "additionalProperties")
_INSTALL = "install the Codex CLI (npm install -g @openai/codex) or set [worker] codex_path; lh doctor"


def _worker(cfg: Mapping[str, Any]) -> Mapping[str, Any]:
    section = cfg.get("worker")
    return section if isinstance(section, Mapping) else {}


def _claude_path(cfg: Mapping[str, Any]) -> str:
    loop = cfg.get("compound_loop")
    return str((loop or {}).get("claude_path") or "claude") if isinstance(loop, Mapping) else "claude"


def codex_path(cfg: Mapping[str, Any]) -> str:
    return str(_worker(cfg).get("codex_path") or "codex")


def _found(command: str, env: Mapping[str, str] | None) -> bool:
    path = (os.environ if env is None else env).get("PATH", os.defpath)
    return shutil.which(command, path=path) is not None


def chosen(cfg: Mapping[str, Any], env: Mapping[str, str] | None = None) -> str:
    """The distiller of every model job (distillation, the model check, consolidation): ``claude`` or
    ``codex``. ``auto``: claude when it is found, else codex when it is found, else claude (whose
    failure names the install)."""
    wanted = str(_worker(cfg).get("distiller") or "auto")
    if wanted in ("claude", "codex"):
        return wanted
    if _found(_claude_path(cfg), env):
        return "claude"
    return "codex" if _found(codex_path(cfg), env) else "claude"


def strict_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """``schema`` as the Responses API's strict mode takes it: in each object every property is
    required and no other is allowed; a property that was optional may be null; only the keywords
    strict mode is sure to take are kept (a length cap is dropped: worker/answer.py enforces its own
    caps on what comes back). A new tree: the answer schemas share their leaf dicts, which must not
    change."""
    node = {k: v for k, v in schema.items() if k in _STRICT_KEYS}
    if node.get("type") == "object" and isinstance(node.get("properties"), dict):
        required = set(node.get("required") or ())
        props = {}
        for name, sub in node["properties"].items():
            props[name] = strict_schema(sub)
            if name not in required and isinstance(props[name].get("type"), str):
                props[name]["type"] = [props[name]["type"], "null"]
        node["properties"] = props
        node["required"] = list(props)
        node["additionalProperties"] = False
    if isinstance(node.get("items"), dict):
        node["items"] = strict_schema(node["items"])
    return node


def without_nulls(value: Any) -> Any:
    """The answer with every null-valued key dropped: under the strict schema, null means absent."""
    if isinstance(value, dict):
        return {k: without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [without_nulls(v) for v in value]
    return value


# the features that give the model a tool (0.171.0's names), each turned off by ``-c features.X=false``:
# why not ``--disable X``: Codex refuses a name it does not know, so a later release that renamed one
# would stop every call; an unknown key of ``-c`` is ignored (and tests/e2e checks what is offered)
TOOL_FEATURES = ("shell_tool", "apps", "browser_use", "computer_use", "image_generation", "view_image",
                 "multi_agent", "multi_agent_v2", "goals", "sleep_tool", "tool_suggest")


def build_argv(cfg: Mapping[str, Any], schema_file: str, env: Mapping[str, str] | None = None) -> list[str]:
    """The ``codex exec`` command line of one model job (the prompt follows on stdin)."""
    argv = [codex_path(cfg), "exec", "--json", "--ephemeral", "--thread-source", THREAD_SOURCE,
            "--disable", "hooks", "--disable", "memories", "--sandbox", "read-only", "--skip-git-repo-check",
            "--output-schema", schema_file]
    for setting in [f"features.{name}=false" for name in TOOL_FEATURES] + ['web_search="disabled"'] + [
            f"mcp_servers.{name}.enabled=false" for name in mcp_servers(env)]:
        argv += ["-c", setting]
    model = str(_worker(cfg).get("codex_model") or "")
    if model:
        argv += ["--model", model]
    return argv + ["-"]


def mcp_servers(env: Mapping[str, str] | None) -> list[str]:
    """The names of the MCP servers the person's ``$CODEX_HOME/config.toml`` declares: each is turned
    off for our call (``-c mcp_servers={}`` leaves them running). [] when the file is missing or not
    TOML: Codex then refuses it with its own message."""
    import tomllib

    path = config_file(env)
    try:  # why read_regular: a FIFO in its place held the worker in open(); codex exec would wait on it too
        servers = tomllib.loads(read_regular(path).decode("utf-8")).get("mcp_servers")
    except (NotRegularFile, IsADirectoryError) as exc:
        raise llm.CallError(f"{path}: {exc.strerror}: codex exec would wait on it or refuse it, so no call was "
                            "made", "config", llm.FAIL, hint=f"move {path} aside") from None
    except (OSError, ValueError):
        return []
    names = sorted(str(name) for name in servers) if isinstance(servers, dict) else []
    for name in names:
        # why: Codex splits a ``-c`` key at every dot, quotes or not: ``mcp_servers."a.b"`` names no server
        if not name or not all(c.isascii() and (c.isalnum() or c in "_-") for c in name):
            raise llm.CallError(f"{path}: the MCP server {json.dumps(name)} cannot be turned off for the "
                                "distill call (`codex exec -c` cannot name it), so no call was made",
                                "config", llm.FAIL, hint="name it with letters, digits, _ and - only, or set "
                                "[worker] distiller = \"claude\"")
    return names


def config_file(env: Mapping[str, str] | None = None) -> str:
    """The person's ``$CODEX_HOME/config.toml``, which every ``codex exec`` loads."""
    from lazy_harness import paths

    return os.path.join(paths.codex_home(env), "config.toml")


def toml_error(env: Mapping[str, str] | None = None) -> str | None:
    """``<file> is not TOML: <what> (at line N, column M)`` when config.toml does not parse (Codex
    refuses it and every call stops), else None: missing, unreadable or TOML (whether Codex takes its
    values is Codex's to say: codex_trust.config_error asks it)."""
    import tomllib

    path = config_file(env)
    try:
        tomllib.loads(read_regular(path).decode("utf-8"))
    except NotRegularFile as exc:
        return f"{path}: {exc.strerror} (codex would wait on it)"
    except OSError:
        return None
    except (ValueError, RecursionError) as exc:  # why: TOMLDecodeError, and bytes that are not UTF-8
        return f"{path} is not TOML: {' '.join(str(exc).split())}"
    return None


def events(stdout: str) -> list[dict]:
    """The JSON events ``--json`` printed, one a line (other lines skipped)."""
    out = []
    for line in (stdout or "").splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict):
            out.append(event)
    return out


def prices(cfg: Mapping[str, Any]) -> tuple[tuple[float, float], bool]:
    """(dollars per million tokens, input and output; whether the person set them): ``[worker]
    codex_input_usd_per_mtok`` / ``codex_output_usd_per_mtok``, else :data:`DEFAULT_PRICES`."""
    worker = _worker(cfg)
    per_in = float(worker.get("codex_input_usd_per_mtok") or 0)
    per_out = float(worker.get("codex_output_usd_per_mtok") or 0)
    return ((per_in, per_out), True) if per_in or per_out else (DEFAULT_PRICES, False)


@dataclass
class Priced(llm.Usage):
    """A codex call's usage: the tokens it reported, priced at ``usd_per_mtok`` (dollars per million
    tokens, input and output) to ``priced_usd`` (None when no turn reported its tokens). The ledger
    reads these two (cost/ledger.py): its line says ``cost_source: priced`` while ``cost_usd`` is
    ``priced_usd``, so a call charged its estimate instead (worker/calls.py) says ``estimated``, and
    never ``reported``: Codex reports no cost."""

    usd_per_mtok: tuple[float, float] = DEFAULT_PRICES
    priced_usd: float | None = None


def usage_of(found: list[dict], cfg: Mapping[str, Any]) -> Priced:
    """Tokens of ``turn.completed`` and their price (see the module docstring)."""
    worker = _worker(cfg)
    usage = Priced(model=str(worker.get("codex_model") or "codex"))
    told = False
    for event in found:
        if event.get("type") == "turn.completed" and isinstance(event.get("usage"), dict):
            told = True
            u = event["usage"]
            counts = [u.get(k) if isinstance(u.get(k), int) and not isinstance(u.get(k), bool) else 0
                      for k in ("input_tokens", "output_tokens", "cached_input_tokens")]
            usage.input_tokens += max(0, counts[0])
            usage.output_tokens += max(0, counts[1])
            usage.cache_read_tokens += max(0, counts[2])
    (per_in, per_out), usage.reported = prices(cfg)
    usage.cost_usd = round((usage.input_tokens * per_in + usage.output_tokens * per_out) / 1e6, 6)
    # why told: a call no turn reported tokens for is priced from nothing; its line is no priced line
    usage.usd_per_mtok, usage.priced_usd = (per_in, per_out), usage.cost_usd if told else None
    return usage


def answer_of(found: list[dict], keys: tuple[str, ...] | None = None) -> dict:
    """The answer object of the last agent message (one holding ``keys``, the schema's: an example
    object in prose before it is not the answer); raises ModelError naming what was there instead."""
    texts = [e["item"].get("text") for e in found
             if e.get("type") == "item.completed" and isinstance(e.get("item"), dict)
             and e["item"].get("type") == "agent_message"]
    said = next((t for t in reversed(texts) if isinstance(t, str)), None)
    if said is None:
        raise ModelError("codex gave no answer (no agent message among its events)")
    found_obj = extract_object(said, keys)
    if found_obj is None:
        raise ModelError(f"the model answered with text, not the structured answer the schema asks for: {said[:200]!r}")
    return without_nulls(whole(found_obj))  # why whole: a section nested too deep is refused, not read as empty


def _errors(found: list[dict]) -> str:
    """What the events say went wrong (``error``, ``turn.failed``), for the failure's message."""
    said = []
    for event in found:
        if event.get("type") == "error" and isinstance(event.get("message"), str):
            said.append(event["message"])
        elif event.get("type") == "turn.failed" and isinstance(event.get("error"), dict):
            said.append(str(event["error"].get("message") or ""))
    return "; ".join(s for s in said if s)[:500]


def call(prompt: str, cfg: Mapping[str, Any], env: Mapping[str, str] | None, workdir: str,
         max_budget_usd: float | None = None, schema: Mapping[str, Any] | None = None) -> llm.Call:
    """One model call through ``codex exec``: the answer (not yet validated) and what it used. Raises
    llm.CallError with the causes and actions of llm.call (``max_budget_usd`` has no Codex flag)."""
    loop = llm._loop_config(cfg)
    timeout = float(loop.get("timeout_seconds") or 120)
    try:
        made = scratch.folder("lh-codex-", env)
    except scratch.Refused as exc:  # why wait: the task keeps its session until the folders are fixed
        raise llm.CallError(exc.message, "cannot_start", llm.WAIT, hint=exc.hint) from None
    with made as tmp:
        schema_file = os.path.join(tmp, "schema.json")
        with open(schema_file, "w", encoding="utf-8") as fh:
            json.dump(strict_schema(schema or ANSWER_SCHEMA), fh)
        argv = build_argv(cfg, schema_file, env)
        started = time.monotonic()
        try:
            result = proc.run(argv, input=prompt, timeout=timeout, env=llm.call_env(env), cwd=workdir)
        except proc.CommandNotFound:
            raise llm.CallError(f"codex not found: {argv[0]}", "not_found", llm.FAIL, hint=_INSTALL) from None
        except proc.ProcError as exc:
            raise llm.CallError(f"cannot run codex: {exc.message}", "cannot_start", llm.FAIL,
                                hint="lh doctor") from None
    found = events(result.stdout)
    usage = usage_of(found, cfg)
    usage.duration_s = round(time.monotonic() - started, 3)
    return _result(result, found, usage, timeout, loop, llm.answer_keys(schema))


def _result(result: proc.Result, found: list[dict], usage: llm.Usage, timeout: float,
            loop: Mapping[str, Any], keys: tuple[str, ...] | None = None) -> llm.Call:
    shown = llm._scrubbed(result, loop)
    if (result.timed_out or result.code < 0) and not any(e.get("type") == "turn.completed" for e in found):
        # why: no turn reported its tokens, so the priced $0 is no report: the call is charged its
        # estimate (worker/calls.py), as a claude that said nothing
        usage.reported = False
    if result.timed_out:
        raise llm.CallError(f"codex gave no answer within {timeout:g} s (compound_loop.timeout_seconds) and was "
                            f"stopped: {shown.describe()}", "timeout", llm.WAIT, usage,
                            hint="raise compound_loop.timeout_seconds")
    if result.code < 0:  # why: killed by a signal (the OOM killer, kill -9): it read the prompt, said nothing
        tail = proc.tail(shown.stderr)
        raise llm.CallError(f"codex was killed by {llm.signal_name(-result.code)} (`codex exec ...` exited "
                            f"{result.code}{f'; stderr: {tail}' if tail else ''})", "killed", llm.RETRY, usage)
    said = _errors(events(shown.stdout))
    if result.code != 0 or (said and not any(e.get("type") == "turn.completed" for e in found)):
        cause, action = llm.classify(said + "\n" + result.stderr)
        tail = proc.tail(shown.stderr)
        detail = "; ".join(p for p in (said, f"stderr: {tail}" if tail else "") if p) or "no output"
        raise llm.CallError(f"model call failed ({detail}; `codex exec ...` exited {result.code})", cause, action,
                            usage, hint="codex login, or check the provider's API key" if cause == "auth" else None)
    try:
        return llm.Call(answer_of(found, keys), usage)
    except ModelError as exc:
        from lazy_harness.redact import redact

        # why: the message quotes the answer, which may echo a secret of the session
        redacted = redact(exc.message, tuple(loop.get("redact_patterns") or ()))[0]
        raise llm.CallError(f"{redacted} (from `codex exec ...`)", "answer", llm.RETRY, usage) from None
