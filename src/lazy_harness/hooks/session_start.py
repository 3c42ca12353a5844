"""SessionStart: reads the project's memory back into the new session.

Runs on every start, resume, clear and compaction (the same text each time, so context survives a
compaction). Independent of the compound loop: only ``context.enabled`` switches the read-back off.
Prints one JSON object when there is something to say and nothing otherwise; errors are caught and
logged by hooks/entry.py, which always exits 0.

:func:`run` is one sequence of named steps, each a function of the run's :class:`Start`:

    welcome          (the plugin's first start) switch the loop on, tell the person what happens next
    sweep            watch this session; queue the sessions that went idle unchecked
    waiting_tasks    a worker for tasks a dead worker left waiting
    pull             with a sync remote: a pull, waited for within its budget
    unfinished       a killed writer's unfinished persist rolled back (memory/intent.py; one listdir)
    person_notice    a paused or failing loop, told to the person (systemMessage, never to the model)
    migration        this project's old files out of Claude Code's auto-memory folder
    read_digest      the memory, within its budget (recall/readback/digest.py): the additionalContext;
                     under Codex CLI also within CODEX_CONTEXT_BYTES of UTF-8 (readback.codex_fit); the
                     usual start prints the one kept for its folder while all it was made from holds,
                     and keeps the digest's otherwise (readback.prepared, ADR 0084)
    index_check      the recall index missing, or a memory file changed since the index was brought up
                     to date (by hand, a sync): an index task for the worker (a few ``stat``, and the
                     learnings the digest has just stat'ed)
    remember_shown   the ids the digest printed, so prompt recall does not repeat them
    hold_left_out    hold what the digest's check left out; tell the person once
    tell_recurred    a failure memory showed a session and it hit again, told to the person once

Each step adds its words to the run's hooks.log line; one that raises is logged there and the next
still runs (the digest matters more than any step before it).

What is told once (the plugin's welcome, memory writing paused for space, held entries, a failure that
recurred) is marked told only when a person sees the systemMessage: a headless run (``claude -p``,
``codex exec``: hooks/headless.py) is sent it all the same, and the next interactive start tells it.
"""

from __future__ import annotations

import os

from lazy_harness import config, jsonload, notice, paths, queue
from lazy_harness.logfile import terminal_safe
from lazy_harness.memory import migrate
from lazy_harness.project_identity import project_root
from lazy_harness.queue import sweep as idle_sweep
from lazy_harness.queue.task import CODEX, agent_of
from lazy_harness.regular_file import read_regular
from lazy_harness.recall.readback import prepared

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from lazy_harness.config.typed import Config
    from collections.abc import Callable


NOT_MARKED = " (headless run: told, not marked told)"


class Start:
    """One SessionStart run: the payload's facts, the config, and what the steps have to say: ``did``
    (hooks.log words of what they did), ``told`` (hooks.log words of what the person was told),
    ``person`` (the systemMessage lines), the digest's ``text`` and ``stats``."""

    def __init__(self, payload: dict, env: Mapping[str, str], now: float) -> None:
        self.payload, self.env, self.now = payload, env, now
        self.source = str(payload.get("source") or "?")
        self.cfg: Config  # set by load_config(), the first thing run() does after the plugin's welcome
        self.cwd = ""
        self.did, self.told = "", ""
        self.person: list[str] = []
        self.unmarked = False  # something told once was left unmarked: a headless run
        self._headless: bool | None = None
        self.text: str | None = None
        self.stats: dict | None = None

    def load_config(self) -> None:
        """The config every later step reads, and the folder the session starts in."""
        self.cfg = config.load_fast(self.env)
        self.cwd = str(self.payload.get("cwd") or self.env.get("CLAUDE_PROJECT_DIR") or os.getcwd())

    def headless(self) -> bool:
        """Nobody sees this start's systemMessage (``headless.run``); asked only when a step has
        something to tell once, then kept."""
        if self._headless is None:
            from lazy_harness.hooks import headless

            self._headless = headless.run(self.payload, self.env)
        return self._headless

    def said(self) -> dict:
        # why terminal_safe: the person's terminal shows the line as it is; a project's name (its folder's,
        # which a cloned repository's URL chose) or a path in it could hold a bidi override or an escape
        return {"systemMessage": terminal_safe("\n".join(self.person), keep="\n")} if self.person else {}

    def result(self) -> tuple[str, str | None]:
        """(the hooks.log decision, the JSON line for stdout or None)."""
        head, tail = f"source={self.source}", self.did + self.told + (NOT_MARKED if self.unmarked else "")
        if not self.cfg["context"]["enabled"]:
            return f"{head} skipped: context disabled{tail}", _out(self.said())
        stats = self.stats
        if stats is None:  # the digest step failed: its words are in did
            return f"{head}{tail}", _out(self.said())
        if self.text is None:
            errors = f" errors: {'; '.join(stats['errors'])}" if stats["errors"] else ""
            # why: a resume whose memory is all its own was logged "no memory", as if none were written
            said = (f"nothing for {stats['project']} but this session's own {own} entries, never told back to it"
                    if (own := stats.get("own_session")) else f"no memory for {stats['project']}")
            return f"{head} {said}{errors}{tail}", _out(self.said())
        out = {**self.said(), "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": self.text}}
        return f"{head} {prepared.describe(stats)}{tail}", _out(out)


