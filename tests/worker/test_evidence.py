"""worker/evidence.py: an entry's distinctive marks, and whether the agent's later acts hold one."""

from lazy_harness.worker import evidence
from tests.support.sessions import TRANSCRIPTS


def test_marks_are_commands_paths_identifiers_and_rare_phrases():
    text = ("Run `pytest -n 0 tests/recall` before pushing; the config lives in src/app/settings.py and "
            "MAX_RETRIES is read by load_config() through app.settings.load. Pass --frozen-lockfile to pnpm. "
            "Postgres advisory locks serialise concurrent migrations.")
    marks = evidence.marks_of(text)
    for expected in ("pytest -n 0 tests/recall", "src/app/settings.py", "MAX_RETRIES", "load_config",
                     "app.settings.load", "--frozen-lockfile", "postgres advisory locks serialise"):
        assert expected in marks, (expected, marks)


def test_generic_words_never_count():
    marks = evidence.marks_of("Always check the tests before you change the config file; run them again, e.g. twice.")
    assert marks == []
    assert not evidence.marks_of("Use `python` and `pytest`.")  # a bare word in backticks is no mark


def test_a_mark_matches_whole_not_inside_a_longer_name():
    act = "I will call load_config_v2 now"
    words = " " + " ".join(act.lower().split()) + " "
    assert not evidence.found_in("load_config", act, words)
    assert evidence.found_in("load_config_v2", act, words)
    assert evidence.found_in("pnpm install --frozen-lockfile", "$ pnpm install --frozen-lockfile\n", "")


def test_first_use_counts_only_acts_at_or_after_the_showing():
    acts = [(10.0, "echo hi", " echo hi "), (20.0, "ran make deploy-staging", " ran make deploy-staging ")]
    assert evidence.first_use(["echo hi"], acts, 5.0) == (10.0, "echo hi")
    assert evidence.first_use(["echo hi"], acts, 11.0) is None
    assert evidence.first_use(["make deploy-staging"], acts, 11.0) == (20.0, "make deploy-staging")


def test_acts_of_a_recorded_transcript_hold_the_bash_command_and_the_text():
    acts = evidence.acts(str(TRANSCRIPTS / "interactive.jsonl"))
    assert any(a[1].startswith("echo hi") for a in acts)  # the Bash tool call's input
    assert any("lock_timeout" in a[1] for a in acts)  # the assistant's text
    assert all(a[0] > 1.7e9 for a in acts)  # each with its time
    assert not evidence.acts(str(TRANSCRIPTS / "subagent-sidechain.jsonl"))  # a sub-agent's own records


def test_acts_of_a_codex_rollout_hold_the_tool_call_and_the_answer():
    from pathlib import Path

    rollout = Path(TRANSCRIPTS).parent / "codex" / "interactive.jsonl"
    texts = [text for _, text, _ in evidence.acts(str(rollout))]

    assert any('"cmd": "ls"' in t or t == '{"cmd": "ls"}' for t in texts), texts
    assert "Let me look at the files first." in texts
    assert not any("decided last week" in t for t in texts)  # the hook's context is no act
    assert not any("We decided to keep the billing queue" in t for t in texts)  # nor what the person typed
