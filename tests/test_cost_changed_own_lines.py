"""A line of this machine's ledger edited by hand (or rewritten by a tool) no longer carries a MAC of
this machine's key, so the caps count nothing of it (ADR 0065): lh cost and lh doctor name it, where
the line says it is this machine's, and never print the key."""

import json
import os

from lazy_harness import paths
from lazy_harness.cost import budget, own
from lazy_harness.sync.drivers import merge_lines
from tests.cli.lhrun import invoke
from tests.worker.spendrig import configure
from tests.test_cost_own_spend_scenarios import _now, _spend  # one machine's spend, as there

CHANGED = "carries this machine's id but not its MAC: not counted"


def _edit(number: int, change) -> None:
    """Line ``number`` (from 1) of the ledger rewritten by hand through ``change``."""
    path = paths.ledger_file()
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    lines[number - 1] = change(lines[number - 1])
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")


def test_a_hand_edited_line_of_this_machine_is_named_by_cost_and_doctor(isolated_home, tmp_path):
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    now = _now()
    _spend(1.0, now - 900)
    _spend(2.0, now - 600)
    laptop = dict(os.environ, XDG_STATE_HOME=str(tmp_path / "laptop-state"), XDG_DATA_HOME=str(tmp_path / "laptop"))
    _spend(0.25, now - 300, laptop)
    with open(paths.ledger_file(), "rb") as mine, open(paths.ledger_file(laptop), "rb") as theirs:
        merged = merge_lines(b"", mine.read(), theirs.read())
    with open(paths.ledger_file(), "wb") as fh:
        fh.write(merged)
    _edit(2, lambda line: line.replace('"total_cost_usd":2.0', '"total_cost_usd":0.5'))
    with open(own.key_file(), "rb") as fh:
        key = fh.read()
    where = paths.ledger_file()
    for args in (("cost", "--since", "1d"), ("doctor",)):
        out = invoke(*args).out
        assert f"{where}:2: {CHANGED}" in out, (args, out)
        assert f"{where}:3:" not in out and f"{where}:1:" not in out, (args, out)  # the laptop's, and the intact one
        assert key.hex() not in out
    data = json.loads(invoke("cost", "--since", "1d", "--json").out)
    assert data["changed_lines"] == [2]


def test_many_changed_lines_are_named_five_then_counted(isolated_home):
    configure(isolated_home, budget={"daily_usd": 50.0, "monthly_usd": 500.0})
    now = _now()
    for i in range(8):
        _spend(0.5, now - 900 + i)
    for n in range(1, 9):  # a tool that rewrote every line with spaces after the colons
        _edit(n, lambda line: json.dumps(json.loads(line)))
    for args in (("cost", "--since", "1d"), ("doctor",)):
        out = invoke(*args).out
        assert sum(CHANGED in ln for ln in out.splitlines()) == 5, (args, out)
        assert "and 3 more" in out, (args, out)


def _key_state() -> list[str]:
    return sorted(os.listdir(paths.machine_state_dir()))


def test_a_key_file_made_unreadable_is_named_by_doctor_with_its_fix(isolated_home):
    """chmod 000 on spend.key (a backup tool's restore): the caps fail closed, and lh doctor says why."""
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    _spend(1.0, _now() - 600)
    os.chmod(own.key_file(), 0o000)
    before = _key_state()
    out = invoke("doctor").out
    assert f"{own.key_file()} may not be used" in out and "not readable" in out, out
    assert f"chmod 600 {own.key_file()}" in out, out
    assert own.ring(None, lambda since: [], make=False) is None  # the caps count every line meanwhile
    assert _key_state() == before


def test_a_folder_in_the_key_files_place_is_named_by_doctor_with_a_fix_that_works(isolated_home):
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    _spend(1.0, _now() - 600)
    os.unlink(own.key_file())
    os.mkdir(own.key_file())
    before = _key_state()
    out = invoke("doctor").out
    assert f"{own.key_file()} may not be used: a folder, not a file" in out, out
    assert f"mv {own.key_file()} {own.key_file()}.aside" in out, out  # rm of a folder fails
    assert f"rm {own.key_file()}" not in out, out
    assert _key_state() == before and os.listdir(own.key_file()) == []


def test_a_key_file_longer_than_a_key_is_named_and_stops_nothing(isolated_home):
    """A tool that appended to spend.key (or a hand edit, a restore of another file) made it longer than
    BLAKE2b takes as a key: every cap check, lh cost, lh doctor and lh status raised ValueError. It is
    not used (the caps count every line, as for any key that may not be used) and named with its fix."""
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    now = _now()
    _spend(1.0, now - 600)
    with open(own.key_file(), "ab") as fh:
        fh.write(b"\n# appended by a backup tool's restore\n" * 3)
    from lazy_harness import config
    from lazy_harness.cost import paused

    assert budget.spend(None, now).today == 1.0  # the cap check still runs, counting every line
    assert paused.pause(config.defaults(), now).allowed
    _spend(0.5, now - 300)  # a model call's line is written
    for args in (("cost", "--since", "1d"), ("doctor",), ("status",)):
        done = invoke(*args)
        assert "Traceback" not in done.out + done.err and "ValueError" not in done.out + done.err, (args, done)
        assert f"{own.key_file()} may not be used: longer than a key" in done.out, (args, done.out)
        assert f"rm {own.key_file()}" in done.out, (args, done.out)
