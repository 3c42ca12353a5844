"""Edge cases of recognising the answerer from ``ps`` output (recall/resident/client.py, no /proc):
only ``<python> [options] -m <answerer>`` with at most one ``--replace`` after it, of this user."""

import os

import pytest

from lazy_harness import proc
from lazy_harness.recall.resident import client

ME = os.geteuid()


@pytest.mark.parametrize(("line", "code", "expected"), [
    (f"{ME} /usr/bin/python3 -S -E -m {client.ANSWERER_BEFORE} --replace", 0, True),
    (f"{ME} python3 -m {client.ANSWERER}", 0, True),
    (f"{ME} /usr/bin/python3 -m {client.ANSWERER} --replace", 1, False),  # ps failed
    (f"{ME} /usr/bin/python3 -m {client.ANSWERER} --replace --replace", 0, False),
    (f"{ME} /usr/bin/python3 -m {client.ANSWERER} --other", 0, False),
    (f"{ME} -m {client.ANSWERER}", 0, False),  # no interpreter
    (f"{ME} /usr/bin/python3 -m -m {client.ANSWERER}", 0, False),
    (f"{ME} /usr/bin/python3 -m", 0, False),
    (f"{ME} /opt/my python/bin/python3 -m {client.ANSWERER}", 0, True),
    (f"{ME} /usr/bin/python3 --replace", 0, False),
    (f"{ME}", 0, False),
    ("", 0, False),
])
def test_ps_lines_that_are_and_are_not_the_answerer(monkeypatch, line, code, expected):
    def ps(argv, timeout=None):
        return proc.Result(tuple(argv), code, line + "\n", "")

    monkeypatch.setattr(proc, "run", ps)
    assert client._answerer_by_ps(4242, ME) is expected


def test_a_ps_that_cannot_run_recognises_nothing(monkeypatch):
    def ps(argv, timeout=None):
        raise OSError("no ps")

    monkeypatch.setattr(proc, "run", ps)
    assert client._answerer_by_ps(4242, ME) is False


def test_the_resident_set_is_read_from_proc():
    kb = client.resident_kb(os.getpid())
    assert isinstance(kb, int) and kb > 1000  # a running interpreter holds megabytes
    assert client.resident_kb(2**22 + 12345) is None  # above pid_max: no such process
