"""Prompt files given to the evaluation with ``--prompts FILE``: a Python file outside the repository
that defines ``PROMPTS = [(project, prompt, [expected keys]), ...]`` over a set's ENTRIES.

Each file becomes a part of its own, named after its stem (``heldout_v2.py`` -> ``heldout_v2``).
A file is checked whole before anything runs; the first problem raises :class:`PromptFileError`,
one line naming the file and the prompt's index or key.
"""

import os

RESERVED = ("dev", "held-out", "all")  # the set's own parts and the total


class PromptFileError(Exception):
    """A prompt file that cannot be used: missing, not loadable, or not labelled over the set."""


def visible(e: dict, project: str) -> bool:
    """Whether an entry is in the hook's scope for ``project``: its own entries, every general learning."""
    if e["kind"] == "learning":
        return e["origin"] == project or e["scope"] == "general"
    return e["project"] == project


def _module_globals(path: str) -> dict:
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except FileNotFoundError:
        raise PromptFileError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PromptFileError(f"{path}: cannot be read: {exc}") from None
    ns = {"__name__": "lh_eval_prompts", "__file__": path}
    try:
        # why: exec of the source, not an import: an import writes __pycache__ beside a file that
        # lives outside the repository
        exec(compile(text, path, "exec"), ns)
    except Exception as exc:
        detail = " ".join(f"{type(exc).__name__}: {exc}".split())
        raise PromptFileError(f"{path}: cannot be loaded: {detail}") from None
    return ns


def _shaped(item) -> bool:
    return (isinstance(item, (tuple, list)) and len(item) == 3 and isinstance(item[0], str)
            and isinstance(item[1], str) and isinstance(item[2], (tuple, list))
            and all(isinstance(k, str) for k in item[2]))


def load(path: str, data, taken=RESERVED) -> tuple[str, list]:
    """(part name, prompts) of one file, checked against the set module ``data`` (its PROJECTS and
    ENTRIES); ``taken`` are the part names already in use."""
    name = os.path.splitext(os.path.basename(path))[0]
    ns = _module_globals(path)
    if "PROMPTS" not in ns:
        raise PromptFileError(f"{path}: defines no PROMPTS")
    prompts = ns["PROMPTS"]
    if not isinstance(prompts, (list, tuple)) or not prompts:
        raise PromptFileError(f"{path}: PROMPTS: expected a non-empty list of (project, prompt, [expected keys])")
    if name in taken:
        raise PromptFileError(f"{path}: part name {name!r} is already used; rename the file")
    by_key = {e["key"]: e for e in data.ENTRIES}
    out = []
    for n, item in enumerate(prompts):
        if not _shaped(item):
            raise PromptFileError(f"{path}: PROMPTS[{n}]: expected (project, prompt, [expected keys]), "
                                  f"got {repr(item)[:60]}")
        project, prompt, expected = item
        if project not in data.PROJECTS:
            raise PromptFileError(f"{path}: PROMPTS[{n}]: project {project!r} is not in PROJECTS "
                                  f"({', '.join(data.PROJECTS)})")
        for key in expected:
            if key not in by_key:
                raise PromptFileError(f"{path}: PROMPTS[{n}]: expected key {key!r} is not an entry key")
            if not visible(by_key[key], project):
                raise PromptFileError(f"{path}: PROMPTS[{n}]: expected entry {key!r} is not visible from "
                                      f"{project!r} (a project sees its own entries and general learnings)")
        out.append((project, prompt, list(expected)))
    return name, out


def load_all(paths: list[str], data) -> list[tuple[str, list]]:
    """Every file in order; part names must differ from each other and from the set's own parts."""
    out: list[tuple[str, list]] = []
    for path in paths:
        out.append(load(path, data, RESERVED + tuple(n for n, _ in out)))
    return out
