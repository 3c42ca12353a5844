"""``python -m lazy_harness`` and the ``lh`` script: the command line (``lazy_harness.cli``).

``lh memory search`` with plain arguments is answered without loading click (``recall.search``):
importing click costs about 4 x a bare Python start on its own, more than the search at 100,000
entries. Anything else, ``--help`` and every argument the quick parse is unsure of included, goes
through click, which prints the same lines (the click command calls the same functions).
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else list(argv)
    if args[:2] == ["memory", "search"]:
        from lazy_harness.recall import search

        opts = search.parse(args[2:])
        if opts is not None:
            sys.exit(_search(search, opts))
    from lazy_harness.cli import main as cli_main

    cli_main(args)


def _search(search: ModuleType, opts: dict) -> int:
    """``lh memory search`` without click: lines as ``click.echo`` prints them, an ``LhError`` as one
    line and exit 1, as ``cli.main`` does."""
    import os

    from lazy_harness.errors import LhError
    from lazy_harness.logfile import terminal_safe

    def say(text: str, err: bool = False) -> None:
        stream = sys.stderr if err else sys.stdout
        stream.write(terminal_safe(text, "\t") + "\n")
        stream.flush()

    from lazy_harness import private

    try:
        refused = private.refusal(os.environ)  # why: as the click group does for every command (ADR 0031)
        if refused is not None:
            raise LhError(refused[0], hint=refused[1])
        return search.run(env=os.environ, say=say, **opts)
    except LhError as exc:
        sys.stderr.write(f"lh: {exc}\n")
        return 1
    except BrokenPipeError:
        return 0
    except OSError as exc:  # as cli.main does
        what = exc.strerror or type(exc).__name__
        sys.stderr.write(f"lh: {exc.filename}: {what}\n" if exc.filename is not None else f"lh: {what}\n")
        return 1


if __name__ == "__main__":
    main()
