"""An install before ADR 0070 did not see ``LH_CONFIG=/x/y.toml lh-hook Stop`` as ours and added its own
entry beside it; a person may also have written the prefixed one after install's. Both are ours now, and
install keeps one per event: the first in the file. When that was install's own, unprefixed, the
person's ``LH_CONFIG=...`` went with the other entry, without a word, and the hook read another config.
The prefix the person set for an event is kept whichever of its entries of ours holds it."""

import pytest

from lazy_harness import settings
from tests.cli.lhrun import invoke
from tests.cli.test_hooks_env_prefix import stop_commands, write

PREFIXED = "LH_CONFIG=/x/y.toml lh-hook Stop"


@pytest.mark.parametrize("order", ["ours first", "theirs first"])
def test_install_keeps_the_persons_prefix_beside_an_unprefixed_entry_of_ours(isolated_home, order):
    plain = settings.command_for("Stop")
    target = write(isolated_home, [plain, PREFIXED] if order == "ours first" else [PREFIXED, plain])
    r = invoke("hooks", "install", "--write-settings")
    assert r.code == 0, r.out + r.err
    assert stop_commands(target) == ["LH_CONFIG=/x/y.toml " + plain]
    once = target.read_bytes()
    again = invoke("hooks", "install", "--write-settings")
    assert "already installed" in again.out and target.read_bytes() == once


def test_the_rewrite_is_said_with_the_command_it_had(isolated_home):
    plain = settings.command_for("Stop")
    write(isolated_home, [plain, PREFIXED])
    said = invoke("hooks", "install", "--write-settings").out
    assert "rewrote the command of Stop" in said, said
