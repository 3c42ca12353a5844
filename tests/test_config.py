"""lazy_harness.config: the schema, its example file, validation messages, the hot-path snapshot, the loop switch."""

import os
import stat
import tomllib
from pathlib import Path

import pytest

from lazy_harness import config, paths
from lazy_harness.errors import ConfigError

ROOT = Path(__file__).resolve().parent.parent


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# --- the example --------------------------------------------------------------------------------

def test_repository_example_is_exactly_the_generated_text():
    regenerate = ("regenerate it: python -c 'from lazy_harness import config; "
                  "print(config.render_example(), end=\"\")' > config.example.toml")
    assert (ROOT / "config.example.toml").read_text(encoding="utf-8") == config.render_example(), regenerate


def test_example_parses_to_the_defaults_and_validates_clean(tmp_path):
    text = config.render_example()
    assert tomllib.loads(text) == config.defaults()
    path = write(tmp_path / "c.toml", text)
    values, errors, warnings = config.parse_file(str(path))
    assert (errors, warnings) == ([], [])
    assert values == config.defaults()


def test_example_documents_every_key_with_its_meaning():
    lines = config.render_example().splitlines()
    for section, keys in config.SCHEMA.items():
        head = lines.index(f"[{section}]")
        for key, (_, default, meaning) in keys.items():
            at = next(i for i in range(head, len(lines)) if lines[i].startswith(f"{key} = "))
            assert meaning in lines[at - 1], key
            assert tomllib.loads(lines[at])[key] == default


def test_every_section_of_the_example_says_what_it_is_for():
    lines = config.render_example().splitlines()
    for section in config.SCHEMA:
        above = lines[lines.index(f"[{section}]") - 1]
        assert above.startswith("# ") and len(above) > 10, section
    assert "docs/how/sync.md" in config.SECTION_HELP["sync"]
    assert "docs/how/consolidation.md" in config.SECTION_HELP["consolidate"]


def test_issue_defaults():
    d = config.defaults()["compound_loop"]
    assert (d["enabled"], d["min_messages"], d["min_user_chars"], d["debounce_seconds"],
            d["reprocess_min_growth_seconds"], d["timeout_seconds"]) == (False, 4, 200, 60, 120, 120)
    assert "model" in d and "claude_path" in d
    assert config.defaults()["knowledge"]["path"] == ""


# --- validation messages ------------------------------------------------------------------------

@pytest.mark.parametrize("line,expected", [
    ("min_similarity = 1.5", "recall.min_similarity: expected a number between 0 and 1, got 1.5"),
    ("min_similarity = -0.1", "recall.min_similarity: expected a number between 0 and 1, got -0.1"),
    ("min_similarity = \"high\"", 'recall.min_similarity: expected a number, got "high"'),
    ("semantic = \"yes\"", 'recall.semantic: expected a boolean, got "yes"'),
])
def test_semantic_recall_keys_are_bounded(tmp_path, line, expected):
    path = write(tmp_path / "c.toml", f"# comment\n[recall]\n{line}\n")
    values, errors, _ = config.parse_file(str(path))
    assert errors == [f"{path}:3: {expected}"]
    assert values["recall"] == config.defaults()["recall"]  # the defaults stay


def test_semantic_recall_bounds_are_inclusive(tmp_path):
    path = write(tmp_path / "c.toml", "[recall]\nsemantic = false\nmin_similarity = 1\n")
    values, errors, _ = config.parse_file(str(path))
    assert errors == []
    assert {k: values["recall"][k] for k in ("semantic", "min_similarity")} == {"semantic": False, "min_similarity": 1}
    path = write(tmp_path / "c.toml", "[recall]\nmin_similarity = 0\n")
    assert config.parse_file(str(path))[1] == []


@pytest.mark.parametrize("value,ok", [(0, True), (100, True), (35, True), (101, False), (500, False), (-1, False)])
def test_min_coverage_is_a_percent(tmp_path, value, ok):
    path = write(tmp_path / "c.toml", f"# percent\n[recall]\nmin_coverage = {value}\n")
    values, errors, _ = config.parse_file(str(path))
    if ok:
        assert errors == [] and values["recall"]["min_coverage"] == value
    else:
        assert errors == [f"{path}:3: recall.min_coverage: expected an integer between 0 and 100, got {value}"]
        assert values["recall"]["min_coverage"] == 0  # the default stays


def test_min_sessions_says_which_sessions_count():
    meaning = config.SCHEMA["consolidate"]["min_sessions"][2]
    assert "decisions, failures or handoff items" in meaning
    doc = (ROOT / "docs" / "how" / "configuration.md").read_text(encoding="utf-8")
    assert f"| `consolidate.min_sessions` | `5` | {meaning} |" in doc


