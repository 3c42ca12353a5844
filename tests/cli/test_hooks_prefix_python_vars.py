"""``PYTHONPATH=/my/checkout/src lh-hook Stop``: the console script honours PYTHONPATH, so the person's
prefix ran their checkout. Install keeps the prefix and writes our command after it, whose interpreter
runs isolated (``-I``: no PYTHON* variable is read): the hook then ran this install's lazy_harness,
and the person's variable did nothing, without a word. Install says so; the portable ``lh-hook``
form still reads it, and nothing is said there."""

from lazy_harness import settings
from tests.cli.lhrun import invoke
from tests.cli.test_hooks_env_prefix import stop_commands, write


def test_install_says_a_kept_python_variable_is_not_read_by_the_isolated_interpreter(isolated_home):
    target = write(isolated_home, ["PYTHONPATH=/my/src LH_CONFIG=/x/y.toml lh-hook Stop"])
    said = invoke("hooks", "install", "--write-settings").out
    assert stop_commands(target) == ["PYTHONPATH=/my/src LH_CONFIG=/x/y.toml " + settings.command_for("Stop")]
    assert (f"kept PYTHONPATH before the command of Stop in {target}, but its interpreter runs isolated (-I) "
            "and reads no PYTHON* variable") in said, said
    assert "LH_CONFIG before" not in said


def test_nothing_is_said_of_a_prefix_without_a_python_variable(isolated_home):
    write(isolated_home, ["LH_CONFIG=/x/y.toml lh-hook Stop"])
    assert "reads no PYTHON" not in invoke("hooks", "install", "--write-settings").out
