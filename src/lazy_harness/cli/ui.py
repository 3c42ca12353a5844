"""``lh ui``: a local page over the memory (docs/how/ui.md). The server and the page live in
:mod:`lazy_harness.ui`; this prints the URL, opens a browser and serves until Ctrl-C."""

import os
import sys

import click

from lazy_harness.errors import LhError


@click.command()
@click.option("--port", default=0, show_default=True, type=click.IntRange(0, 65535),
              help="The port on 127.0.0.1 (0: any free port).")
@click.option("--no-open", is_flag=True, help="Print the URL only; do not open a browser.")
def ui(port: int, no_open: bool) -> None:
    """Serve a page over the memory on 127.0.0.1; the first line printed is its URL, with an access token."""
    import signal

    from lazy_harness.ui import launch
    from lazy_harness.ui.server import UiServer

    # why: a process started in the background of a shell without job control (a CI script's `&`)
    # inherits SIGINT ignored, and Python keeps it so: Ctrl-C (or a test's SIGINT) must stop it
    signal.signal(signal.SIGINT, signal.default_int_handler)
    server = UiServer(port, os.getcwd(), os.environ)
    opener = None
    try:
        click.echo(server.url)  # why: the person's own terminal; the browser's command line never holds it
        sys.stdout.flush()  # why: the first line is read by whoever started us, before any request
        try:  # why: a Ctrl-C while the browser opens, or just after the line below, stops it cleanly too
            if not no_open:
                opener = _open_browser(server.url)
            click.echo("lh ui: serving; Ctrl-C stops it", err=True)
            server.serve_forever()
        except KeyboardInterrupt:
            click.echo("lh ui: stopped", err=True)
    finally:
        server.server_close()
        if opener is not None:
            launch.remove(opener)


def _open_browser(url: str) -> str | None:
    """Open a browser on ``url`` through a private file that leads to it (ui/launch.py): any user can
    read a browser's command line. The file's path, to remove when the server stops, or None."""
    import webbrowser

    from lazy_harness.ui import launch

    try:
        opener = launch.write(url, os.environ)
    except (LhError, OSError) as exc:  # why: the page serves on; the person opens the printed URL
        click.echo(f"lh ui: cannot give the browser the page: {exc}: open the URL above", err=True)
        return None
    try:
        opened = webbrowser.open(launch.file_url(opener))
    except BaseException:
        launch.remove(opener)
        raise
    if not opened:
        launch.remove(opener)
        click.echo("lh ui: no browser found: open the URL above", err=True)
        return None
    return opener