def run(payload: dict, env: Mapping[str, str], now: float, plugin: bool = False) -> tuple[str, str | None]:
    """Returns (decision for hooks.log, the JSON line for stdout or None). ``plugin``: run by the
    plugin's hooks.json, whose first start switches the loop on and says what happens next."""
    s = Start(payload, env, now)
    if plugin:
        step(s, welcome)
    s.load_config()  # why: not a step: without the config no step can run; entry.py logs the error
    for each in (sweep, waiting_tasks, pull, unfinished, person_notice, migration):
        step(s, each)
    # why index_check after the digest: it compares the learnings the digest stat'ed with what the index
    # read of them (an edit written into a file), without a second ``stat`` of each
    if s.cfg["context"]["enabled"]:
        for each in (read_digest, index_check, remember_shown, hold_left_out, tell_recurred):
            step(s, each)
    else:
        step(s, index_check)
        step(s, remember_shown)  # why: nothing printed, but the context starts over all the same
    return s.result()


def step(s: Start, fn: Callable[[Start], str]) -> None:
    """Run one step and add the words it returns to the run's line; what it raises is logged there
    instead, and the run goes on."""
    try:
        words = fn(s)
        s.did += words or ""
    except Exception as exc:  # why: a step's failure must not cost the session the steps after it
        s.did += f" ({fn.__name__.replace('_', ' ')} failed: {type(exc).__name__}: {exc})"


# --- the steps, in the order run() takes them: each returns its words for hooks.log ----------------

def welcome(s: Start) -> str:
    """The plugin's first SessionStart on this machine: switch the compound loop on, as
    ``lh hooks install`` does (installing the plugin is the same consent), and tell the person once
    what happens next. One ``stat`` on every later start. A loop it could not switch on is said as
    such, with what to write, at every start until it is on (no marker)."""
    marker = paths.plugin_welcome_file(s.env)
    if os.path.exists(marker):
        return ""
    from lazy_harness.hooks import plugin_welcome  # why here: the first start only

    return plugin_welcome.first_start(s, marker)


