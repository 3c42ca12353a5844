"""``lh ui``: a local page over the memory (docs/how/ui.md). The server and the page live in
:mod:`lazy_harness.ui`; this prints the URL, opens a browser and serves until Ctrl-C."""

import os
import sys

import click


@click.command()
@click.option("--port", default=0, show_default=True, type=click.IntRange(0, 65535),
              help="The port on 127.0.0.1 (0: any free port).")
@click.option("--no-open", is_flag=True, help="Print the URL only; do not open a browser.")
def ui(port: int, no_open: bool) -> None:
    """Serve a page over the memory on 127.0.0.1; the first line printed is its URL, with an access token."""
    import signal

    from lazy_harness.ui.server import UiServer

    # why: a process started in the background of a shell without job control (a CI script's `&`)
    # inherits SIGINT ignored, and Python keeps it so: Ctrl-C (or a test's SIGINT) must stop it
    signal.signal(signal.SIGINT, signal.default_int_handler)
    server = UiServer(port, os.getcwd(), os.environ)
    try:
        click.echo(server.url)
        sys.stdout.flush()  # why: the first line is read by whoever started us, before any request
        if not no_open:
            import webbrowser

            if not webbrowser.open(server.url):
                click.echo("lh ui: no browser found: open the URL above", err=True)
        click.echo("lh ui: serving; Ctrl-C stops it", err=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            click.echo("lh ui: stopped", err=True)
    finally:
        server.server_close()
