"""A command of ours in Codex's hooks.json copied into another event (``lh-hook Stop --agent codex``
under SessionStart), or in the plugin's form (``--plugin``): the hook runs the event its command names,
and the plugin's form leaves whenever a Claude Code settings file registers ours. lh doctor said so of
Claude Code's settings.json and said ok of Codex's hooks.json; lh hooks install --agent codex mends it."""

import json

from lazy_harness import paths
from tests.cli.lhrun import invoke
from tests.cli.test_codex_doctor_status import codex_rows, here, system_bin_without_claude  # noqa: F401


def edited(change) -> str:
    """hooks.json with each of our commands passed through ``change(event, command)``; its path."""
    path = paths.codex_hooks_file()
    data = json.loads(open(path).read())
    for event, groups in data["hooks"].items():
        for group in groups:
            for entry in group["hooks"]:
                entry["command"] = change(event, entry["command"])
    with open(path, "w") as fh:
        fh.write(json.dumps(data))
    return path


def hooks_row(out: str) -> str:
    (row,) = [r for r in codex_rows(out) if r.split(":")[0].split()[1:] == ["codex", "hooks"]]
    return row


def test_a_codex_command_naming_another_event_is_said_and_install_mends_it(here):  # noqa: F811
    assert invoke("hooks", "install", "--agent", "codex").code == 0
    path = edited(lambda e, c: c.replace(" SessionStart --agent", " Stop --agent") if e == "SessionStart" else c)
    command = next(o["command"] for o in json.loads(open(path).read())["hooks"]["SessionStart"][0]["hooks"])
    row = hooks_row(invoke("doctor").out)
    assert row.startswith("warn  codex hooks: "), row
    assert (f"{path}: SessionStart runs {json.dumps(command)}, which runs the hook of Stop: SessionStart reads "
            "nothing back, and Stop runs twice") in row and "lh hooks install --agent codex" in row, row
    assert invoke("hooks", "install", "--agent", "codex").code == 0
    assert hooks_row(invoke("doctor").out).startswith("ok    codex hooks: ")
    fixed = json.loads(open(path).read())["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    assert " SessionStart --agent codex" in fixed, fixed


def test_the_plugins_form_in_codexs_hooks_file_is_said(here):  # noqa: F811
    assert invoke("hooks", "install", "--agent", "codex").code == 0
    path = edited(lambda e, c: c.replace(" --agent codex", " --agent codex --plugin") if e == "Stop" else c)
    row = hooks_row(invoke("doctor").out)
    assert row.startswith("warn  codex hooks: "), row
    assert f"{path}: Stop runs " in row and "the plugin's form of the hook (--plugin)" in row, row
    assert "Codex's sessions are not remembered" in row, row