def sweep(s: Start) -> str:
    """Make the starting session known to the sweep, then queue the sessions that went idle
    without being checked (killed, or whose last Stops were gated). Throttled and capped in
    :func:`lazy_harness.queue.sweep.sweep`; the worker it needs is started by ``waiting_tasks``.
    An invalid config.toml pauses distillation: the session is watched, nothing is queued."""
    loop = s.cfg["compound_loop"]
    paused = config.invalid(s.cfg) is not None
    if not loop["enabled"] and not paused:
        return ""
    q = paths.queue_dir(s.env)
    try:
        idle_sweep.watch(q, s.payload, start=True)
        said = ""
    except OSError as exc:  # why: not the sweep's end: the other sessions it queues are not this one's
        said = f" (session not watched: {exc})"
    if paused:
        return f"{said} (distillation paused: config invalid)" if said else \
            " (distillation paused: config invalid; session watched)"
    failures: list[OSError] = []
    try:
        queued = idle_sweep.sweep(q, s.now, float(loop["idle_minutes"]) * 60, s.env, failures=failures)
    except OSError as exc:
        return f"{said} (sweep failed: {exc})"
    if queued:
        said += f" (sweep queued {len(queued)} idle session(s))"
    return said + "".join(f" (sweep failed: {exc})" for exc in failures[:3])


def waiting_tasks(s: Start) -> str:
    """Tasks left by a worker that died (or by a spawn that failed) would wait for the next Stop or
    SessionEnd; a new session is as good a moment as any to start a worker for them. Not while an
    invalid config.toml pauses distillation: that worker would only find the pause."""
    if (not s.cfg["compound_loop"]["enabled"] or config.invalid(s.cfg) is not None
            or not queue.needs_worker(paths.queue_dir(s.env))):
        return ""
    from lazy_harness.queue.submit import spawn_worker

    try:
        return f" (started worker pid {spawn_worker(s.env)} for waiting tasks)"
    except OSError as exc:
        return f" (worker for waiting tasks not started: {exc})"


def pull(s: Start) -> str:
    """With a sync remote: start a pull and wait for it at most ``pull_budget_ms``, then go on.

    At most every ``interval_minutes`` (a stamp file's mtime); a slow or offline remote is logged
    and tried again at a later start. The hook never waits on the network beyond its budget."""
    sync = s.cfg["sync"]
    if not sync["remote"] or not sync["auto"]:
        return ""
    stamp = os.path.join(paths.data_dir(s.env), ".sync-pull")
    try:
        if s.now - os.stat(stamp).st_mtime < int(sync["interval_minutes"]) * 60:
            return ""
    except OSError:
        pass
    from lazy_harness.hooks import start_pull  # why here: a start that pulls

    return start_pull.pull(s, stamp)


def unfinished(s: Start) -> str:
    """Roll back what a worker killed before its commit left (ADR 0021), in any project's memory (the
    learnings it created are every project's to read): the digest never shows entries that never
    counted as written. A ``listdir`` of an empty folder when there are none."""
    try:
        if not os.listdir(paths.persist_intents_dir(s.env)):
            return ""
    except OSError:
        return ""  # why: no record was ever written on this machine
    from lazy_harness.memory import intent  # why here: its import costs a start more than the listdir

    return "".join(f" ({line})" for line in intent.settle_all(s.env))


def index_check(s: Start) -> str:
    """The hooks only read the recall index; the worker and the commands that change memory write it
    (ADR 0042). A file changed otherwise (by hand, an editor, a sync pull) or an index that is gone
    is found here, by the ``stat`` of the memory files against what the writer last saw, and becomes
    an index task for the worker: the change reaches recall seconds later. A learning edited in place
    (its folder's ``stat`` unchanged) is found among the newest ones, whose ``stat`` the digest took."""
    if not s.cfg["recall"]["enabled"]:
        return ""
    from lazy_harness.recall.index import writer

    mdir = paths.memory_dir(s.cwd, s.env, s.cfg["memory"]["path"] or None)
    ldir = paths.learnings_dir(s.cfg["knowledge"]["path"] or None, s.env)
    if not writer.behind(s.env, mdir, ldir, (s.stats or {}).get("learning_stamps")):
        return ""
    from lazy_harness.queue import index_task

    asked = any(index_task.read(t) == mdir for t in index_task.waiting(paths.queue_dir(s.env)))
    try:  # why: asked already by another start: no second task, but a worker if none runs
        return f" (index behind the memory files: {index_task.ask_worker(s.env, mdir, queued=asked)})"
    except OSError as exc:
        return f" (index behind the memory files; index task waits, worker not started: {exc})"


