"""The one resolver for every location lazy-harness reads or writes.

Hot path: hooks import this module, so it uses only ``os`` and plain strings (no pathlib).
Every function takes the environment as a parameter so tests, hooks, worker and CLI share it.
Which project a folder belongs to (a worktree's main tree, its origin) is ``project_identity``'s;
this module says where that project's folders are.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping


def _env(env: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if env is None else env


def home(env: Mapping[str, str] | None = None) -> str:
    e = _env(env)
    h = e.get("HOME")
    return h if h else os.path.expanduser("~")


def claude_dir(env: Mapping[str, str] | None = None) -> str:
    """``$CLAUDE_CONFIG_DIR``, else ``~/.claude``. why no ``~`` expanded: Claude Code does not expand it
    (2.1.332: ``~/cfg`` is the folder ``<cwd>/~/cfg``, which holds the settings it runs hooks from), and
    lh must read and write the folder Claude Code uses; a relative value is relative to the cwd for it too."""
    e = _env(env)
    d = e.get("CLAUDE_CONFIG_DIR")
    if d:
        return os.path.abspath(d)
    return os.path.join(home(e), ".claude")


def claude_dir_before(env: Mapping[str, str] | None = None) -> str | None:
    """The folder lh before 0.2.0 took a ``CLAUDE_CONFIG_DIR`` starting with ``~/`` for (``$HOME/cfg`` for
    ``~/cfg``), when it is not ``claude_dir``'s; else None. What that lh queued and installed is there."""
    e = _env(env)
    d = e.get("CLAUDE_CONFIG_DIR") or ""
    if d != "~" and not d.startswith("~/"):
        return None
    before = os.path.abspath(os.path.join(home(e), d[2:]))
    return None if before == claude_dir(e) else before


def codex_home(env: Mapping[str, str] | None = None) -> str:
    """``$CODEX_HOME``, else ``~/.codex``: where Codex CLI keeps hooks.json, config.toml and its rollouts.
    A ``~`` in it is not expanded, as Codex does not (0.171.0: ``~/cx`` is ``<cwd>/~/cx``), as ``claude_dir``."""
    e = _env(env)
    d = e.get("CODEX_HOME")
    if d:
        return os.path.abspath(d)
    return os.path.join(home(e), ".codex")


def handed_on(env: Mapping[str, str]) -> dict[str, str]:
    """A copy of ``env`` for a program started in another folder, with a relative ``CLAUDE_CONFIG_DIR``
    or ``CODEX_HOME`` (``~/cfg`` too) made the folder lh resolved it to here: read in the child's own
    folder (the worker's ``claude -p`` runs in ``neutral_dir``) it would name another folder."""
    out = dict(env)
    for name, resolve in (("CLAUDE_CONFIG_DIR", claude_dir), ("CODEX_HOME", codex_home)):
        if out.get(name) and not os.path.isabs(out[name]):
            out[name] = resolve(out)
    return out


def codex_hooks_file(env: Mapping[str, str] | None = None) -> str:
    return os.path.join(codex_home(env), "hooks.json")


def queue_dir(env: Mapping[str, str] | None = None) -> str:
    return os.path.join(claude_dir(env), "queue")


def logs_dir(env: Mapping[str, str] | None = None) -> str:
    return os.path.join(claude_dir(env), "logs")


def safe_session_id(session_id: str) -> str:
    """A session id as it names files (the queue's state, what a session was shown, its kept
    transcript): session ids are UUIDs; anything else is cut down to a file-name-safe form."""
    clean = "".join(c for c in str(session_id) if c.isascii() and (c.isalnum() or c in "-_"))[:80]
    return clean or "unknown"


def state_dir(env: Mapping[str, str] | None = None) -> str:
    """Small per-session gate state and the compiled config live here, beside the queue."""
    return os.path.join(queue_dir(env), "state")


def neutral_dir(env: Mapping[str, str] | None = None) -> str:
    """The empty folder the worker's own ``claude -p`` runs in, away from any project."""
    return os.path.join(state_dir(env), "neutral")


def projects_dir(env: Mapping[str, str] | None = None) -> str:
    return os.path.join(claude_dir(env), "projects")


def user_settings_file(env: Mapping[str, str] | None = None) -> str:
    return os.path.join(claude_dir(env), "settings.json")


