"""``lh distill PATH``: the whole pipeline on one transcript, in the foreground. It waits while the
worker distils the same session (worker/cursor.py), then reads only what the worker left; and while
another model call holds what is left under a spend cap (cost/budget.py), then tries again."""

from __future__ import annotations

import os
import time

import click

from lazy_harness import paths, queue
from lazy_harness.cli.options import project_option
from lazy_harness.errors import LhError
from lazy_harness.logfile import terminal_safe
from lazy_harness.regular_file import open_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.worker.pipeline import Outcome


def _not_a_transcript(given: str, path: str) -> str:
    import stat

    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return f"{given}: no such transcript"
    except OSError as exc:
        return f"{given}: cannot read it: {exc.strerror}"
    what = ("a directory" if stat.S_ISDIR(mode) else "a FIFO (named pipe)" if stat.S_ISFIFO(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "not a regular file")
    return f"{given}: is {what}, not a transcript file"


LONG_LINE = 1 << 20  # bytes of a line read at once: a longer one is taken for a record when it opens as one


def _no_record(path: str) -> str | None:
    """Why no line of ``path`` is a JSON object (``line 3: not JSON``), or None when one is, or when no
    line holds anything (an empty transcript: skipped as empty, as the worker skips it). Stops at the
    first record, so a transcript costs one line; a line longer than :data:`LONG_LINE` is not held in
    memory whole: it counts as a record when it opens with ``{`` (the pipeline reads it), else not."""
    import json

    first: str | None = None
    number, inside = 0, False
    with open(open_regular(path)[0], "rb") as fh:  # why: a FIFO put there since isfile held it in open()
        while chunk := fh.readline(LONG_LINE):
            ended = chunk.endswith(b"\n")
            if inside:  # the rest of a long line, already judged
                inside = not ended
                continue
            number += 1
            text = chunk.removeprefix(b"\xef\xbb\xbf") if number == 1 else chunk
            if not ended and len(chunk) == LONG_LINE:
                inside = True
                if text.lstrip().startswith(b"{"):
                    return None
                first = first or f"line {number}: not JSON"
                continue
            if not text.strip():
                continue
            try:
                record = json.loads(text)
            except ValueError:  # UnicodeDecodeError too
                first = first or f"line {number}: not JSON"
                continue
            if isinstance(record, dict):
                return None
            first = first or f"line {number}: not a JSON object"
    return first


def _check_transcript(transcript: str, path: str) -> None:
    """Raise LhError naming ``transcript`` when ``path`` is no regular file or holds no record."""
    if not os.path.isfile(path):
        raise LhError(_not_a_transcript(transcript, path))
    # why: notes or a binary file were read as an empty session: "skipped (empty)", exit 0, queue state written
    try:
        why = _no_record(path)
    except OSError as exc:  # e.g. a FIFO put there since isfile looked
        raise LhError(f"{transcript}: cannot read: {exc.strerror or exc}") from None
    if why is not None:
        raise LhError(f"{transcript}: not a transcript ({why})")


@click.command()
@click.argument("transcript", type=click.Path(dir_okay=False))
@project_option("Project folder (default: the session's cwd).")
@click.option("--dry-run", is_flag=True,
              help="Print the prompt and where results would go; call nothing, write nothing.")
@click.option("--whole", is_flag=True,
              help="Read the session from its start, also the part an earlier distillation already read.")
def distill(transcript: str, project: str | None, dry_run: bool, whole: bool) -> None:
    """Distill TRANSCRIPT into its project's memory (or show what would happen with --dry-run)."""
    from lazy_harness import config
    from lazy_harness.cli import sessions
    from lazy_harness.worker import pipeline, rollout

    path = os.path.abspath(transcript)
    _check_transcript(transcript, path)
    cfg = config.load()
    codex = rollout.session_meta(path)  # a Codex rollout starts with its session_meta (docs/how/codex.md)
    recorded = sessions.session_cwd(path)  # a resumed rollout's last turn's folder, as the hooks see it
    cwd = os.path.abspath(project) if project else (recorded or os.getcwd())
    fields = {
        # why the random part: two runs started in one second once shared a task id, and so the name of
        # the record of the checks their persists owe (worker/owed.py): one wrote over the other's
        "task_id": f"distill-{int(time.time())}-{os.urandom(3).hex()}",
        "session_jsonl": path,
        "session_id": os.path.basename(path).removesuffix(".jsonl"),
        "cwd": cwd,
        "memory_dir": paths.memory_dir(cwd, None, cfg["memory"]["path"] or None),
    }
    if codex is not None:
        fields["agent"] = rollout.AGENT
        fields["session_id"] = str(codex.get("id") or fields["session_id"])
    if whole:
        fields["event"] = pipeline.WHOLE_SESSION_EVENT
        fields[queue.AGAIN] = "1"  # why: --whole is asked for: read whole even when nothing was said since
    # why: a transcript named on the command line is the user's own choice, so it may live anywhere
    outcome = pipeline.distill(fields, cfg, os.environ, dry_run=dry_run, trust=False)
    said = False
    while _busy(outcome):
        _wait_for_the_other_call(outcome.reason, said)
        said = True
        outcome = pipeline.distill(fields, cfg, os.environ, trust=False)
    if dry_run:
        if outcome.prompt is not None:
            # why terminal_safe: the prompt quotes the transcript, where a pasted log or a tool's output may
            # hold an escape sequence; line breaks and tabs stay, so it reads as the model gets it
            click.echo(terminal_safe(outcome.prompt, keep="\n\t"))
            click.echo(f"\n# prompt: {len(outcome.prompt)} characters", err=True)
        click.echo(f"# {outcome.status}: {outcome.reason}", err=True)
        if outcome.status != "processed":
            click.echo("# nothing would be written" + ("" if whole or outcome.prompt is not None
                                                       else " (--whole shows the prompt for the whole session)"),
                       err=True)
            return
        learnings = paths.learnings_dir(cfg["knowledge"]["path"] or None)
        click.echo(f"# would append to {os.path.join(fields['memory_dir'], 'decisions.jsonl')} and failures.jsonl,",
                   err=True)
        click.echo(f"# open or close items in {os.path.join(fields['memory_dir'], 'handoff.jsonl')} "
                   "(handoff.md re-rendered),", err=True)
        click.echo(f"# add learnings under {learnings}/YYYY-MM/,", err=True)
        click.echo(f"# and mark in {os.path.join(fields['memory_dir'], 'marks.jsonl')} the decisions a new one "
                   "replaces", err=True)
        return
    _record_check(fields["session_id"], outcome)
    _report(outcome)


def _busy(outcome: Outcome) -> bool:
    """Whether the run waits only for another model call holding what is left under a cap."""
    from lazy_harness.cost import budget

    return outcome.status == "waiting" and outcome.reason.startswith(budget.BUSY)


def _wait_for_the_other_call(reason: str, said: bool) -> None:
    """One line (the first time only: the other process may call again and again), then wait until
    the calls running now end (their markers' locks are released)."""
    from lazy_harness.cost import markers

    if not said:
        click.echo(f"{reason}; lh distill waits for that call to end (Ctrl-C stops waiting)")
    try:
        markers.wait_open_calls()
    except KeyboardInterrupt:
        click.echo("stopped waiting; nothing was distilled", err=True)
        raise click.exceptions.Exit(130) from None


def _record_check(session_id: str, outcome: Outcome) -> None:
    """The session's check mark, as the worker leaves one for a task (lh backfill and the Stop gates
    read it): without it, a session distilled here still looked never distilled."""
    from lazy_harness.worker import one_task

    q = paths.queue_dir()
    try:
        mark = one_task.check_mark(q, session_id, outcome)
        if mark is not None:
            queue.ensure_layout(q)
            queue.mark_done(q, session_id, mark[0], time.time(), mark[1])
    except OSError as exc:  # why: memory is written; only the note that it was is missing
        click.echo(f"  the session's check was not recorded ({exc}); lh backfill may list it again", err=True)


def _report(outcome: Outcome) -> None:
    """What the run did, one line and then what it wrote; exit 1 when it failed or waits."""
    if outcome.waited is not None:
        click.echo(f"waited {outcome.waited:.0f} s for another distillation of this session (the worker's) to "
                   "finish; then read only what it left")
    click.echo(f"{outcome.status}: {outcome.reason}")
    for problem in outcome.problems:
        click.echo(f"  answer: {problem}")
    from lazy_harness.memory.store import Plan

    plan = outcome.plan
    if isinstance(plan, Plan):  # (Outcome.plan is typed object: the pipeline imports the store lazily)
        for line in plan.describe():
            click.echo(f"  {line}")
    if outcome.status in ("failed", "waiting"):  # waiting: a spend cap or an unreachable API
        raise click.exceptions.Exit(1)
