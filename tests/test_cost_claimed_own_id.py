"""A line that carries this machine's key id (``"by"``) but not its MAC is named by lh cost and lh doctor
(ADR 0066). The id is a claim, not proof: a remote (anyone who can push to the sync remote) can copy it
onto any number of lines, and another machine's key could share it. The commands then must not tell the
person they changed their own lines, nor read the ledger once per kind of line they name."""

import json
import os

from lazy_harness import paths
from lazy_harness.cost import budget, own
from lazy_harness.sync.drivers import merge_lines
from tests.cli.lhrun import invoke
from tests.worker.spendrig import configure
from tests.test_cost_own_spend_scenarios import _now, _spend  # one machine's spend, as there

BLAME = ("of this machine changed since", "put each back as it was written")
CLAIMED = "carries this machine's id but not its MAC: not counted"


def _pushed(lines: list[str]) -> None:
    """``lines`` merged into this machine's ledger by a sync round (after its own)."""
    with open(paths.ledger_file(), "rb") as fh:
        merged = merge_lines(b"", fh.read(), "".join(line + "\n" for line in lines).encode())
    with open(paths.ledger_file(), "wb") as fh:
        fh.write(merged)


def _ours() -> own.Ring:
    ring = own.ring(None, lambda since: [], make=False)
    assert ring is not None and ring.id
    return ring


def test_a_remotes_lines_with_this_machines_id_are_not_blamed_on_the_person(isolated_home):
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    now = _now()
    _spend(1.0, now - 900)
    copied = _spend(2.0, now - 600)
    forged = []
    for i in range(1000):  # the id copied from a synced line onto lines of the remote's choosing
        line = dict(copied, ts=round(now - 300 + i / 10, 3), total_cost_usd=0.01, mac="0" * 32)
        forged.append(json.dumps(line, separators=(",", ":")))
    _pushed(forged)
    where = paths.ledger_file()
    for args in (("cost", "--since", "1d"), ("doctor",)):
        out = invoke(*args).out
        assert not any(words in out for words in BLAME), (args, out)
        assert f"{where}:3: {CLAIMED}" in out, (args, out)
        assert sum(CLAIMED in ln for ln in out.splitlines()) == 5, (args, out)
        assert "and 995 more" in out, (args, out)
        assert "another machine" in out, (args, out)  # what else such a line can be
    assert budget.spend(None, now).today == 3.0  # the caps count this machine's two lines only


def test_another_machines_key_with_the_same_id_is_not_called_this_machines_change(isolated_home, tmp_path):
    """Two keys whose 6-byte ids collide (forced here): the laptop's intact lines are named as lines
    that claim this machine's id, never as this machine's lines changed since they were written."""
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    now = _now()
    _spend(1.0, now - 900)
    laptop = own.Ring(os.urandom(own.KEY_BYTES))
    laptop.id = _ours().id
    line = {"time": "x", "ts": round(now - 300, 3), "project": "q", "total_cost_usd": 0.25, "outcome": "ok"}
    _pushed([laptop.sign(json.dumps(line, separators=(",", ":")))])
    out = invoke("doctor").out
    assert f"{paths.ledger_file()}:2: {CLAIMED}" in out, out
    assert not any(words in out for words in BLAME), out
    assert json.loads(invoke("cost", "--since", "1d", "--json").out)["changed_lines"] == [2]


def test_doctor_parses_each_ledger_line_once_for_the_lines_nothing_counts(isolated_home, monkeypatch):
    """lh doctor read the ledger once for its damaged lines and again for the lines claiming this
    machine's id, parsing each of those twice more: 2.5 s on a 41 MB ledger of such lines."""
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    now = _now()
    copied = _spend(1.0, now - 900)
    _pushed([json.dumps(dict(copied, ts=round(now - 800 + i, 3), mac="1" * 32), separators=(",", ":"))
             for i in range(300)] + ["{torn"])
    parsed = []
    loads = json.loads

    def counted(raw, *args, **kwargs):
        if isinstance(raw, bytes) and raw.startswith(b'{"time"'):
            parsed.append(raw)
        return loads(raw, *args, **kwargs)

    monkeypatch.setattr(json, "loads", counted)
    out = invoke("doctor").out
    assert "and 295 more" in out and "1 damaged line(s)" in out, out
    assert len(parsed) <= 301 + 5, len(parsed)  # each line once (and the few of today the caps parse)