def test_cross_projects_is_ask_or_auto(tmp_path):
    assert config.defaults()["trust"]["cross_projects"] == "ask"
    path = write(tmp_path / "c.toml", "[trust]\ncross_projects = \"auto\"\n")
    values, errors, _ = config.parse_file(str(path))
    assert errors == [] and values["trust"]["cross_projects"] == "auto"
    path = write(tmp_path / "c.toml", "# consent\n[trust]\ncross_projects = \"always\"\n")
    values, errors, _ = config.parse_file(str(path))
    assert errors == [f'{path}:3: trust.cross_projects: expected "ask" or "auto", got "always"']
    assert values["trust"]["cross_projects"] == "ask"  # the default stays


def test_wrong_type_names_file_line_dotted_key_and_expected_type(tmp_path):
    path = write(tmp_path / "c.toml", "[compound_loop]\nenabled = true\ndebounce_seconds = \"soon\"\n")
    values, errors, _ = config.parse_file(str(path))
    assert errors == [f'{path}:3: compound_loop.debounce_seconds: expected an integer, got "soon"']
    assert values["compound_loop"]["debounce_seconds"] == 60  # the default stays
    assert values["compound_loop"]["enabled"] is True


@pytest.mark.parametrize("line,expected", [
    ("min_messages = true", "compound_loop.min_messages: expected an integer, got true"),
    ("model = 42", "compound_loop.model: expected a string, got 42"),
    ("enabled = 1", "compound_loop.enabled: expected a boolean, got 1"),
    ("redact_patterns = \"x\"", 'compound_loop.redact_patterns: expected a list of strings, got "x"'),
    ("redact_patterns = [1]", "compound_loop.redact_patterns: expected a list of strings, got [1]"),
    ("timeout_seconds = 0", "compound_loop.timeout_seconds: expected an integer >= 1, got 0"),
    ("redact_patterns = [\"(\"]", 'compound_loop.redact_patterns: invalid regular expression "("'),
])
def test_value_errors(tmp_path, line, expected):
    path = write(tmp_path / "c.toml", f"# comment\n[compound_loop]\n{line}\n")
    _, errors, _ = config.parse_file(str(path))
    assert len(errors) == 1
    assert errors[0].startswith(f"{path}:3: {expected}")


def test_section_that_is_not_a_table(tmp_path):
    path = write(tmp_path / "c.toml", "compound_loop = 3\n")
    _, errors, _ = config.parse_file(str(path))
    assert errors == [f"{path}:1: compound_loop: expected a table, got 3"]


def test_unknown_keys_and_sections_warn_and_are_ignored(tmp_path):
    path = write(tmp_path / "c.toml", "[compound_loop]\nenabld = true\n\n[extra]\nx = 1\n")
    values, errors, warnings = config.parse_file(str(path))
    assert errors == []
    assert warnings == [f"{path}:2: compound_loop.enabld: unknown key, ignored (did you mean compound_loop.enabled?)",
                        f"{path}:4: extra: unknown section, ignored"]
    assert values == config.defaults()


def test_top_level_key_outside_a_section_warns_with_its_line(tmp_path):
    path = write(tmp_path / "c.toml", "# c\nenabled = true\n[compound_loop]\n")
    _, errors, warnings = config.parse_file(str(path))
    assert errors == []
    assert len(warnings) == 1 and warnings[0].startswith(f"{path}:2: enabled: unknown top-level key")


def test_syntax_error_names_file_and_line(tmp_path):
    path = write(tmp_path / "c.toml", "[compound_loop]\nenabled = true\nmodel = \n")
    with pytest.raises(ConfigError) as info:
        config.parse_file(str(path))
    message = info.value.message
    assert message.startswith(f"{path}:3: TOML syntax error")
    assert "\n" not in message


def test_not_utf8_and_unreadable_are_config_errors(tmp_path):
    bad = tmp_path / "c.toml"
    bad.write_bytes(b"[compound_loop]\nmodel = \"\xff\"\n")
    with pytest.raises(ConfigError, match="not UTF-8"):
        config.parse_file(str(bad))
    with pytest.raises(ConfigError, match="cannot read"):
        config.parse_file(str(tmp_path))  # a folder


def test_missing_file_means_defaults(tmp_path):
    assert config.parse_file(str(tmp_path / "none.toml")) == (config.defaults(), [], [])


def test_context_max_chars_is_capped():
    values, errors, _ = config.check({"context": {"max_chars": 50_000}})
    assert errors == [] and values["context"]["max_chars"] == config.CONTEXT_HARD_CAP


