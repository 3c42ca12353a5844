"""Bad input to the CLI: absurd --since values, hand-edited ledger lines, non-finite and absurd
config values, an array of tables, install with an invalid config, a --project folder that does not
exist, project backups kept out of the project, and a malformed settings.json in doctor and uninstall."""

import json
import os
import time

import pytest

from lazy_harness import config, paths, settings
from lazy_harness.cost import budget, ledger
from tests.cli.lhrun import invoke
from tests.worker.spendrig import spent

# why: spend written at the wall clock, "today" taken by the code's own clock: one local day for both
pytestmark = pytest.mark.usefixtures("one_local_day")


def strict_json(text: str):
    """json.loads that refuses Infinity and NaN, as every other JSON reader does."""
    def refuse(name):
        raise ValueError(f"not JSON: {name}")
    return json.loads(text, parse_constant=refuse)


def one_line_error(r, *words: str) -> None:
    assert r.code == 1, r
    assert "Traceback" not in r.err and r.err.count("\n") == 1, r.err
    for word in words:
        assert word in r.err, r.err


def config_path(home):
    return home / ".config" / "lazy-harness" / "config.toml"


def write_config(home, text: str):
    path = config_path(home)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def hand_edit_ledger(*lines: str) -> None:
    path = paths.ledger_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "a") as fh:
        fh.write("".join(line + "\n" for line in lines))


# --- 1. --since too far back ----------------------------------------------------------------------

@pytest.mark.parametrize("command", [("backfill", "--dry-run"), ("cost",), ("cost", "--json")],
                         ids=["backfill", "cost", "cost-json"])
@pytest.mark.parametrize("since", ["999999999999999d", "9" * 400, "1200-01-01"], ids=["days", "digits", "date"])
def test_a_since_out_of_range_is_one_line_naming_the_option(isolated_home, command, since):
    r = invoke(*command, "--since", since)
    one_line_error(r, "--since", repr(since))


# --- 2. hand-edited ledger lines --------------------------------------------------------------------

BAD_LINES = [
    '{"ts": 1e308, "total_cost_usd": 1e308}',
    '{"ts": -5e18, "total_cost_usd": 1}',
    '{"ts": NaN, "total_cost_usd": 1}',
    '{"ts": NOW, "total_cost_usd": 1e308}',  # a sane time, an absurd cost
    '{"ts": NOW, "total_cost_usd": Infinity}',
    '{"ts": NOW, "total_cost_usd": NaN}',
    '{"ts": NOW, "total_cost_usd": 1' + "0" * 400 + '}',  # an integer no float can hold
    '{"ts": 1' + "0" * 400 + ', "total_cost_usd": 1}',
]


def _bad_ledger():
    spent(0.25, project="shop")
    hand_edit_ledger(*[line.replace("NOW", str(int(time.time()))) for line in BAD_LINES])
    spent(0.5, project="shop")


def test_bad_ledger_lines_are_skipped_by_lh_cost(isolated_home):
    _bad_ledger()
    r = invoke("cost")
    assert r.code == 0, r
    assert "today $0.75 of $5.00 a day" in r.out and "paused" not in r.out
    data = strict_json(invoke("cost", "--json").out)
    assert data["total"]["calls"] == 2 and data["total"]["cost_usd"] == 0.75 and data["paused"] is None
    by = invoke("cost", "--by", "project", "--json")
    assert by.code == 0, by
    assert strict_json(by.out)["groups"] == {"shop": data["total"]}
    assert strict_json(invoke("cost", "--by", "day", "--since", "1971-01-01", "--json").out)["total"]["calls"] == 2


def test_bad_ledger_lines_do_not_pause_distillation(isolated_home):
    _bad_ledger()
    now = time.time()
    verdict = budget.check(config.defaults(), None, now, 0.01)
    assert verdict.allowed and verdict.spent_today == pytest.approx(0.75)
    assert [e["total_cost_usd"] for e in ledger.read_since(0)] == [0.25, 0.5]
    assert budget.estimate(1000) < 1.0  # the absurd lines do not make the next call look costly


