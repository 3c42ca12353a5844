"""The page's assets ship in a wheel, not only in an editable install: every file under
``ui/static`` matches a pattern of pyproject's package data. (A wheel built from the tree was checked
by hand too: ``pip wheel . --no-deps`` lists ``lazy_harness/ui/static/ui.css`` and ``ui.js``.)"""

import fnmatch
import os
import tomllib

from tests.conftest import ROOT


def test_every_static_asset_is_package_data():
    with open(ROOT / "pyproject.toml", "rb") as fh:
        patterns = tomllib.load(fh)["tool"]["setuptools"]["package-data"]["lazy_harness.ui"]
    static = ROOT / "src" / "lazy_harness" / "ui" / "static"
    names = sorted(os.listdir(static))
    assert "ui.css" in names and "ui.js" in names
    for name in names:
        assert any(fnmatch.fnmatch(f"static/{name}", p) for p in patterns), name