@pytest.mark.parametrize("section, key, value, cap", [
    ("context", "max_chars", 50_000, 9500), ("recall", "max_chars", 4001, 4000),
    # a pull waited for past SessionStart's 10 s would cost the whole read-back
    ("sync", "pull_budget_ms", 60_000, 8000)])
def test_a_capped_value_is_a_warning_naming_line_value_and_cap(tmp_path, section, key, value, cap):
    path = write(tmp_path / "c.toml", f"# mine\n[{section}]\n{key} = {value}\n")
    values, errors, warnings = config.parse_file(str(path))
    assert errors == [] and values[section][key] == cap
    assert warnings == [f"{path}:3: {section}.{key}: {value} is above the cap of {cap}; {cap} is used"]


def test_context_max_chars_has_a_minimum_and_recall_max_chars_keeps_its_own(tmp_path):
    """Under 1,000 characters SessionStart has no room for its header and one item: an error, the
    default stays; the same key of [recall] has its own floor, raised to with a warning
    (tests/recall/test_prompt_budget_whyfx.py)."""
    path = write(tmp_path / "c.toml", "[context]\nmax_chars = 300\n[recall]\nmax_chars = 900\n")
    values, errors, _ = config.parse_file(str(path))
    assert errors == [f"{path}:2: context.max_chars: expected an integer >= 1000, got 300"]
    assert values["context"]["max_chars"] == 6000 and values["recall"]["max_chars"] == 900
    assert config.check({"context": {"max_chars": 1000}})[1] == []
    assert "; at least 1000" in config.render_example()


def test_a_value_at_the_cap_is_no_warning():
    values, errors, warnings = config.check({"context": {"max_chars": 9500}, "recall": {"max_chars": 820}})
    assert (errors, warnings) == ([], []) and values["context"]["max_chars"] == 9500


def test_load_raises_on_a_wrong_value_with_a_hint(tmp_path, monkeypatch):
    path = write(tmp_path / "c.toml", "[compound_loop]\nmin_messages = \"x\"\n")
    monkeypatch.setenv("LH_CONFIG", str(path))
    with pytest.raises(ConfigError) as info:
        config.load()
    assert "compound_loop.min_messages" in info.value.message
    assert info.value.hint == "lh config validate"


# --- the hot-path snapshot ----------------------------------------------------------------------

def test_load_fast_uses_the_snapshot_until_the_file_changes(tmp_path, monkeypatch):
    path = write(tmp_path / "c.toml", "[compound_loop]\nenabled = true\n")
    monkeypatch.setenv("LH_CONFIG", str(path))
    assert config.load_fast()["compound_loop"]["enabled"] is True
    snap = os.path.join(paths.state_dir(), "config.json")
    assert os.path.exists(snap)
    write(path, "[compound_loop]\nenabled = false\n")
    assert config.load_fast()["compound_loop"]["enabled"] is False


def test_load_fast_never_raises_on_a_broken_file(tmp_path, monkeypatch):
    path = write(tmp_path / "c.toml", "[compound_loop\n")
    monkeypatch.setenv("LH_CONFIG", str(path))
    values = config.load_fast()
    assert config.invalid(values).startswith(f"{path}:1: TOML syntax error")
    del values[config.INVALID]
    assert values == config.defaults()


# --- switching the loop on by a careful text edit ----------------------------------------------

def test_set_value_flips_in_place_and_keeps_comments():
    text = "# mine\n[compound_loop]\n# the switch\nenabled = false  # off for now\nmodel = \"m\"\n"
    out = config.set_value(text, "compound_loop", "enabled", True)
    assert out == "# mine\n[compound_loop]\n# the switch\nenabled = true  # off for now\nmodel = \"m\"\n"


def test_set_value_adds_a_missing_key_under_its_section():
    text = "[knowledge]\npath = \"/k\"\n\n[compound_loop]  # loop\nmodel = \"m\"\n"
    out = config.set_value(text, "compound_loop", "enabled", True)
    assert out == "[knowledge]\npath = \"/k\"\n\n[compound_loop]  # loop\nenabled = true\nmodel = \"m\"\n"


def test_set_value_adds_a_missing_section_at_the_end():
    out = config.set_value("[knowledge]\npath = \"/k\"", "compound_loop", "enabled", True)
    assert out == "[knowledge]\npath = \"/k\"\n\n[compound_loop]\nenabled = true\n"
    assert config.set_value("", "compound_loop", "enabled", True) == "[compound_loop]\nenabled = true\n"