def test_a_call_dated_in_the_future_is_not_spend_of_today(isolated_home):
    now = time.time()
    spent(4.0, when=now + 400 * 86400)  # a clock that was a year ahead
    verdict = budget.check(config.defaults(), None, now, 0.01)
    assert verdict.allowed and verdict.spent_today == 0 and verdict.spent_month == 0


# --- 3. non-finite and absurd config values -------------------------------------------------------------

@pytest.mark.parametrize("line,expected", [
    ("[budget]\ndaily_usd = inf", "budget.daily_usd: expected a finite number, got inf"),
    ("[budget]\nmonthly_usd = -inf", "budget.monthly_usd: expected a finite number, got -inf"),
    ("[budget]\ndaily_usd = nan", "budget.daily_usd: expected a finite number, got nan"),
    ("[budget]\ndaily_usd = 1e400", "budget.daily_usd: expected a finite number, got inf"),
    ("[budget]\ndaily_usd = 1" + "0" * 400,
     "budget.daily_usd: expected a number <= 1000000000, got an integer of 401 digits"),
    ("[recall]\nmin_score = 2e9", "recall.min_score: expected a number <= 1000000000, got 2000000000.0"),
    ("[compound_loop]\nmin_messages = 99999999999999999999999",
     "compound_loop.min_messages: expected an integer <= 1000000000, got 99999999999999999999999"),
    ("[context]\nmax_chars = 10000000000", "context.max_chars: expected an integer <= 1000000000"),
], ids=["inf", "-inf", "nan", "1e400", "401 digits", "min_score", "min_messages", "capped key"])
def test_non_finite_and_absurd_numbers_are_errors_with_file_and_line(isolated_home, line, expected):
    path = write_config(isolated_home, "# mine\n" + line + "\n")
    values, errors, _ = config.parse_file(str(path))
    assert len(errors) == 1 and errors[0].startswith(f"{path}:3: {expected}"), errors
    assert values == config.defaults()
    r = invoke("config", "validate")
    assert r.code == 1 and f"{path}:3: {expected}" in r.out


def test_the_bound_is_inclusive_and_in_the_docs(isolated_home):
    path = write_config(isolated_home, "[compound_loop]\nmin_messages = 1000000000\n[budget]\ndaily_usd = 1e9\n")
    assert config.parse_file(str(path))[1] == []
    docs = open(os.path.join(os.path.dirname(__file__), "..", "..", "docs", "how", "configuration.md")).read()
    assert "1,000,000,000" in docs and "`inf`" in docs


def test_lh_cost_json_is_valid_json_with_an_infinite_cap_in_the_file(isolated_home):
    write_config(isolated_home, "[budget]\ndaily_usd = inf\n")
    spent(0.5)
    r = invoke("cost", "--json")
    assert r.code == 0, r
    data = strict_json(r.out)
    assert data["daily_cap_usd"] == 5.0  # the default, with a warning naming the problem
    assert "budget.daily_usd: expected a finite number" in r.err


# --- 4. an array of tables where a table is expected -------------------------------------------------

def test_an_array_of_tables_is_named_in_words_with_its_line(isolated_home):
    path = write_config(isolated_home, "[compound_loop]\nenabled = true\n\n[[context]]\nmax_chars = 1\n")
    _, errors, _ = config.parse_file(str(path))
    assert errors == [f"{path}:4: context: expected a table, got an array of tables (write [context], not [[context]])"]
    r = invoke("config", "validate")
    assert r.code == 1 and "{" not in r.out and "'" not in r.out


@pytest.mark.parametrize("text,expected", [
    ("context = [1, 2]\n", "1: context: expected a table, got [1, 2]"),
    ("[compound_loop]\nmodel = 1979-05-27\n", '2: compound_loop.model: expected a string, got a date (1979-05-27)'),
    ('[compound_loop]\nredact_patterns = ["a", 1]\n',
     '2: compound_loop.redact_patterns: expected a list of strings, got ["a", 1]'),
    ("[compound_loop.model]\nx = 1\n", "1: compound_loop.model: expected a string, got a table"),
], ids=["top-level list", "date", "mixed list", "sub-table"])
def test_other_shapes_are_described_in_words_with_their_line(isolated_home, text, expected):
    path = write_config(isolated_home, text)
    _, errors, _ = config.parse_file(str(path))
    assert errors == [f"{path}:{expected}"]


