"""The damage of a learning file, one line per file: what ``lh memory check`` and ``lh doctor`` name
(not UTF-8 text, frontmatter not closed, not YAML or no mapping, a title, date or status no reader can
use, a folder in the file's place, git conflict markers a merge by hand left), and the refusal of a
writer (``lh memory forget`` and ``approve``, the page) to set the status fields of a learning whose
frontmatter it cannot read. Readers stay lenient: they read such a learning as well as they can.

Not on the hot path: only the checks and the commands that change a learning import it.
"""

from __future__ import annotations

import os

from lazy_harness.errors import LhError
from lazy_harness.memory import fence, files, frontmatter_scalars, lines
from lazy_harness.memory.damage import RESOLVE, conflict_marker, folder_unreadable, unreadable
from lazy_harness.memory.state import EMPTY, NO_FRONTMATTER, STATUSES


def unclosed_learnings(learnings_dir: str) -> list[str]:
    """``<file>: <why>`` for each damaged learning, one line each (:func:`learning_damage`): a folder in
    its place, its frontmatter not closed (``lh memory forget`` refuses it), not UTF-8 text, frontmatter that is no
    mapping of keys or not YAML, a title or ``created`` that cannot be read, a git conflict left in its
    text (:func:`conflict`); first each folder of them this user cannot read. Readers stay lenient."""
    folders = [learnings_dir] + [os.path.join(learnings_dir, m) for m in files.month_folders(learnings_dir)]
    out = [f"{folder}: cannot be read: {why}" for folder in folders if (why := folder_unreadable(folder))]
    for path in files.recent_learning_files(learnings_dir, 10**9):
        why = learning_damage(path)
        if why:
            out.append(f"{path}: {why}")
    return out + stray_learnings(learnings_dir)


def stray_learnings(learnings_dir: str) -> list[str]:
    """``<file>: <why>`` for each ``.md`` file under ``learnings_dir`` that is not in a month folder
    (``YYYY-MM``) of it: one saved in the learnings folder itself, in a folder a person made
    (``archive/``), or a folder deeper in a month. why named: every reader lists the month folders
    only, so such a learning is shown, searched and held nowhere, without a word."""
    months = set(files.month_folders(learnings_dir))
    out = []
    for folder, subs, names in os.walk(learnings_dir):
        subs[:] = sorted(d for d in subs if not d.startswith("."))
        inside = os.path.relpath(folder, learnings_dir)
        if inside in months:
            continue
        for name in sorted(filter(files.is_learning_name, names)):
            day = fence.date_of(name) or ""
            month = os.path.join(learnings_dir, day[:7] if day else "YYYY-MM")
            out.append(f"{os.path.join(folder, name)}: not in a month folder, so no reader sees it (not shown, "
                       f"searched or held); move it into {month}/")
    return out


def learning_damage(path: str) -> str | None:
    """Why a learning file is damaged (its problems joined by ``; ``): ``cannot be read: a folder, not a
    file`` when something else has its name, as a memory file is named (``damage.unreadable``); None
    when it is not damaged or cannot be opened."""
    gone = unreadable(path)
    if gone is not None:  # why: a folder named as a learning was skipped by every reader without a word
        return f"cannot be read: {gone}"
    try:  # why read_regular: something else may be put in the file's place since unreadable() looked
        data = lines.read_regular(path)
    except OSError:
        return None
    if data.startswith(files.BOM):
        data = data[len(files.BOM):]
    why = files.not_text(data)
    if why:
        return f"not text: {why} (readers drop or misread it)"
    from lazy_harness.memory import frontmatter

    text = frontmatter.as_lf(data.decode("utf-8"))  # why: a bare-CR file is read as every reader reads it
    return "; ".join(filter(None, (conflict(text), _text_damage(text, path)))) or None