def test_set_value_refuses_what_it_cannot_edit_safely():
    # a dotted line is changed in place (tests/test_config_smallfx_dotted.py); an inline table is not
    assert config.set_value("compound_loop.enabled = false\n", "compound_loop", "enabled", True) == \
        "compound_loop.enabled = true\n"
    with pytest.raises(ConfigError):
        config.set_value("compound_loop = { enabled = false }\n", "compound_loop", "enabled", True)


def test_enable_loop_creates_the_example_switched_on(tmp_path):
    path = tmp_path / "cfg" / "config.toml"
    assert config.enable_loop(str(path)) == "created"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    text = path.read_text()
    assert text == config.set_value(config.render_example(), "compound_loop", "enabled", True)
    expected = config.defaults()
    expected["compound_loop"]["enabled"] = True
    assert config.parse_file(str(path)) == (expected, [], [])


def test_enable_loop_flips_an_existing_file_and_is_idempotent(tmp_path):
    path = write(tmp_path / "config.toml", "# keep me\n[compound_loop]\nenabled = false\nmodel = \"x\"\n")
    os.chmod(path, 0o640)
    assert config.enable_loop(str(path)) == "enabled"
    assert path.read_text() == "# keep me\n[compound_loop]\nenabled = true\nmodel = \"x\"\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    before = path.stat().st_mtime_ns
    assert config.enable_loop(str(path)) == "already enabled"
    assert path.stat().st_mtime_ns == before


def test_enable_loop_refuses_a_broken_file_untouched(tmp_path):
    path = write(tmp_path / "config.toml", "[compound_loop\nenabled = false\n")
    before = path.read_bytes()
    with pytest.raises(ConfigError):
        config.enable_loop(str(path))
    assert path.read_bytes() == before


def test_configuration_doc_lists_every_key_with_its_default():
    doc = (ROOT / "docs" / "how" / "configuration.md").read_text(encoding="utf-8")
    for section, keys in config.SCHEMA.items():
        for key, (_, default, _) in keys.items():
            assert f"| `{section}.{key}` | `{config.toml_literal(default)}` |" in doc, f"{section}.{key}"


def test_enable_loop_where_it_cannot_write_is_a_config_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ConfigError, match="cannot (read|write)"):
        config.enable_loop(str(blocker / "config.toml"))


# --- folders: [knowledge] path and [memory] path ------------------------------------------------

@pytest.mark.parametrize("section", ["knowledge", "memory"])
@pytest.mark.parametrize("value,expected", [
    ("$LH_TEST_UNSET_VAR/notes", "$LH_TEST_UNSET_VAR is not set"),
    ("~bob/notes", "~user is not supported"),
])
def test_unresolvable_folder_is_rejected_with_file_and_line(tmp_path, monkeypatch, section, value, expected):
    monkeypatch.delenv("LH_TEST_UNSET_VAR", raising=False)
    path = write(tmp_path / "c.toml", f"# comment\n[{section}]\npath = \"{value}\"\n")
    values, errors, _ = config.parse_file(str(path))
    assert len(errors) == 1 and errors[0].startswith(f"{path}:3: {section}.path: {expected}")
    assert values[section]["path"] == ""  # the default folder, never a literal "$LH_TEST_UNSET_VAR"


def test_relative_and_variable_folders_resolve_against_the_config_files_folder(tmp_path, monkeypatch):
    from lazy_harness import paths

    cfg = write(tmp_path / "cfg" / "config.toml", '[knowledge]\npath = "rel/notes"\n[memory]\npath = "$MEMS/lh"\n')
    monkeypatch.setenv("LH_CONFIG", str(cfg))
    monkeypatch.setenv("MEMS", str(tmp_path / "m"))
    monkeypatch.chdir(tmp_path)
    for cfgv in (config.load(), config.load_fast()):
        assert paths.knowledge_dir(cfgv["knowledge"]["path"]) == str(tmp_path / "cfg" / "rel" / "notes")
        assert paths.memory_root(cfgv["memory"]["path"]) == str(tmp_path / "m" / "lh")


@pytest.mark.parametrize("key", ["semantic_timeout_ms = 80", "semantic_idle_minutes = 60"])
def test_the_retired_embedder_keys_warn_why_they_do_nothing(tmp_path, key):
    path = write(tmp_path / "c.toml", f"[recall]\n{key}\n")
    values, errors, warnings = config.parse_file(str(path))
    assert errors == [] and values["recall"] == config.defaults()["recall"]
    name = key.split()[0]
    assert warnings == [f"{path}:2: recall.{name}: no longer used: there is no embedder process"
                        + (" to wait for" if "timeout" in name else "") + " (ADR 0025), ignored"]