def person_notice(s: Start) -> str:
    """A paused or failing distillation is the person's business: systemMessage is shown to them
    and never sent to the model (ADR 0013)."""
    if notice.storage_untold(s.env) and s.headless():  # why: told once; nobody sees a headless run's message
        s.unmarked = True
        told = notice.for_person(s.cfg, s.env, s.now, once=True, keep=True)
    else:
        told = notice.for_person(s.cfg, s.env, s.now, once=True)
    if told:
        s.person.append(told)
        s.told += f" (told the person: {told})"
    return ""


def migration(s: Start) -> str:
    """Move this project's files out of Claude Code's auto-memory folder before Claude Code indexes
    them. Costs a few ``lstat`` when there is nothing to move (every start after the first)."""
    root = project_root(s.cwd)
    key = paths.project_key(root)
    mdir = paths.project_memory_dir(root, s.env, s.cfg["memory"]["path"] or None)
    if not migrate.pending(key, root, s.env, mdir) and not migrate.stale_index(key, root, s.env) \
            and not migrate.unrecorded_alias(root, mdir, s.env) and not migrate.earlier_key(root, mdir, s.env):
        if not os.path.exists(paths.last_key_file(root, s.env)):
            from lazy_harness.hooks import start_migration  # why here: a project's first start here

            words = start_migration.tell_moved(s, root, mdir)
            # why: a project that only ran sessions here (its memory came by sync) is live here too: a
            # synced alias naming its key must not count elsewhere (memory/aliases.py ``counted``)
            migrate.remember_key(root, mdir, s.env)
            return words
        return ""
    from lazy_harness.hooks import start_migration  # why here: a start that migrates

    return start_migration.migrate_now(s, mdir, key, root)


def read_digest(s: Start) -> str:
    # why: a session distilled while it runs (a long one after a Stop, `lh knowledge handoff-now`)
    # must not be told its own entries as notes from earlier sessions at a resume or a compaction,
    # nor a fork those of the sessions whose conversation it holds (memory/lineage.py); a session
    # that starts has written nothing yet, so its start spares every entry the comparison
    own: tuple[str, ...] = ()
    # why Codex's startups too: a `codex fork` names its parent only in its rollout's session_meta,
    # written before its first hook, and a start of one need not say source=fork
    if s.source != "startup" or agent_of(s.payload) == CODEX:
        from lazy_harness.memory import lineage  # why here: a new start, the usual one, compares nothing

        sid, path = str(s.payload.get("session_id") or ""), str(s.payload.get("transcript_path") or "")
        if s.source == "fork":  # why: 2.1.332 writes the fork's transcript with its first prompt
            lineage.mark_fork(s.env, sid)
        elif s.source == "startup":  # Codex's: a fork's rollout names its parent from the start
            lineage.record(s.env, sid, lineage.from_transcript(path, sid) or ())
        own = lineage.own(s.env, sid, path)
    if not own and agent_of(s.payload) != CODEX:
        return kept_or_made(s)
    from lazy_harness.recall.readback import digest

    s.text, s.stats = digest.digest(s.cwd, s.cfg, s.env, s.now, s.source, own, trouble_of(s.env))
    return codex_fit(s, own) if agent_of(s.payload) == CODEX else ""


def kept_or_made(s: Start) -> str:
    """The read-back of a start that compares nothing with its own entries: the one kept for this folder
    while what it was made from is unchanged (recall/readback/prepared.py), else the digest's, kept for
    the next start when it may be."""
    trouble = trouble_of(s.env)
    try:
        failing = trouble()
    except OSError:
        failing = None  # why: the digest names the error
    if failing is not None and not failing[0]:
        kept = prepared.load(s.env, s.cwd, s.cfg, s.now)
        # why told first: the hold check of a learning not told of yet reads it whole (hold_and_tell);
        # a start with nothing to print tells nothing of them
        if kept is not None and (kept[0] is None or all_told(kept[1].get("waiting_learnings"), s.env)):
            s.text, s.stats = kept[0], {**kept[1], "source": s.source, "session": (), "errors": [],
                                        "distill_failed": 0}
            return " (read-back as prepared)"
    from lazy_harness.recall.readback import digest

    if failing is None or failing[0]:  # why: said in the text's header (or its error logged): not kept
        s.text, s.stats = digest.digest(s.cwd, s.cfg, s.env, s.now, s.source, (),
                                        trouble if failing is None else lambda: failing)
        return ""
    (s.text, s.stats), seen = prepared.record(
        s.env, lambda env: digest.build_context(s.cwd, s.cfg, env, s.now, s.source, trouble=failing))
    if prepared.keepable(s.stats):
        problem = prepared.save(s.env, s.cwd, s.cfg, (s.text, s.stats), seen)
        return f" ({problem})" if problem else ""
    return ""


