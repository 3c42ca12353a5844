"""``lh ui``: a local page over the memory (docs/how/ui.md). The server and the page live in
:mod:`lazy_harness.ui`; this prints the URL, serves, opens a browser and serves on until Ctrl-C."""

from __future__ import annotations

import os
import sys
import threading
import time

import click

from lazy_harness.errors import LhError

WAKE_SECONDS = 0.5  # the longest a stop signal waits for its handler (see _wait_for)
SIGN_IN_WAIT = 15.0  # seconds from the browser's start to its sign-in, else a hint (ADR 0082)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from lazy_harness.ui.server import UiServer


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
    # inherits SIGINT ignored, and Python keeps it so: Ctrl-C (or a test's SIGINT) must stop it.
    # A closed terminal (SIGHUP) and a kill (SIGTERM) stop it the same way, so the opener file holding
    # the secret URL is removed below; a SIGHUP ignored by whoever started us (nohup) stays ignored
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    if signal.getsignal(signal.SIGHUP) is not signal.SIG_IGN:
        signal.signal(signal.SIGHUP, signal.default_int_handler)
    server = UiServer(port, os.getcwd(), os.environ)
    # why: serving before the browser opens: Python's webbrowser waits for a console browser (w3m,
    # lynx, www-browser over SSH) or a $BROWSER command until it exits, and the page must answer it
    serving = threading.Thread(target=_serve, args=(server,), name="lh-ui-serve", daemon=True)
    try:
        click.echo(server.url)  # why: the person's own terminal; the browser's command line never holds it
        sys.stdout.flush()  # why: the first line is read by whoever started us, before any request
        try:  # why: a Ctrl-C while the browser opens, or just after the line below, stops it cleanly too
            # why blocked around start: the new thread inherits the mask, so there is no moment in which it
            # runs with the stop signals open and takes one the main thread, waiting in ``join``, never sees
            # (under load lh ui then went on serving after a SIGHUP). The main thread opens them again at once
            stops = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
            before = signal.pthread_sigmask(signal.SIG_BLOCK, stops)
            try:
                serving.start()
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, before)
            started = time.monotonic()
            if not no_open:
                _open_browser(server)
            click.echo("lh ui: serving; Ctrl-C stops it", err=True)
            # why here: the main thread takes the signals (Ctrl-C, SIGTERM, SIGHUP), and looks at the sign-in
            _wait_for(serving, _sign_in_hint(server, started))
        except KeyboardInterrupt:
            _say_stopped()
    finally:
        if serving.ident is not None:
            server.shutdown()  # why: returns once serve_forever has left its loop
        server.server_close()
        if server.opener is not None:
            launch.remove(server.opener)


def _wait_for(thread: threading.Thread, at_wake: Callable[[], bool] | None = None) -> None:
    """Wait while ``thread`` runs (the page serves, the browser opens), the main thread open to the stop
    signals; ``at_wake`` runs at each wake until it says it is done. why in short waits: a signal that
    arrives after the last check for one and before the thread blocks only sets a flag (the blocking
    call is not interrupted), so a wait without end never ran its handler: lh ui went on serving after
    a SIGTERM (seen under load). Each return to Python runs a handler pending by then."""
    while thread.is_alive():
        thread.join(WAKE_SECONDS)
        if at_wake is not None and at_wake():
            at_wake = None


def _sign_in_hint(server: UiServer, started: float) -> Callable[[], bool] | None:
    """What the main wait runs at each wake while the browser given the page's file has not signed in:
    once :data:`SIGN_IN_WAIT` seconds passed since it started, one line saying why and what to do.
    Done (True) once signed in or said; None when no browser was given the file. why: a snap browser
    (Ubuntu's Firefox and Chromium) cannot read a hidden folder of the home, and showed "file not
    found" while the terminal said nothing (ADR 0082)."""
    opener = server.opener  # why read once: the server's thread drops it at the sign-in, at any moment
    if opener is None:
        return None
    cache = os.path.dirname(os.path.dirname(opener))

    def signed_in_or_said() -> bool:
        if server.opener is None:  # why: the server drops it when the token signs in
            return True
        if time.monotonic() - started < SIGN_IN_WAIT:
            return False
        try:
            click.echo(f"lh ui: the browser has not opened the page in {SIGN_IN_WAIT:g} s; a snap browser "
                       f"(Ubuntu's Firefox, Chromium) cannot read the file it was given in {cache}: "
                       "open the URL above", err=True)
        except OSError:  # why: a terminal gone under nohup; the page serves on
            pass
        return True

    return signed_in_or_said


def _serve(server: UiServer) -> None:
    """The server's loop, in a thread started with the stop signals blocked (``ui``), as are the ones it
    starts per request. why: the kernel gives a kill to any thread that does not block it; taken here,
    the main thread, waiting in ``join``, never woke to stop (lh ui went on serving after a SIGTERM)."""
    server.serve_forever()


def _say_stopped() -> None:
    try:
        click.echo("lh ui: stopped", err=True)
    except OSError:  # why: after a SIGHUP the terminal is gone; the cleanup must still run quietly
        pass


def _open_browser(server: UiServer) -> None:
    """Open a browser on the server's URL through a private file that leads to it (ui/launch.py): any
    user can read a browser's command line. The file's path is kept in ``server.opener``: the server
    removes it once the token signed in, and ``ui`` when the server stops."""
    from lazy_harness.ui import launch

    try:
        opener = launch.write(server.url, os.environ)
    except (LhError, OSError) as exc:  # why: the page serves on; the person opens the printed URL
        click.echo(f"lh ui: cannot give the browser the page: {exc}: open the URL above", err=True)
        return
    server.opener = opener  # why: before the browser starts, which may sign in before it returns
    try:
        opened = _opened(launch.file_url(opener))
    except BaseException:
        launch.remove(opener)
        raise
    if not opened:
        launch.remove(opener)
        server.opener = None
        click.echo("lh ui: no browser found: open the URL above", err=True)


def _opened(url: str) -> bool:
    """``webbrowser.open(url)`` in a thread of its own, waited for in short steps (:func:`_wait_for`).
    why: webbrowser waits for a console browser or a $BROWSER command until it exits; a Ctrl-C or
    SIGTERM that landed just before that wait blocked was acted on only once the person quit the
    browser. why the stop signals open while it runs, not blocked as in the server's thread: the
    browser inherits the mask, and would not stop on Ctrl-C; one taken here is acted on by the main
    thread at its next wake. They are blocked before the thread ends, so once lh ui serves only the
    main thread takes them (a thread that has ended may still be on its way out)."""
    import signal
    import webbrowser

    outcome: list[object] = []

    def open_it() -> None:
        try:
            outcome.append(webbrowser.open(url))
        except BaseException as exc:  # why: raised in the main thread, as before
            outcome.append(exc)
        finally:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM, signal.SIGHUP})

    opening = threading.Thread(target=open_it, name="lh-ui-browser", daemon=True)
    opening.start()
    _wait_for(opening)
    if outcome and isinstance(outcome[0], BaseException):
        raise outcome[0]
    return bool(outcome and outcome[0])
