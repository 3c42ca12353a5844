"""Run ``lh`` in-process through its real entry point (``main``: LhError -> one line, exit 1), or as
the installed console script in a subprocess when a test must prove there is no traceback."""

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass

from click.testing import CliRunner

from lazy_harness.cli import main


@dataclass
class Outcome:
    code: int
    out: str
    err: str


def invoke(*args: str, input: str | None = None) -> Outcome:
    with CliRunner().isolation(input=input) as (out, err, _):
        try:
            main(list(args))
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        return Outcome(code, out.getvalue().decode(), err.getvalue().decode())


def lh_script() -> list[str]:
    """The installed console script beside this interpreter, else ``python -m lazy_harness``."""
    exe = os.path.join(os.path.dirname(sys.executable), "lh")
    if os.access(exe, os.X_OK):
        return [exe]
    found = shutil.which("lh")
    return [found] if found else [sys.executable, "-m", "lazy_harness"]


def run(*args: str, env: dict | None = None, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([*lh_script(), *args], capture_output=True, text=True, timeout=60,
                          env=env or dict(os.environ), cwd=cwd)