def codex_fit(s: Start, own: tuple[str, ...]) -> str:
    """Under Codex CLI: the digest within CODEX_CONTEXT_BYTES of UTF-8 (``readback.codex_fit``, which
    ``lh memory show --agent codex`` calls too); its words for hooks.log name the cap."""
    from lazy_harness.recall.readback import codex_fit as fitting  # why here: Codex sessions only

    s.text, s.stats, words = fitting.codex_fit(s.cwd, s.cfg, s.env, s.now, s.source, s.text, s.stats, own,
                                              trouble_of(s.env))
    return words


def trouble_of(env: Mapping[str, str]) -> Callable[[], tuple[int, str | None]]:
    """What the read-back asks of the queue: failing distillation (``queue.distill_trouble``)."""
    def trouble() -> tuple[int, str | None]:
        from lazy_harness.memory.files import iso_epoch

        return queue.distill_trouble(paths.queue_dir(env), paths.worker_state_file(env), iso_epoch)
    return trouble


def remember_shown(s: Start) -> str:
    """The ids of the failures, decisions, open items and learnings the digest printed, so prompt
    recall does not repeat them: the file starts over unless the session resumes (also when nothing
    was printed: after a compaction the context holds none of what prompts injected before)."""
    from lazy_harness.recall.prompt import already_shown as shown

    if s.text is None or s.stats is None:
        if s.source != "resume":
            try:
                shown.add(s.env, str(s.payload.get("session_id") or ""), [], replace=True)  # removes the file
            except OSError:  # why: a nicety for prompt recall, never the start's failure
                pass
        return ""

    each = prepared.printed_ids(s.stats)
    got = [eid for ids in each.values() for eid in ids]
    sid = str(s.payload.get("session_id") or "")
    try:
        shown.add(s.env, sid, got, replace=s.source != "resume")
    except Exception as exc:  # why: what was shown is a nicety for prompt recall; the digest matters more
        s.stats["errors"].append(f"shown ids not recorded: {type(exc).__name__}: {exc}")
    from lazy_harness.memory import usage

    chars = s.stats.get("item_chars") or {}
    pairs = [pair for section, ids in each.items() for pair in zip(ids, chars.get(section) or [], strict=False)]
    try:  # the usage record (ADR 0036): one line appended; the worker does the accounting
        usage.note(s.env, sid, s.source, int(s.stats.get("chars") or 0), pairs, s.now,
                   memory_dir=str(s.stats.get("memory_dir") or ""))
    except Exception as exc:  # why: usage is counted without this showing; the digest matters more
        s.stats["errors"].append(f"usage not recorded: {type(exc).__name__}: {exc}")
    return ""


def hold_left_out(s: Start) -> str:
    """Hold what the digest's read-time check left out (memory/held.py); tell the person, once, of
    the entries of this project held since they were last told. A failure is logged, never raised."""
    if s.stats is None:
        return ""
    try:
        words, message = hold_and_tell(s.stats, s.cfg, s.env, s.now, waiting=s.text is not None, seen=s)
    except Exception as exc:  # why: the digest (already without the held entries) matters more
        s.told += f" (hold not recorded: {type(exc).__name__}: {exc})"
        return ""
    s.told += words
    if message:
        s.person.append(message)
    return ""


