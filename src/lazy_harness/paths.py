"""The one resolver for every location lazy-harness reads or writes.

Hot path: hooks import this module, so it uses only ``os`` and plain strings (no pathlib).
Every function takes the environment as a parameter so tests, hooks, worker and CLI share it.
"""

import os



def _env(env):
    return os.environ if env is None else env


def home(env=None) -> str:
    e = _env(env)
    h = e.get("HOME")
    return h if h else os.path.expanduser("~")


def claude_dir(env=None) -> str:
    """``$CLAUDE_CONFIG_DIR``, else ``~/.claude``."""
    e = _env(env)
    d = e.get("CLAUDE_CONFIG_DIR")
    if d:
        return os.path.abspath(os.path.expanduser(d))
    return os.path.join(home(e), ".claude")


def queue_dir(env=None) -> str:
    return os.path.join(claude_dir(env), "queue")


def logs_dir(env=None) -> str:
    return os.path.join(claude_dir(env), "logs")


def state_dir(env=None) -> str:
    """Small per-session gate state and the compiled config live here, beside the queue."""
    return os.path.join(queue_dir(env), "state")


def neutral_dir(env=None) -> str:
    """The empty folder the worker's own ``claude -p`` runs in, away from any project."""
    return os.path.join(state_dir(env), "neutral")


def projects_dir(env=None) -> str:
    return os.path.join(claude_dir(env), "projects")


def user_settings_file(env=None) -> str:
    return os.path.join(claude_dir(env), "settings.json")


def config_file(env=None) -> str:
    """``$LH_CONFIG``, else ``$XDG_CONFIG_HOME/lazy-harness/config.toml``, else ``~/.config/...``."""
    e = _env(env)
    explicit = e.get("LH_CONFIG")
    if explicit:
        return os.path.abspath(os.path.expanduser(explicit))
    base = e.get("XDG_CONFIG_HOME") or os.path.join(home(e), ".config")
    return os.path.join(base, "lazy-harness", "config.toml")


def knowledge_dir(configured: str | None = None, env=None) -> str:
    """``[knowledge] path``, else ``$XDG_DATA_HOME/lazy-harness/knowledge``, else ``~/.local/share/...``."""
    e = _env(env)
    if configured:
        return os.path.abspath(os.path.expanduser(configured))
    base = e.get("XDG_DATA_HOME") or os.path.join(home(e), ".local", "share")
    return os.path.join(base, "lazy-harness", "knowledge")


def learnings_dir(configured: str | None = None, env=None) -> str:
    return os.path.join(knowledge_dir(configured, env), "learnings")


def project_key(root: str) -> str:
    """Claude Code's folder name for a project: every character not an ASCII letter or digit -> ``-``."""
    return "".join(c if (c.isascii() and c.isalnum()) else "-" for c in root)


def _read_first_line(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.readline().strip()
    except OSError:
        return None


def _main_worktree_from_gitfile(gitfile: str) -> str | None:
    """A linked worktree's ``.git`` file points at ``<common>/worktrees/<name>``; the main tree owns ``<common>``."""
    line = _read_first_line(gitfile)
    if not line or not line.startswith("gitdir:"):
        return None
    gitdir = line[len("gitdir:"):].strip()
    if not os.path.isabs(gitdir):
        gitdir = os.path.normpath(os.path.join(os.path.dirname(gitfile), gitdir))
    common = _read_first_line(os.path.join(gitdir, "commondir"))
    if common is None:
        return None  # a submodule or a plain gitdir link: treat the folder holding .git as the root
    if not os.path.isabs(common):
        common = os.path.normpath(os.path.join(gitdir, common))
    if os.path.basename(common) == ".git":
        return os.path.dirname(common)
    return None


def project_root(cwd: str) -> str:
    """The main working tree of the git repository holding ``cwd``, else ``cwd`` itself.

    Reads ``.git`` files directly instead of running git: this runs inside hooks.
    """
    start = os.path.abspath(cwd)
    d = start
    while True:
        dotgit = os.path.join(d, ".git")
        if os.path.isdir(dotgit):
            return d
        if os.path.isfile(dotgit):
            return _main_worktree_from_gitfile(dotgit) or d
        parent = os.path.dirname(d)
        if parent == d:
            return start
        d = parent


def project_memory_dir(root: str, env=None) -> str:
    return os.path.join(projects_dir(env), project_key(root), "memory")


def memory_dir(cwd: str, env=None) -> str:
    """``<claude dir>/projects/<key of the project root>/memory`` for a session's cwd."""
    return project_memory_dir(project_root(cwd), env)


def project_name(cwd: str) -> str:
    return os.path.basename(project_root(cwd).rstrip(os.sep)) or "root"


def is_within(path: str, folder: str) -> bool:
    """True when ``path`` (resolved) lies inside ``folder`` (resolved)."""
    p = os.path.realpath(path)
    f = os.path.realpath(folder)
    return p == f or p.startswith(f.rstrip(os.sep) + os.sep)


def ledger_file(env=None) -> str:
    """The cost ledger: ``$XDG_DATA_HOME/lazy-harness/ledger.jsonl``, else ``~/.local/share/...``."""
    e = _env(env)
    base = e.get("XDG_DATA_HOME") or os.path.join(home(e), ".local", "share")
    return os.path.join(base, "lazy-harness", "ledger.jsonl")


def notice_file(env=None) -> str:
    """One line for the person (distillation paused or failing), written by the worker."""
    return os.path.join(state_dir(env), "notice")
