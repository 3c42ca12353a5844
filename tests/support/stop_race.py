"""The start of a script that puts a process in the state a stop signal leaves when it lands just
before a blocking call (ADR 0081): the signal's flag set, no call interrupted. ``start_trip(signum,
ready)`` starts a thread that waits until ``ready()`` holds and the main thread is asleep (its state
in /proc), then sets the flag with ``_thread.interrupt_main``. Each test adds its own scenario after
``TRIP`` and runs the whole with ``python -c``."""

TRIP = """
import _thread, os, signal, sys, threading, time
_main = threading.get_native_id()

def _asleep():
    with open(f"/proc/self/task/{_main}/stat", encoding="ascii") as fh:
        return fh.read().rsplit(")", 1)[1].split()[0] == "S"

def _trip(signum, ready):
    while not (ready() and _asleep()):
        time.sleep(0.005)
    _thread.interrupt_main(signum)

def start_trip(signum, ready=lambda: True):
    threading.Thread(target=_trip, args=(signum, ready), daemon=True).start()
"""
