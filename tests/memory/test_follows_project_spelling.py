"""A key changed by how the remote is now read (case on the known hosts, an ``insteadOf`` shorthand, an
ssh host alias: docs/how/project-key.md) loses no memory: the project's decisions and learnings,
written under the key an earlier version gave it, are read back after the upgrade, as after an
origin change (ADR 0035)."""

import os

import pytest

from lazy_harness import paths
from lazy_harness.memory import aliases, last_key
from tests.cli.lhrun import invoke
from tests.memory.test_follows_project import TITLES, add_origin, learning, shown, start, write_as_session
from tests.support import memory_samples as ms


def home_file(home, rel: str, text: str) -> None:
    path = os.path.join(str(home), rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


@pytest.mark.parametrize(("url", "before", "rel", "text"), [
    ("git@github.com:Team/Api.git", "github.com/Team/Api", None, ""),
    ("gh:team/api", "gh/team/api", ".gitconfig", '[url "git@github.com:"]\n\tinsteadOf = gh:\n'),
    ("work:team/api", "work/team/api", ".ssh/config", "Host work\n  HostName github.com\n"),
])
def test_memory_under_the_key_an_earlier_version_gave_follows_the_project(tmp_path, isolated_home, monkeypatch,
                                                                         url, before, rel, text):
    if rel:
        home_file(isolated_home, rel, text)
    root = ms.make_project(tmp_path / "work", "api")
    add_origin(root, url)
    with monkeypatch.context() as m:
        m.setattr(paths, "memory_key", lambda r: paths.remote_key(before))  # the earlier version's key
        write_as_session(root, {"learnings": [learning(t) for t in TITLES],
                                "decisions": [{"summary": "Deploy the api with the blue green script"}]})
        first = paths.memory_dir(root)
        last_key.remember_key(root, first)  # what the worker kept after that session
    now = paths.memory_dir(root)
    assert now != first and os.path.basename(now) == paths.remote_key("github.com/team/api")
    text = start(root)
    assert shown(text) == 3 and "blue green" in text, text
    assert aliases.owned(now).keys == {os.path.basename(now), os.path.basename(first)}
    listed = invoke("memory", "show", "--project", root).out
    assert "blue green" in listed and all(t in listed for t in TITLES), listed
