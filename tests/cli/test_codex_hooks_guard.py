"""Codex CLI runs a hook's command through a shell (codex 0.171.0: ``/bin/bash -c <command>``, seen with the
real CLI), as Claude Code does, and reports a non-zero exit as a failed hook. Its hooks.json kept the form
without ``|| exit 0`` (ADR 0068): once lazy-harness was uninstalled (pipx uninstall, a deleted virtualenv),
every Codex hook failed. Now the Codex form ends with the guard too, install rewrites the old form, and
lh doctor warns on it until then."""

import json
import subprocess

from lazy_harness import paths, settings
from tests.cli.lhrun import invoke
from tests.cli.test_codex_doctor_status import codex_rows, here, system_bin_without_claude  # noqa: F401


def test_the_codex_command_ends_with_the_guard():
    for portable in (False, True):
        command = settings.command_for("Stop", "/usr/bin/python3", portable=portable, agent=settings.CODEX)
        assert command.endswith(f" Stop {settings.AGENT_FLAG} {settings.CODEX}{settings.GUARD}"), command


def test_a_codex_hook_whose_interpreter_is_gone_exits_0_through_the_shell(tmp_path):
    command = settings.command_for("Stop", str(tmp_path / "gone" / "python"), agent=settings.CODEX)
    p = subprocess.run(["/bin/sh", "-c", command], input=b"{}", capture_output=True, timeout=30)
    assert (p.returncode, p.stdout) == (0, b"")


def old_form(data):
    for groups in data["hooks"].values():
        for group in groups:
            for h in group["hooks"]:
                if settings.is_ours(h):
                    h["command"] = h["command"].removesuffix(settings.GUARD)


def test_install_rewrites_the_unguarded_codex_form_and_doctor_warns_until_then(here):  # noqa: F811
    assert invoke("hooks", "install", "--agent", "codex").code == 0
    target = paths.codex_hooks_file()
    with open(target) as fh:
        data = json.load(fh)
    assert all(o.command.endswith(settings.GUARD) for o in settings.find_ours(data))
    old_form(data)
    with open(target, "w") as fh:
        json.dump(data, fh, indent=2)
    row = codex_rows(invoke("doctor").out)[0]
    assert row.startswith("warn  codex hooks: ") and "written by an older version" in row, row
    assert "(hint: lh hooks install --agent codex)" in row
    r = invoke("hooks", "install", "--agent", "codex")
    assert r.code == 0, r.out + r.err
    assert f"to this version's form: it ends with{settings.GUARD}" in r.out
    with open(target) as fh:
        assert all(o.command.endswith(settings.GUARD) for o in settings.find_ours(json.load(fh)))
    assert codex_rows(invoke("doctor").out)[0].startswith("ok    codex hooks: ")
