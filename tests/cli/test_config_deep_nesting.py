"""A config.toml nested deeper than the parser's stack (an array or inline table thousands of levels
deep: a generated file gone wrong, a hostile one) is bad input like any other: one line naming the
file and its line, the usual hint, never a RecursionError traceback, and nothing written."""

import os

import pytest

from lazy_harness import config, paths
from lazy_harness.errors import ConfigError
from tests.cli.lhrun import invoke

DEEP = {"array": "[recall]\nsemantic = true\nwords = " + "[" * 5000 + "]" * 5000 + "\n",
        "table": "[recall]\nsemantic = true\nwords = " + "{a = " * 5000 + "1" + "}" * 5000 + "\n"}


@pytest.mark.parametrize("kind", sorted(DEEP))
def test_a_config_nested_past_the_stack_is_a_one_line_error(kind):
    path = paths.config_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(DEEP[kind])
    with pytest.raises(ConfigError) as caught:
        config.load()
    assert caught.value.message.startswith(f"{path}:3: "), caught.value.message
    assert "nested" in caught.value.message and "\n" not in caught.value.message, caught.value.message
    out = invoke("config", "validate")
    assert out.code != 0 and "Traceback" not in out.err + out.out and "RecursionError" not in out.err + out.out
    assert f"{path}:3: TOML syntax error: a value nested 5000 levels deep" in out.out + out.err, out.out + out.err
    with open(path, encoding="utf-8") as fh:
        assert fh.read() == DEEP[kind]  # nothing rewritten
