"""lh cost: totals from the ledger, by day, project or model; lh doctor shows today's spend."""

import json
import time

import pytest

from lazy_harness.cost import budget
from tests.cli.lhrun import invoke
from tests.worker.spendrig import configure, spent

# why: spend written at the wall clock, "today" taken by the code's own clock: one local day for both
pytestmark = pytest.mark.usefixtures("one_local_day")


def test_totals_by_project_as_json(isolated_home):
    now = time.time()
    spent(9.0, when=now - 20 * 86400, project="shop")  # outside --since 7d
    spent(0.25, project="shop")
    spent(0.5, project="shop")
    spent(1.0, project="blog", outcome="unreachable")
    out = invoke("cost", "--by", "project", "--json")
    assert out.code == 0, out
    data = json.loads(out.out)
    assert data["groups"]["shop"]["calls"] == 2 and data["groups"]["shop"]["cost_usd"] == 0.75
    assert data["groups"]["blog"]["failed_calls"] == 1
    assert data["total"]["calls"] == 3 and data["total"]["cost_usd"] == 1.75
    assert data["total"]["input_tokens"] == 3000
    assert data["daily_cap_usd"] == 5.0 and data["paused"] is None
    assert json.loads(invoke("cost", "--since", "30d", "--json").out)["total"]["cost_usd"] == 10.75


def test_a_table_by_day_with_today_against_the_cap(isolated_home):
    configure(isolated_home, budget={"daily_usd": 1.0})
    spent(1.25, project="shop")
    out = invoke("cost")
    assert out.code == 0, out
    today = time.strftime("%Y-%m-%d")
    [row] = [line for line in out.out.splitlines() if line.startswith(today)]
    assert "$1.2500" in row
    assert "today $1.25 of $1.00 a day" in out.out
    assert "paused: daily cap $1.00 reached" in out.out


def test_by_model_and_a_damaged_ledger_line(isolated_home):
    spent(0.5)
    from lazy_harness import paths

    with open(paths.ledger_file(), "a") as fh:
        fh.write("{torn line\n")
    spent(0.5)
    data = json.loads(invoke("cost", "--by", "model", "--json").out)
    assert data["groups"] == {"claude-haiku-4-5": data["total"]} and data["total"]["calls"] == 2


def test_a_bad_since_is_one_line(isolated_home):
    out = invoke("cost", "--since", "lately")
    assert out.code == 1 and "--since: cannot read 'lately'" in out.err and "Traceback" not in out.err


def test_an_invalid_config_still_shows_the_spend(isolated_home):
    path = configure(isolated_home) or (isolated_home / ".config" / "lazy-harness" / "config.toml")
    path.write_text("[budget\n")
    out = invoke("cost")
    assert out.code == 0 and "using the default caps" in out.err and "of $5.00 a day" in out.out


def test_doctor_shows_todays_spend_and_a_pause(isolated_home):
    configure(isolated_home, budget={"daily_usd": 2.0, "monthly_usd": 30.0})
    spent(0.5)
    out = invoke("doctor")
    [line] = [ln for ln in out.out.splitlines() if ln.startswith("ok    spend:")]
    assert "today $0.50 of $2.00, this month $0.50 of $30.00" in line
    spent(1.5)
    out = invoke("doctor")
    [line] = [ln for ln in out.out.splitlines() if " spend:" in ln]
    assert line.startswith("warn") and "distillation paused: daily cap $2.00 reached" in line
    assert budget.check({"budget": {"daily_usd": 2.0, "monthly_usd": 30.0}}, None, time.time()).allowed is False


def test_a_remotes_project_name_of_100000_characters_does_not_widen_every_row(isolated_home):
    """A synced ledger line whose project (or model) is 100,000 characters long: lh cost --by project
    padded every row to its width (500 KB of spaces for three rows). The table shows a name clipped;
    --json keeps it whole."""
    from lazy_harness import paths

    spent(0.25, project="shop")
    spent(0.5, project="blog")
    long_name = "P" * 100_000
    with open(paths.ledger_file(), "a") as fh:
        fh.write(json.dumps({"time": "x", "ts": time.time(), "project": long_name, "model": long_name,
                             "total_cost_usd": 0.01}) + "\n")
    for by in ("project", "model"):
        out = invoke("cost", "--by", by)
        assert out.code == 0, out
        rows = out.out.splitlines()
        assert max(len(row) for row in rows) < 400, [len(row) for row in rows]
        assert any(row.startswith("P" * 20) and "\u2026" in row and "$0.0100" in row for row in rows), rows
    [shop] = [row for row in invoke("cost", "--by", "project").out.splitlines() if row.startswith("shop")]
    assert "$0.2500" in shop and len(shop) < 120, shop
    assert long_name in json.loads(invoke("cost", "--by", "project", "--json").out)["groups"]


def test_a_remotes_100000_killed_calls_are_named_five_then_counted(isolated_home):
    """lh cost named each killed call of the period on its own line: a remote that pushed 100,000 lines
    with outcome killed made it print 100,000 lines. Five are named, then how many more."""
    from lazy_harness import paths

    spent(0.25, project="shop")
    now = time.time()
    with open(paths.ledger_file(), "a") as fh:
        fh.writelines(json.dumps({"time": "x", "ts": now - 600 + i / 1000, "project": "q", "kind": "distill",
                                  "outcome": "killed", "total_cost_usd": 0.01}) + "\n" for i in range(100_000))
        fh.write(json.dumps({"time": "x", "ts": now - 500, "project": "Q" * 100_000, "kind": "K" * 100_000,
                             "outcome": "killed", "total_cost_usd": 0.01}) + "\n")
    out = invoke("cost")
    assert out.code == 0, out
    killed = [row for row in out.out.splitlines() if "killed mid-call" in row]
    assert len(killed) == 6, len(killed)
    assert "99,996 more" in killed[-1], killed[-1]
    assert max(len(row) for row in killed) < 400, [len(row) for row in killed]


def test_a_wrong_value_elsewhere_keeps_the_persons_caps(isolated_home):
    """A typo in an unrelated key (``[sync] pull_budget_ms = "fast"``) showed the default $5.00 cap
    where ``lh status``, ``lh doctor`` and the page showed the person's $12.00."""
    configure(isolated_home, budget={"daily_usd": 12.0, "monthly_usd": 80.0})
    path = isolated_home / ".config" / "lazy-harness" / "config.toml"
    path.write_text(path.read_text() + '[sync]\npull_budget_ms = "fast"\n')
    spent(1.5)
    out = invoke("cost")
    assert out.code == 0, out
    assert "today $1.50 of $12.00 a day; this month $1.50 of $80.00" in out.out
    assert out.err.count("\n") == 1 and "sync.pull_budget_ms" in out.err and "default caps" not in out.err
    data = json.loads(invoke("cost", "--json").out)
    assert data["daily_cap_usd"] == 12.0
