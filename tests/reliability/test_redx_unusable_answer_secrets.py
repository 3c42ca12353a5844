"""An unusable answer quoted in an error holds no secret that spans lines: the model's output is
decoded (claude's JSON envelope, codex's JSON events) before it is redacted, so the rules that need
the line breaks (a YAML ``password: |`` block, a .netrc entry, a key a terminal wrapped) see them,
not their ``\\n`` escapes. Checked in worker.log, the failed task and its .error file, and in the
message of a call that exited with an error envelope (claude) or error events (codex)."""

from __future__ import annotations

import json
import os
import sys
import textwrap

import pytest

from lazy_harness import paths, queue
from lazy_harness.config import defaults
from lazy_harness.proc import Result
from lazy_harness.worker import codex_distill, llm, loop
from tests.reliability import rig
from tests.support import fake_claude

# shape: (the text the model wrote, the parts of the secret that must not be quoted)
SHAPES = {
    "yaml block": ("I cannot produce JSON. The config was:\ndatabase:\n  password: |\n    Xq90n8SoFkh8OXfF!x\n",
                   ("Xq90n8SoFkh8OXfF",)),
    "netrc": ("From your ~/.netrc:\nmachine api.example.com\nlogin me\npassword Hn4tR8eW2kP6bqZ7!x\n",
              ("Hn4tR8eW2kP6bqZ7",)),
    "key over two quoted lines": ('STRIPE="sk_live_4eC39HqLyjWDarjtT1zd\nZp7dcYm38gKr9Sn4U" is set',
                                  ("4eC39HqLyjWDarjtT1zd", "Zp7dcYm38gKr9Sn4U")),
    "wrapped aws key id": ("the key AKIAQ3EGRT\nYUIOPL7ZXC is old", ("YUIOPL7ZXC",)),
}


def _envelope(text: str, is_error: bool = False) -> str:
    return json.dumps({"type": "result", "subtype": "success", "is_error": is_error, "result": text,
                       "total_cost_usd": 0, "usage": {"input_tokens": 0, "output_tokens": 0}})


def _clean(text: str, parts: tuple[str, ...]) -> None:
    assert text, "nothing was written where the reason belongs"
    for part in parts:
        assert part not in text, text


def test_a_text_answer_quoting_a_multi_line_secret_is_redacted_where_it_is_quoted(loop_on, model, tmp_path):
    rig.configure(loop_on, max_attempts=1)
    answers, tokens = {}, {}
    for n, (shape, (text, _)) in enumerate(SHAPES.items()):
        tok = rig.new_token()
        tokens[shape], answers[tok] = tok, _envelope(text)
        payload = rig.session(rig.project(tmp_path, f"p{n}"), tok)
        queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "SessionEnd", True))
    fake_claude.control(model, mode="ok", answers=answers, need_token=True)
    loop.run(dict(os.environ))
    failed = [os.path.join(paths.queue_dir(), "failed", name) for name in rig.tasks("failed")]
    assert len(failed) == len(SHAPES)
    log = rig.read(rig.log_file("worker.log"))
    assert "text, not the structured answer" in log
    everything = log + "".join(rig.read(f) + rig.read(f + ".error") for f in failed)
    for path in failed:
        _clean(rig.read(path + ".error"), ())
    for _, parts in SHAPES.values():
        _clean(everything, parts)


def _claude_printing(tmp_path, stdout: str, code: int) -> dict:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    script = bin_dir / "claude"
    script.write_text(f"#!{sys.executable}\n" + textwrap.dedent(f"""\
        import sys
        sys.stdin.read()
        sys.stdout.write({stdout!r})
        sys.exit({code})
    """))
    script.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("stdout, code", [
    ("{env}\n", 0),  # a text answer
    ("warning: a line before the envelope\n{env}\n", 0),
    ("{err}\n", 1),  # an error envelope: what claude said goes into the failure's reason
])
def test_claude_output_is_decoded_before_it_is_redacted_and_quoted(tmp_path, shape, stdout, code):
    text, parts = SHAPES[shape]
    env = _claude_printing(tmp_path, stdout.format(env=_envelope(text), err=_envelope(text, True)), code)
    work = tmp_path / "neutral"
    work.mkdir()
    with pytest.raises(llm.CallError) as caught:
        llm.call("prompt", defaults(), env, str(work))
    assert "[REDACTED:" in caught.value.message
    _clean(caught.value.message, parts)


@pytest.mark.parametrize("shape", SHAPES)
def test_codex_error_events_are_decoded_before_they_are_redacted_and_quoted(shape):
    text, parts = SHAPES[shape]
    stdout = "\n".join(json.dumps(e) for e in ({"type": "thread.started"}, {"type": "error", "message": text},
                                               {"type": "turn.failed", "error": {"message": text}})) + "\n"
    result = Result(("codex", "exec"), 1, stdout, "")
    with pytest.raises(llm.CallError) as caught:
        codex_distill._result(result, codex_distill.events(stdout), llm.Usage(), 60, {})
    assert "[REDACTED:" in caught.value.message
    _clean(caught.value.message, parts)