def conflict(text: str) -> str | None:
    """``line 7: a git conflict marker ...`` when ``text`` holds a conflict git left to a merge by hand
    (a ``<<<<<<<`` line outside a fenced code block, then ``=======`` and ``>>>>>>>`` lines), naming the
    line of its first marker; None otherwise. why the three in order: a ``=======`` alone underlines a
    heading, and markers in a code block show a conflict as an example."""
    rows = text.split("\n")
    fence = ""
    for number, line in enumerate(rows, 1):
        mark = line.strip()[:3]
        if mark in ("```", "~~~") and (not fence or mark == fence):
            fence = "" if fence else mark
        elif not fence and line.startswith("<<<<<<<") and conflict_marker(line):
            rest = iter(rows[number:])  # why one iterator: the ">>>>>>>" is looked for after the "======="
            if all(any(r.startswith(m) and conflict_marker(r) for r in rest) for m in ("=======", ">>>>>>>")):
                return (f"line {number}: a git conflict marker ({line.strip()[:40]}): a merge by hand left both "
                        f"sides in its text, and readers show both; {RESOLVE}")
    return None


def _text_damage(text: str, path: str) -> str | None:
    """The damage of a learning's decoded ``text`` (:func:`learning_damage`), but a conflict's."""
    from lazy_harness.memory import frontmatter

    if not text.strip():
        return f"{EMPTY}: no session is shown it and it cannot be approved; {RESTORE.format(what='text')}"
    if not frontmatter.opens(text):
        return (f"{NO_FRONTMATTER}: it names no project, scope or status, so no session is shown it (with [trust] "
                f"cross_projects = \"auto\": every one, {named_by_file(path)}) and it cannot be approved; "
                f"{RESTORE.format(what='frontmatter (the --- block above its text)')}")
    if frontmatter.not_closed(text):
        return frontmatter.NOT_CLOSED
    quote = frontmatter.open_quote(text)  # why first: the line where the damage starts, not where YAML stops
    problems = [f"{quote} (whose it is cannot be read: SessionStart and lh memory show leave it out)"] if quote else []
    problems += _yaml_problem(text, path) + _status_problems(text)
    twice = frontmatter.repeated_keys(text)
    if twice:  # why: every reader settles a repeated key the same way, showing the learning least
        problems.append("key(s) given twice, read as shown least (scope: project): " + ", ".join(twice))
    parsed = frontmatter.parse_frontmatter(text)
    meta = parsed[0] if parsed is not None else {}
    title, created, origin = meta.get("title"), meta.get("created"), meta.get("origin")
    if "title" in meta and not (isinstance(title, str) and title.strip()):
        problems.append("title: not one line of text")
    if "created" in meta and files.iso_epoch(created) is None:
        problems.append(f"created: not a date ({created!s:.40})")
    if "origin" in meta and origin is not None and not isinstance(origin, str):
        problems.append("origin: not text")
    folder = meta.get("project_folder")
    if isinstance(folder, str) and ("/" in folder or os.sep in folder):  # why: a key is a folder's name
        problems.append(_path_for_key(folder))
    return "; ".join(problems) or None


def _path_for_key(folder: str) -> str:
    """What to write instead of a path in ``project_folder``: the project key of that folder, when it is
    one here. why: a person who wrote the project's folder there saw the learning in no project (every
    reader compares the field with the project's keys), and no command said why."""
    from lazy_harness import paths
    from lazy_harness.project_identity import project_root

    where = os.path.expanduser(folder)
    fix = (f"write project_folder: {paths.project_key(project_root(where))}, the key of that folder"
           if os.path.isabs(where) and os.path.isdir(where) else
           "write its project's key there (the last part of what lh memory path prints in its folder)")
    return f"project_folder: {folder[:120]!r} is a path, not a project key, so no project shows it; {fix}"


RESTORE = "restore its {what} from a backup or the data folder's git history, or delete the file"


