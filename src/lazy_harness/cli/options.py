"""Options several ``lh`` commands share."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def existing_folder(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """The ``--project`` callback of every command that reads or writes a project's memory: a folder
    that does not exist is refused with one line before anything is read or created (a typo once got
    a memory folder of its own, and ``approve --all`` filed its undo record there). ``lh memory path``
    alone takes a folder that is gone: it names that folder's memory and changes nothing."""
    if value is None:
        return None
    from lazy_harness.errors import LhError

    where = os.path.abspath(value)
    if not os.path.exists(where):
        raise LhError(f"--project: {where} does not exist", hint="give a folder of the project; lh memory path "
                      "--old lists the memory of folders that are gone")
    if not os.path.isdir(where):
        raise LhError(f"--project: {where} is not a folder", hint="give a folder of the project")
    return value


def project_option(text: str = "A folder of the project (default: here).") -> Callable[[F], F]:
    """``--project DIR``, a folder that exists (:func:`existing_folder`)."""
    return click.option("--project", type=click.Path(file_okay=False), callback=existing_folder, help=text)


def warn_config(problem: str) -> None:
    """``warn`` of :func:`lazy_harness.config.load` for the commands that read or tend memory: one
    line on stderr; the key keeps its default, as the hooks run it."""
    click.echo(f"lh: warning: {problem}; its default is used until it is fixed (lh config validate)", err=True)