# --- 5. install with an invalid config ------------------------------------------------------------------

def test_install_with_a_wrong_value_says_distillation_stays_paused(isolated_home):
    cfg = write_config(isolated_home, "[compound_loop]\nmodel = 42\n")
    r = invoke("hooks", "install")
    assert r.code == 0, r
    assert f"warning: {cfg}:3: compound_loop.model: expected a string, got 42" in r.out  # below enabled
    assert "the default is used" not in r.out
    last = r.out.splitlines()[-1]
    assert "compound_loop.enabled switched on" in last
    assert "distillation stays paused until the file is valid" in last and "lh config validate" in last
    again = invoke("hooks", "install")  # the second run says the same about the pause
    assert "compound loop already enabled" in again.out and "stays paused" in again.out


# --- 6. --project DIR that does not exist -----------------------------------------------------------------

@pytest.mark.parametrize("command", ["install", "uninstall"])
def test_a_project_folder_that_does_not_exist_is_refused(isolated_home, tmp_path, monkeypatch, command):
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    r = invoke("hooks", command, "--project", "../typo")
    one_line_error(r, "--project", str(tmp_path / "typo"), "does not exist")
    assert not (tmp_path / "typo").exists()
    assert not config_path(isolated_home).exists()


def test_a_project_path_that_is_a_file_is_refused(isolated_home, tmp_path):
    (tmp_path / "file").write_text("x")
    r = invoke("hooks", "install", "--project", str(tmp_path / "file"))
    one_line_error(r, "--project", "not a folder")


# --- 7. backups of a project's settings stay out of the project -----------------------------------------

def test_project_backups_go_to_lazy_harness_data_folder(isolated_home, tmp_path):
    target = tmp_path / "app" / ".claude" / "settings.json"
    target.parent.mkdir(parents=True)
    original = b'{\n  "model": "opus"\n}\n'
    target.write_bytes(original)
    r = invoke("hooks", "install", "--project", str(tmp_path / "app"))
    assert r.code == 0, r
    assert os.listdir(target.parent) == ["settings.json"]
    backup = os.path.join(paths.data_dir(), "settings-backups", paths.project_key(str(target)) + ".lh-backup")
    assert f"backup: {backup}" in r.out
    assert open(backup, "rb").read() == original
    # a later, different original gets a dated backup there too, never in the project
    assert invoke("hooks", "uninstall", "--project", str(tmp_path / "app")).code == 0
    assert target.read_bytes() == original
    target.write_bytes(b'{\n  "model": "sonnet"\n}\n')
    again = invoke("hooks", "install", "--project", str(tmp_path / "app"))
    assert again.code == 0 and os.listdir(target.parent) == ["settings.json"]
    assert f"backup: {backup}." in again.out
    assert invoke("hooks", "uninstall", "--project", str(tmp_path / "app")).code == 0
    assert target.read_bytes() == b'{\n  "model": "sonnet"\n}\n'


def test_a_settings_file_outside_the_claude_dir_keeps_its_backup_out_of_its_folder(isolated_home, tmp_path):
    target = tmp_path / "app" / ".claude" / "settings.local.json"
    target.parent.mkdir(parents=True)
    target.write_text("{}\n")
    assert invoke("hooks", "install", "--settings", str(target)).code == 0
    assert os.listdir(target.parent) == ["settings.local.json"]


def test_uninstall_still_finds_a_backup_an_older_version_left_in_the_project(isolated_home, tmp_path):
    target = tmp_path / "app" / ".claude" / "settings.json"
    target.parent.mkdir(parents=True)
    original = b'{"model": "opus"}'
    target.write_bytes(original)
    settings.install(str(target), portable=True)  # the old layout: <file>.lh-backup beside it
    assert (target.parent / "settings.json.lh-backup").exists()
    assert invoke("hooks", "uninstall", "--project", str(tmp_path / "app")).code == 0
    assert target.read_bytes() == original
    r = invoke("hooks", "install", "--project", str(tmp_path / "app"))
    backup = os.path.join(paths.data_dir(), "settings-backups", paths.project_key(str(target)) + ".lh-backup")
    assert r.code == 0 and f"backup: {backup}" in r.out


# --- 8. a malformed settings.json in doctor and uninstall ------------------------------------------------