def _xdg(e: Mapping[str, str], name: str, *default: str) -> str:
    """``$<name>`` when it is an absolute path (``~`` expanded), else ``~/<default...>``. why: the XDG
    spec says a relative value is invalid and ignored; read as given it was resolved against the
    folder a hook runs in, the session's project, whose checked-out files are the user's own and pass
    every owner check: a repository could hold the hooks' bundle (code) or a config."""
    value = os.path.expanduser(e.get(name) or "")
    return value if os.path.isabs(value) else os.path.join(home(e), *default)


def config_file(env: Mapping[str, str] | None = None) -> str:
    """``$LH_CONFIG``, else ``$XDG_CONFIG_HOME/lazy-harness/config.toml``, else ``~/.config/...``."""
    e = _env(env)
    return _lh_config(e) or os.path.join(config_home(e), "config.toml")


def config_home(env: Mapping[str, str] | None = None) -> str:
    """``$XDG_CONFIG_HOME/lazy-harness``, else ``~/.config/lazy-harness``, whatever ``$LH_CONFIG`` says."""
    return os.path.join(_xdg(_env(env), "XDG_CONFIG_HOME", ".config"), "lazy-harness")


def _lh_config(e: Mapping[str, str]) -> str:
    """``$LH_CONFIG`` as the file lh reads, or "" when it names none (unset, empty or relative). why only
    absolute: a relative one was a file of the project a hook ran in."""
    explicit = os.path.expanduser(e.get("LH_CONFIG") or "")
    return os.path.normpath(explicit) if os.path.isabs(explicit) else ""


def ignored_lh_config(env: Mapping[str, str] | None = None) -> str | None:
    """``$LH_CONFIG`` as set when :func:`config_file` ignores it (a relative path), else None: for
    ``lh doctor`` to say so, naming the file read instead."""
    e = _env(env)
    value = e.get("LH_CONFIG") or ""
    return value if value and not _lh_config(e) else None


def own_config_dir(env: Mapping[str, str] | None = None) -> str | None:
    """The folder lazy-harness keeps config.toml in (``$XDG_CONFIG_HOME/lazy-harness``, else
    ``~/.config/lazy-harness``), or None when ``$LH_CONFIG`` names the file (a place of the user's)."""
    e = _env(env)
    return None if _lh_config(e) else config_home(e)


def data_dir(env: Mapping[str, str] | None = None) -> str:
    """lazy-harness's own data folder: ``$XDG_DATA_HOME/lazy-harness``, else ``~/.local/share/lazy-harness``."""
    e = _env(env)
    return os.path.join(_xdg(e, "XDG_DATA_HOME", ".local", "share"), "lazy-harness")


def configured_path(value: str, env: Mapping[str, str] | None = None) -> str:
    """A folder written in config.toml (``[memory] path``, ``[knowledge] path``) as an absolute path.

    ``~`` is the home, ``$NAME`` and ``${NAME}`` are environment variables, and a relative path is
    relative to the config file's folder (not the current one: hooks run in every project). A variable
    that is not set raises ConfigError (``lh config validate`` names its line).
    """
    e = _env(env)
    missing = unset_variables(value, e)
    if missing:
        from lazy_harness.errors import ConfigError

        raise ConfigError(f"{config_file(e)}: path {value!r} names ${missing[0]}, which is not set",
                          hint="lh config validate")
    v = _expand_vars(value, e)
    if v == "~" or v.startswith("~/"):
        v = home(e) + v[1:]
    if not os.path.isabs(v):
        v = os.path.join(os.path.dirname(config_file(e)), v)
    return os.path.normpath(v)


def _variables(value: str) -> list[tuple[int, int, str]]:
    """(start, end, name) of each ``$NAME`` / ``${NAME}`` in ``value``."""
    out = []
    i = value.find("$")
    while i >= 0:
        if value.startswith("${", i):
            end = value.find("}", i)
            if end > i + 2:
                out.append((i, end + 1, value[i + 2:end]))
                i = value.find("$", end + 1)
                continue
        j = i + 1
        while j < len(value) and (value[j] == "_" or (value[j].isascii() and value[j].isalnum())):
            j += 1
        if j > i + 1:
            out.append((i, j, value[i + 1:j]))
        i = value.find("$", max(j, i + 1))
    return out


def variable_names(value: str) -> list[str]:
    """Names of the variables ``value`` uses (``$NAME``, ``${NAME}``)."""
    return [name for _, _, name in _variables(value)]