def _status_problems(text: str) -> list[str]:
    """``line 7: status 'actve' is not one of active, deprecated, forgotten, held: ...`` for each status
    line no writer writes (a typo: every reader reads it as a status that is not ``active`` and hides the
    learning everywhere); none for a known one, in any case or quoted."""
    from lazy_harness.memory import frontmatter

    out = []
    end = text.find("\n---", 3)
    for number, line in enumerate(text[:end].split("\n")[1:], 2):
        key, colon, value = line.partition(":")
        given = frontmatter_scalars.uncommented(value.strip())  # why: ``active  # note`` is active to every reader
        if key != "status" or not colon or given.strip("\"'").strip().lower() in (*STATUSES, *frontmatter.NULLS):
            continue
        # why hidden, not shown: a mistyped "forgoten" or "held" meant it to stay out of sight
        out.append(f"line {number}: status {given.strip(chr(34) + chr(39))!r} is not one of {', '.join(STATUSES)}: "
                   "every reader hides it, as one not active; set one of them")
    return out


def refusal(path: str) -> str | None:
    """``<file>: <why>`` when a learning's status fields cannot be written (``lh memory forget`` and
    ``approve``, the page): its frontmatter not closed, a quote left open, not YAML (with the line, as
    ``lh memory check`` names it), not a mapping; None when they can, or the file cannot be read."""
    from lazy_harness.memory import frontmatter

    try:  # why open_regular: a FIFO named as a learning held forget and approve in open() for good
        with open(lines.open_regular(path)[0], encoding="utf-8-sig", errors="replace") as fh:
            text = fh.read(frontmatter.MAX_OPEN_SCAN)
    except OSError:
        return None
    if not frontmatter.opens(text):
        return None  # why: no frontmatter to mark; the writer says so
    if frontmatter.not_closed(text):
        return f"{path}: {frontmatter.NOT_CLOSED}"
    quote = frontmatter.open_quote(text)
    problems = [quote] if quote else _yaml_problem(text, path)
    return f"{path}: {problems[0]}" if problems else None


def refuse(paths_: list[str]) -> None:
    """Raise the :func:`refusal` of the first of a learning's files whose status fields cannot be
    written, before anything is: its file and line, not a parser's bare complaint."""
    from lazy_harness.memory import frontmatter

    for path in paths_:
        why = refusal(path)
        if why is None:
            continue
        if why.endswith(frontmatter.NOT_CLOSED):
            raise LhError(why, hint=f"add a --- line after its last key in {path}")
        raise LhError(why, hint=f"fix its frontmatter in {path}, then lh memory check")


def named_by_file(path: str) -> str:
    """How the readers name a learning whose frontmatter gives no title: with the title and the date its
    file name gives (``ids.title_of_file``: ``2026-04-13-use-x.md`` -> "use x"; ``fence.date_of``),
    untitled or undated when the name gives none."""
    from lazy_harness.memory import fence, ids

    title = ids.title_of_file(path).strip()
    day = fence.date_of(os.path.basename(path))
    given = ([f'title "{title}"'] if title else []) + ([f"date {day}"] if day else [])
    if not given:
        return "untitled and undated: its file name gives no title or date"
    lacking = "" if title and day else ", untitled" if day else ", undated"
    return f"with the {' and '.join(given)} of its file name{lacking}"


def _yaml_problem(text: str, path: str) -> list[str]:
    """What a YAML parser says of the frontmatter block: not YAML, or not a mapping of keys."""
    import yaml

    end = text.find("\n---", 3)
    block = text[text.find("\n") + 1:end]
    try:
        # why BaseLoader: every scalar stays text; the title and date are judged as the readers read them
        value = yaml.load(block, Loader=yaml.BaseLoader)  # noqa: S506 - BaseLoader builds no objects
    except RecursionError:  # why: a list nested thousands deep stopped lh memory check with a traceback
        return ["frontmatter is not YAML a reader can take (nested too deep)"]
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 2}: " if mark is not None else ""
        return [f"frontmatter is not YAML ({where}{getattr(exc, 'problem', None) or 'unreadable'})"]
    if value is None or isinstance(value, dict):
        return []
    return [f"frontmatter is not a mapping of keys (a {'list' if isinstance(value, list) else 'scalar'}; "
            f"readers name it {named_by_file(path)})"]
