"""End to end: ``lh distill`` with a fake claude, ``lh memory close`` or a hand edit of handoff.md, and the
real SessionStart hook. S1 raises an item, S2 restates it (the normal answer shape: open items listed
again), the person closes it, S2 is read again whole (``lh distill --whole``, its transcript grown
past the close): the item stays closed, as it does for S1. A session that raises it after the close
reopens it (ADR 8)."""

import json
import os
import time
import uuid

import pytest

from lazy_harness import paths
from lazy_harness.memory import files, ids
from tests.cli.lhrun import run
from tests.hooks.hookrun import enable_loop, run_hook
from tests.support import fake_claude
from tests.support.sessions import place

X = "migrate the billing cron"
HID = ids.handoff_id(X)
ANCHOR = "We need to decide how the billing service"  # a line of the recorded transcript's conversation
HOUR = 3600.0


class Rig:
    def __init__(self, tmp_path, monkeypatch, home):
        enable_loop(home, retry_backoff_seconds=0)
        self.answers: dict[str, dict] = {}
        self.bin = fake_claude.use(tmp_path, monkeypatch, answers=self.answers)
        self.project = tmp_path / "proj"
        self.project.mkdir()
        self.mdir = self.lh("memory", "path", "--project", str(self.project)).strip()
        assert self.mdir == paths.memory_dir(str(self.project))

    def lh(self, *args: str) -> str:
        """``lh`` as the person runs it: the installed command, in a process of its own."""
        result = run(*args, cwd=str(self.project))
        assert result.returncode == 0, (args, result.stdout, result.stderr)
        return result.stdout

    def distill(self, sid: str, handoff: list[str], mtime: float, whole: bool = False) -> str:
        """The session ``sid`` (its transcript ending at ``mtime``) distilled, the model answering ``handoff``."""
        token = "LHTOK-" + uuid.uuid4().hex[:12]
        self.answers[token] = {"decisions": [], "failures": [], "learnings": [], "handoff": handoff}
        fake_claude.control(self.bin, mode="ok", answers=self.answers, answer={})
        path = place(self.project, session_id=sid)["transcript_path"]
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        assert ANCHOR in text
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text.replace(ANCHOR, f"{token} {ANCHOR}"))
        os.utime(path, (mtime, mtime))
        out = self.lh("distill", path, *(["--whole"] if whole else []))
        assert "processed: distilled" in out, out
        return out

    def open_items(self) -> list[str]:
        """The open-item lines the next session is shown at its start."""
        out = run_hook("SessionStart", {"session_id": str(uuid.uuid4()), "cwd": str(self.project),
                                        "source": "startup", "hook_event_name": "SessionStart"})
        assert out.returncode == 0, out.stderr
        ctx = json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"] if out.stdout.strip() else ""
        return [line for line in ctx.splitlines() if line.startswith("- open item")]

    def close(self, how: str) -> None:
        if how == "lh memory close":
            self.lh("memory", "close", X)
            return
        md = os.path.join(self.mdir, files.HANDOFF)
        with open(md, encoding="utf-8") as fh:
            lines = fh.read().split("\n")
        i = lines.index(f"- [{HID}] {X}")
        del lines[i:i + 2]  # the item's line and its "opened ..." note
        with open(md, "w", encoding="utf-8") as fh:
            fh.write("\n".join(lines))


@pytest.mark.parametrize("how", ["lh memory close", "a hand edit of handoff.md"])
def test_a_restating_session_read_again_after_the_close_does_not_reopen_the_item(isolated_home, tmp_path,
                                                                                  monkeypatch, how):
    rig = Rig(tmp_path, monkeypatch, isolated_home)
    now = time.time()
    s1, s2 = str(uuid.uuid4()), str(uuid.uuid4())
    rig.distill(s1, [X], now - 3 * HOUR)
    out = rig.distill(s2, [X, "new thing from S2"], now - 2 * HOUR)
    assert f"still open: [{HID}] {X}" in out
    shown = rig.open_items()
    assert any(HID in line for line in shown), shown
    rig.close(how)
    assert not any(HID in line for line in rig.open_items())
    later = time.time() + 5  # both resumed since: their transcripts grew past the close
    for sid in (s1, s2):
        out = rig.distill(sid, [X, "new thing from S2"], later, whole=True)
        assert "not reopened" in out and HID in out, (sid, out)
        assert f"open    {os.path.join(rig.mdir, 'handoff.jsonl')}  [{HID}]" not in out
    shown = rig.open_items()
    assert not any(HID in line for line in shown), shown
    assert any("new thing from S2" in line for line in shown), shown


def test_a_new_session_raising_the_item_after_the_close_reopens_it(isolated_home, tmp_path, monkeypatch):
    rig = Rig(tmp_path, monkeypatch, isolated_home)
    now = time.time()
    rig.distill(str(uuid.uuid4()), [X], now - 3 * HOUR)
    rig.distill(str(uuid.uuid4()), [X], now - 2 * HOUR)
    rig.close("lh memory close")
    fresh = str(uuid.uuid4())
    out = rig.distill(fresh, [X], time.time() + 5)
    assert f"[{HID}] {X}" in out and "not reopened" not in out, out
    [line] = [line for line in rig.open_items() if HID in line]
    assert f"from session {fresh[:8]}:" in line
