"""``uvx --from lazy-harness lh hooks install`` or ``pipx run``: lh runs from an environment in a cache that
uv or pipx clears (``~/.cache/uv/archive-v0/...``, ``$PIPX_HOME/.cache/...``). The hooks name that
interpreter; once it is cleared they do nothing (and, since a command that cannot start exits 0, say
nothing), so install says so when it writes them, with what to run instead."""

import json
import sys

import pytest

from lazy_harness import settings
from tests.cli.lhrun import invoke


@pytest.mark.parametrize("where", [".cache/uv/archive-v0/Fh3k2/bin/python3",
                                   ".local/share/pipx/.cache/5c1e0a9/bin/python"])
def test_install_from_an_interpreter_in_a_cache_says_the_hooks_would_stop(isolated_home, monkeypatch, where):
    python = isolated_home / where
    monkeypatch.setattr(sys, "executable", str(python))
    r = invoke("hooks", "install", "--write-settings")
    assert r.code == 0
    assert (f"warning: the hooks run {python}, in a cache that uv or pipx clears; once it is gone they do "
            "nothing, without a word (hint: pipx install lazy-harness or uv tool install lazy-harness, then run "
            "lh hooks install with that lh)") in r.out, r.out
    user = isolated_home / ".claude" / "settings.json"
    assert all(o.command.startswith(str(python)) for o in settings.find_ours(json.loads(user.read_text())))


@pytest.mark.parametrize("where", [".local/share/pipx/venvs/lazy-harness/bin/python",
                                   ".cache/pypoetry/virtualenvs/app-Xy12-py3.12/bin/python"])
def test_an_installed_interpreter_gets_no_such_warning(isolated_home, monkeypatch, where):
    monkeypatch.setattr(sys, "executable", str(isolated_home / where))
    r = invoke("hooks", "install", "--write-settings")
    assert r.code == 0 and "in a cache" not in r.out


def test_the_portable_form_names_no_interpreter_and_gets_none(isolated_home, monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "executable", str(isolated_home / ".cache/uv/archive-v0/Fh3k2/bin/python3"))
    (tmp_path / "app").mkdir()
    r = invoke("hooks", "install", "--project", str(tmp_path / "app"))
    assert r.code == 0 and "in a cache" not in r.out
