"""``CLAUDE_CONFIG_DIR='~/cfg'`` (or any relative value) names a folder under the current one, for Claude
Code as for lh (paths.claude_dir). A program lh starts in another folder read it from there instead:
the worker's ``claude -p`` runs in the neutral folder, so it looked for its login and settings in
``<neutral>/~/cfg``, a folder of nothing; the resident answerer, started from one project, read another
project's relative value against its own folder. What lh hands on is the folder it resolved."""

import os

from lazy_harness import detach, paths
from lazy_harness.recall.resident import client
from lazy_harness.worker import llm
from tests.worker.test_llm import ENVELOPE, cfg, env, fake_claude, workdir  # noqa: F401  (fixtures)


def test_the_model_call_gets_the_claude_dir_lh_uses_not_one_under_the_neutral_folder(
        tmp_path, cfg, env, workdir, monkeypatch):  # noqa: F811
    project = tmp_path / "proj"
    project.mkdir()
    monkeypatch.chdir(project)
    rec = fake_claude(tmp_path, f"""\
        open(os.path.join(rec, "config_dir"), "w").write(os.environ.get("CLAUDE_CONFIG_DIR", "<unset>"))
        print(json.dumps({ENVELOPE!r}))
    """)
    asked = {**env, "CLAUDE_CONFIG_DIR": "~/cfg"}
    llm.call("p", cfg, asked, workdir)
    assert (rec / "config_dir").read_text() == str(project / "~" / "cfg") == paths.claude_dir(asked)
    assert asked["CLAUDE_CONFIG_DIR"] == "~/cfg"  # the caller's mapping is not changed


def test_a_detached_child_gets_the_folders_resolved_where_it_was_started(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = detach.child_env({"CLAUDE_CONFIG_DIR": "~/cfg", "CODEX_HOME": "cx", "KEEP": "1"})
    assert out == {"CLAUDE_CONFIG_DIR": str(tmp_path / "~" / "cfg"), "CODEX_HOME": str(tmp_path / "cx"),
                   "KEEP": "1"}


def test_an_absolute_or_unset_folder_is_handed_on_as_it_is(tmp_path):
    assert detach.child_env({"CLAUDE_CONFIG_DIR": "/a/b/../c", "HOME": "/h"}) == {
        "CLAUDE_CONFIG_DIR": "/a/b/../c", "HOME": "/h"}
    assert "CLAUDE_CONFIG_DIR" not in detach.child_env({"HOME": "/h"})


def test_a_question_to_the_resident_answerer_names_the_hooks_claude_dir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    asked = {**os.environ, "CLAUDE_CONFIG_DIR": "rel"}
    assert client.question_env(asked)["CLAUDE_CONFIG_DIR"] == str(tmp_path / "rel")
    assert client.question_env({**os.environ, "CLAUDE_CONFIG_DIR": "/abs"})["CLAUDE_CONFIG_DIR"] == "/abs"