def unset_variables(value: str, env: Mapping[str, str] | None = None) -> list[str]:
    """Names of the variables ``value`` uses that are unset or empty in ``env``."""
    e = _env(env)
    return [name for _, _, name in _variables(value) if not e.get(name)]


def _expand_vars(value: str, e: Mapping[str, str]) -> str:
    out, last = [], 0
    for start, end, name in _variables(value):
        out += [value[last:start], e.get(name, "")]
        last = end
    return "".join(out) + value[last:]


def knowledge_dir(configured: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """``[knowledge] path`` (see :func:`configured_path`), else ``<data dir>/knowledge``."""
    if configured:
        return configured_path(configured, env)
    return os.path.join(data_dir(env), "knowledge")


def cache_dir(env: Mapping[str, str] | None = None) -> str:
    """``$XDG_CACHE_HOME/lazy-harness``, else ``~/.cache/lazy-harness``: what can be deleted without loss."""
    e = _env(env)
    return os.path.join(os.path.abspath(_xdg(e, "XDG_CACHE_HOME", ".cache")), "lazy-harness")


def recall_dir(env: Mapping[str, str] | None = None) -> str:
    """Prompt recall's cache folder: the index, the resident answerer's socket, lock and pid file,
    the static model's stamps."""
    return os.path.join(cache_dir(env), "recall")


def recall_index_file(env: Mapping[str, str] | None = None) -> str:
    """The search index of every project's memory (a cache rebuilt from the files)."""
    return os.path.join(recall_dir(env), "index.sqlite")


def recall_seen_dir(index_path: str) -> str:
    """Beside the index: the writer's record of what it saw of each folder (recall/index/writer.py)."""
    return os.path.join(os.path.dirname(index_path), "seen")


def hold_verdicts_file(memory_key: str, env: Mapping[str, str] | None = None) -> str:
    """The hold check's verdicts on the texts SessionStart read from one project's memory (a cache)."""
    return os.path.join(cache_dir(env), "verdicts", f"{memory_key}.json")


def usage_ranks_file(memory_key: str, env: Mapping[str, str] | None = None) -> str:
    """What the usage record says of a project's entries, for the budget cuts (memory/usage.py)."""
    return os.path.join(cache_dir(env), "usage", f"{memory_key}.counts")


def learning_heads_file(env: Mapping[str, str] | None = None) -> str:
    """The heads of the learning files SessionStart ranked last (a cache: recall/readback/learnings.py)."""
    return os.path.join(cache_dir(env), "learning-heads.json")


def learnings_dir(configured: str | None = None, env: Mapping[str, str] | None = None) -> str:
    return os.path.join(knowledge_dir(configured, env), "learnings")


def memory_root(configured: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """The folder holding every project's memory: ``[memory] path``, else ``<data dir>/projects``."""
    if configured:
        return configured_path(configured, env)
    return os.path.join(data_dir(env), "projects")


HASH_AFTER = 200  # Claude Code keeps this many sanitized characters, then adds ``-<hash>``
_B36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def _code_units(text: str) -> Iterator[int]:
    """The UTF-16 code units of ``text``, as JavaScript's ``charCodeAt`` sees them."""
    for c in text:
        o = ord(c)
        if o > 0xFFFF:
            o -= 0x10000
            yield 0xD800 + (o >> 10)
            yield 0xDC00 + (o & 0x3FF)
        else:
            yield o


def _path_hash(text: str) -> str:
    """Claude Code's ``Math.abs(h).toString(36)`` of the 32-bit string hash ``h = h*31 + unit | 0``."""
    h = 0
    for unit in _code_units(text):
        h = (h * 31 + unit) & 0xFFFFFFFF
    n = 0x100000000 - h if h & 0x80000000 else h
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = _B36[r] + out
        if not n:
            return out


def project_key(root: str) -> str:
    """Claude Code's folder name for a project (checked against its CLI 2.1.197 to 2.1.330).

    Every UTF-16 code unit that is not an ASCII letter or digit becomes ``-`` (``🚀`` -> ``--``);
    past 200 characters the name is the first 200 plus ``-`` and a hash of the whole path.
    """
    key = "".join(c if (c.isascii() and c.isalnum()) else ("--" if ord(c) > 0xFFFF else "-") for c in root)
    if len(key) <= HASH_AFTER:
        return key
    return f"{key[:HASH_AFTER]}-{_path_hash(root)}"


def legacy_project_key(root: str) -> str:
    """The key lazy-harness used before (one ``-`` per character, no length limit): where old memory may be."""
    return "".join(c if (c.isascii() and c.isalnum()) else "-" for c in root)


def project_memory_dir(root: str, env: Mapping[str, str] | None = None, configured: str | None = None) -> str:
    """``<memory root>/<memory key>``: the project's memory (decisions, failures, handoff); the key
    follows the repository's origin when it has one (see :func:`memory_key`)."""
    return os.path.join(memory_root(configured, env), memory_key(root))


def memory_dir(cwd: str, env: Mapping[str, str] | None = None, configured: str | None = None) -> str:
    """The memory folder of the project holding ``cwd`` (its main working tree: see
    :func:`lazy_harness.project_identity.project_root`)."""
    from lazy_harness import project_identity  # why here: see memory_key

    return project_memory_dir(project_identity.project_root(cwd), env, configured)


def claude_memory_dir(key: str, env: Mapping[str, str] | None = None) -> str:
    """Claude Code's auto-memory folder for a project key: ours no more, only migrated from."""
    return os.path.join(projects_dir(env), key, "memory")


def all_memory_dirs(env: Mapping[str, str] | None = None, configured: str | None = None) -> list[str]:
    """Every project's memory folder that exists (for searches across projects)."""
    base = memory_root(configured, env)
    try:
        keys = sorted(os.listdir(base))
    except OSError:
        return []
    return [d for d in (os.path.join(base, k) for k in keys) if os.path.isdir(d)]


def is_within(path: str, folder: str) -> bool:
    """True when ``path`` (resolved) lies inside ``folder`` (resolved)."""
    p = os.path.realpath(path)
    f = os.path.realpath(folder)
    return p == f or p.startswith(f.rstrip(os.sep) + os.sep)


# --- the name of a project's memory folder ----------------------------------------------------------

def remote_key(normalized: str) -> str:
    """A file name for a normalized remote: readable, never starting with ``-`` (path keys do), with
    a digest so that different remotes never share a folder."""
    # why: the hooks name the memory folder through this; ``hashlib`` loads OpenSSL's ``_hashlib`` too,
    # 7 to 8 ms more on a hook's start than ``_blake2``, the same function (benchmarks/bench_private_modules.py)
    try:
        from _blake2 import blake2b
    except ImportError:  # pragma: no cover - a CPython built without _blake2
        from hashlib import blake2b
    digest = blake2b(normalized.encode("utf-8", "surrogatepass"), digest_size=4).hexdigest()
    readable = "".join(c if (c.isascii() and (c.isalnum() or c in "._")) else "-" for c in normalized)
    readable = readable.strip("-.")[:80] or "remote"
    return f"git-{readable}-{digest}"


def remote_lookup_files(env: Mapping[str, str] | None = None) -> tuple[tuple[str, ...], str]:
    """(the git config files, in the order git reads them: the system's (``$GIT_CONFIG_SYSTEM``, else
    /etc/gitconfig; none under ``GIT_CONFIG_NOSYSTEM``), the person's (``$GIT_CONFIG_GLOBAL``, else
    ``$XDG_CONFIG_HOME/git/config`` or ``~/.config/git/config``, then ``~/.gitconfig``); their ssh config
    ``~/.ssh/config``): where a remote's shorthand is spelled out (``project_identity.origin``). Names
    only: read only for such a remote."""
    e = _env(env)
    nosystem = (e.get("GIT_CONFIG_NOSYSTEM") or "").strip().lower() not in ("", "0", "false", "no", "off")
    system = () if nosystem else (e.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig",)
    mine = (e["GIT_CONFIG_GLOBAL"],) if e.get("GIT_CONFIG_GLOBAL") else (
        os.path.join(_xdg(e, "XDG_CONFIG_HOME", ".config"), "git", "config"), os.path.join(home(e), ".gitconfig"))
    return system + mine, os.path.join(home(e), ".ssh", "config")


def memory_key(root: str) -> str:
    """The folder name of a project's memory: its normalized origin when it has one (the same
    project on every machine), else its path key (the project stays on its machine)."""
    # why here: the hooks' launcher imports this module from disk before the bundle is in place
    # (hotload.py); the prompt hook that an answerer serves never asks which project a folder is
    from lazy_harness import project_identity

    normalized = project_identity.origin(root, remote_lookup_files)
    return remote_key(normalized) if normalized else project_key(root)


def ledger_file(env: Mapping[str, str] | None = None) -> str:
    """The cost ledger: ``$XDG_DATA_HOME/lazy-harness/ledger.jsonl``, else ``~/.local/share/...``."""
    return os.path.join(data_dir(env), "ledger.jsonl")


def spend_dir(env: Mapping[str, str] | None = None) -> str:
    """The spend lock and the markers of model calls under way (cost/budget.py) of the ledger at
    :func:`ledger_file`: ``<cache dir>/spend/<digest of the ledger's resolved path>``. Machine-local
    (the markers name pids), never synced; shared by every spender of that ledger, whichever Claude
    Code profile (``$CLAUDE_CONFIG_DIR``) it runs under, and by none of another ledger."""
    import hashlib  # why here: not on a hook's path (the worker and the commands call it)

    ledger = os.path.realpath(ledger_file(env)).encode("utf-8", "surrogatepass")
    return os.path.join(cache_dir(env), "spend", hashlib.blake2b(ledger, digest_size=8).hexdigest())


def worker_state_file(env: Mapping[str, str] | None = None) -> str:
    """The worker's last run: when, what it did, its last successful distillation (JSON)."""
    return os.path.join(state_dir(env), "worker.json")


def persist_intents_dir(env: Mapping[str, str] | None = None) -> str:
    """Undo records of persists in flight (memory.intent): machine-local, beside the queue, never synced."""
    return os.path.join(state_dir(env), "persist")


def synced_in_file(env: Mapping[str, str] | None = None) -> str:
    """The ids (and learnings' places) of memory ``lh sync`` brought in from the remote, one a line:
    machine-local, beside the queue, never synced (memory/provenance.py ``arrived``)."""
    return os.path.join(state_dir(env), "synced-in")


def machine_state_dir(env: Mapping[str, str] | None = None) -> str:
    """``$XDG_STATE_HOME/lazy-harness``, else ``~/.local/state/lazy-harness``: what this machine keeps
    about the whole memory, whichever Claude Code profile (``$CLAUDE_CONFIG_DIR``) runs. why not a
    profile's ``<queue>/state``: the memory (the data folder) is every profile's, and a record one
    profile kept was missing in the others (ADR 0035); why not the cache: deleting a cache must not
    lose the aliases the person consented to. Never synced."""
    return os.path.join(_xdg(_env(env), "XDG_STATE_HOME", ".local", "state"), "lazy-harness")


def last_key_file(root: str, env: Mapping[str, str] | None = None) -> str:
    """The memory key the project at ``root`` was last written under, the root, and which repository
    was there (machine-local, up to three lines, in :func:`machine_state_dir`): a key that differs
    from today's says the project's origin changed, when the repository is the same one
    (memory/migrate.py)."""
    return os.path.join(machine_state_dir(env), "keys", project_key(root))


def copied_file(path_key: str, env: Mapping[str, str] | None = None) -> str:
    """What this machine last copied of the path-keyed memory folder ``path_key`` it left for another
    machine (memory/migrate.py ``remember_copy``): the folder it went into, then each file's size,
    change time and inode, in :func:`machine_state_dir`."""
    return os.path.join(machine_state_dir(env), "copied", path_key)


def alias_consent_file(memory_key: str, env: Mapping[str, str] | None = None) -> str:
    """The aliases this machine wrote for the memory folder of ``memory_key``, one key a line
    (memory/aliases.py ``counted``), in :func:`machine_state_dir`."""
    return os.path.join(machine_state_dir(env), "aliases", memory_key)


def profile_records_dir(kind: str, env: Mapping[str, str] | None = None) -> str:
    """Where versions before kept the ``kind`` records (``keys``: :func:`last_key_file`, ``aliases``:
    :func:`alias_consent_file`): in each profile's ``<queue>/state``. Read, never written."""
    return os.path.join(state_dir(env), kind)


def notice_file(env: Mapping[str, str] | None = None) -> str:
    """One line for the person (distillation paused or failing), written by the worker."""
    return os.path.join(state_dir(env), "notice")


def plugin_welcome_file(env: Mapping[str, str] | None = None) -> str:
    """Made by the plugin's first SessionStart, once it told the person what happens next."""
    return os.path.join(state_dir(env), "plugin-welcome")


def claude_plugins_file(env: Mapping[str, str] | None = None) -> str:
    """Claude Code's record of installed plugins (read, never written):
    ``<claude dir>/plugins/installed_plugins.json``."""
    return os.path.join(claude_dir(env), "plugins", "installed_plugins.json")
