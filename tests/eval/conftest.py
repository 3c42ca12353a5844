"""Every test under tests/eval carries the ``eval`` marker: they measure recall's quality on the
evaluation sets (about 70 s), they are not unit tests. ``pytest`` runs them with the rest;
``pytest -m "not e2e and not eval"`` leaves them out, ``pytest -m eval`` runs them alone (.ci/run)."""

import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


def pytest_collection_modifyitems(config, items):
    for item in items:
        if os.path.abspath(str(item.fspath)).startswith(HERE + os.sep):
            item.add_marker(pytest.mark.eval)