def tell_recurred(s: Start) -> str:
    """A failure memory showed a session and that session hit again (worker/usage.py): told to the
    person once, with its id. One ``open`` when nothing ever recurred."""
    if s.stats is None:
        return ""
    from lazy_harness.memory import usage

    key = os.path.basename(os.path.normpath(s.stats["memory_dir"]))
    again = usage.untold_recurred(s.env, key)
    if not again:
        return ""
    from lazy_harness.hooks import told_once  # why here: something to tell

    told_once.recurred(s, s.stats["project"], key, again)
    return ""


# --- what the steps read and write -----------------------------------------------------------------

def told_ids(env: Mapping[str, str]) -> set[str]:
    """What the person was told of: held entries' ids, and ``WAITING_TOLD`` + a waiting learning's id."""
    try:  # why read_regular: a FIFO in the file's place held the session start in open() for good
        return set(read_regular(os.path.join(paths.state_dir(env), "held-told")).decode("utf-8", "replace").split())
    except OSError:
        return set()


def all_told(waiting: object, env: Mapping[str, str]) -> bool:
    """Whether the person was told of every learning ``waiting`` (ids) for approval; True for none."""
    if not waiting:
        return True
    told = told_ids(env)
    return isinstance(waiting, list) and all(f"{WAITING_TOLD}{i}" in told for i in waiting)


def hold_and_tell(stats: dict, cfg: Config, env: Mapping[str, str], now: float,
                  waiting: bool = True, seen: Start | None = None) -> tuple[str, str]:
    """Hold what the digest's read-time check left out (memory/held.py), then the line for the person
    when entries of this project were held since they were last told, and (``waiting``: the session
    got memory) when learnings of other projects wait for approval to be used here that they were not
    told of (ADR 0032): (log words, message or ''). ``seen``: the run, asked whether it is headless
    (then the line is not marked told) when there is something to tell."""
    from lazy_harness.memory import marks

    mdir, said = stats["memory_dir"], ""
    screen = stats.get("screen")
    # why: a learning is held by its frontmatter, which needs the YAML writer this hook cannot import
    # (-S, ADR 0002); the read-time check leaves it out of every session until the worker, sync or
    # lh memory approve writes it, and lh memory held lists it
    marked = [f for f in getattr(screen, "found", ()) if f[0] != "learning"]
    if marked:
        from lazy_harness.memory import held  # why here: something to hold

        run = held.hold(mdir, paths.learnings_dir(cfg["knowledge"]["path"] or None, env), marked,
                        stats["project"], now, "read at session start", by_rules=True)
        said = f" (held {len(marked)} entr{'y' if len(marked) == 1 else 'ies'}: run {run})"
    if screen is not None and len(screen.found) > len(marked):
        said += f" (left out {len(screen.found) - len(marked)} learning(s) that read as instructions or hold a secret)"
    ids_ = set(marks.held_ids(mdir)) | set(stats.get("held_learnings") or ()) | {f[1] for f in getattr(
        screen, "found", ())}
    waits = set(stats.get("waiting_learnings") or ()) if waiting else set()
    told_file = os.path.join(paths.state_dir(env), "held-told")
    told = told_ids(env)
    new = sorted(ids_ - told)
    # why: a learning's two states are told apart (w:): held later, it is told again
    # why only the ones not told yet: the hold check reads a learning whole; one told was checked then
    holds = stats.get("waiting_held")
    waits -= {i for i in waits if f"{WAITING_TOLD}{i}" not in told and holds is not None and holds(i)}
    new_waiting = sorted(f"{WAITING_TOLD}{i}" for i in waits if f"{WAITING_TOLD}{i}" not in told)
    if not new and not new_waiting:
        return said, ""
    from lazy_harness.hooks import told_once  # why here: something to tell

    words, message = told_once.held(seen, stats["project"], told_file, new, new_waiting, len(waits))
    return said + words, message


WAITING_TOLD = "w:"  # in the told file: a learning told as waiting for approval to be used in other projects


def _out(obj: dict) -> str | None:
    return jsonload.dumps(obj) + "\n" if obj else None