def test_doctor_names_the_json_error_of_a_malformed_settings_file(isolated_home, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    target = isolated_home / ".claude" / "settings.json"
    target.parent.mkdir()
    target.write_text('{"a":\n')
    r = invoke("doctor")
    [line] = [ln for ln in r.out.splitlines() if ln.split(":")[0].split()[-1] == "hooks"]
    assert line.startswith("fail") and str(target) in line and "not valid JSON (line 2, column 1" in line
    assert "no settings file holds" not in r.out and "hint: lh hooks install" not in line
    assert f"hint: fix the JSON in {target}" in line
    assert "left untouched" not in r.out


def test_uninstall_of_a_malformed_settings_file_hints_at_fixing_it(isolated_home):
    target = isolated_home / ".claude" / "settings.json"
    target.parent.mkdir()
    target.write_text('{"a":\n')
    r = invoke("hooks", "uninstall")
    one_line_error(r, str(target), "not valid JSON (line 2, column 1", "fix the JSON", "lh hooks uninstall again")
    assert "lh hooks install" not in r.err
    assert target.read_text() == '{"a":\n'


def test_a_number_too_long_for_python_is_one_line_with_its_line(isolated_home):
    path = write_config(isolated_home, "[budget]\n\ndaily_usd = 1" + "0" * 5000 + "\n")
    r = invoke("config", "validate")
    assert r.code == 1 and "Traceback" not in r.out + r.err
    assert r.out.startswith(f"{path}:3: a number too long to read")


@pytest.mark.parametrize("command", [["memory", "show"], ["memory", "search", "sqlite"], ["memory", "check"],
                                     ["memory", "check", "--all-projects"], ["memory", "reindex"]])
def test_a_broken_config_is_one_line_for_the_memory_commands_not_the_default_folder(isolated_home, tmp_path,
                                                                                      command):
    """A config.toml with a syntax error: these commands read memory, so they say what is wrong with
    the file (its line) instead of reading the default folder and saying an empty memory is fine."""
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    write_config(isolated_home, f'[memory]\npath = "{tmp_path / "mem"}"\n[context\n')
    args = [*command, "--project", str(project)] if "--all-projects" not in command and command[1] != "reindex" \
        else command
    one_line_error(invoke(*args), "config.toml:3", "lh config validate")


@pytest.mark.parametrize("name", ["marks.jsonl", "handoff.jsonl"])
def test_a_memory_file_that_is_a_folder_is_one_line_naming_it(isolated_home, tmp_path, name):
    """As the installed command, so a traceback would show: one line naming the folder, exit 1. Marks
    (what was forgotten) and the open items stop the index: nothing is read as if they were empty."""
    from tests.cli.lhrun import run

    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    memory = paths.memory_dir(str(project))
    os.makedirs(os.path.join(memory, name))
    for args in (["memory", "search", "sqlite", "--project", str(project)], ["memory", "reindex"]):
        done = run(*args)
        assert done.returncode == 1 and "Traceback" not in done.stderr, (args, done.stderr)
        assert done.stderr == f"lh: {os.path.join(memory, name)}: Is a directory\n", (args, done.stderr)


def test_a_decisions_file_that_is_a_folder_is_named_and_the_rest_is_searched(isolated_home, tmp_path):
    from tests.cli.lhrun import run

    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    memory = paths.memory_dir(str(project))
    os.makedirs(os.path.join(memory, "decisions.jsonl"))
    with open(os.path.join(memory, "failures.jsonl"), "w") as fh:
        fh.write('{"ts": "2026-11-30T10:00:00Z", "summary": "sqlite locked under load", "detail": "busy"}\n')
    done = run("memory", "search", "sqlite", "--project", str(project))
    assert done.returncode == 0 and "sqlite locked under load" in done.stdout, done.stderr
    assert done.stderr == (f"lh: {os.path.join(memory, 'decisions.jsonl')}: cannot be read: a folder, not a file; "
                           "searched the rest of memory\n")
    done = run("memory", "reindex")
    assert done.returncode == 0 and done.stderr == (f"lh: {os.path.join(memory, 'decisions.jsonl')}: cannot be "
                                                    "read: a folder, not a file; indexed the rest of memory\n")
