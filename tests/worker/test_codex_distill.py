"""The `codex exec` distiller against a fake `codex` first on PATH (tests/support/fake_codex.py): its
isolation, its answer read and validated like claude's, its failures, its tokens in the ledger and
the spend cap; the worker distilling a Codex task with no claude installed."""

import json
import os
import time
from pathlib import Path

import pytest

from lazy_harness import paths, queue
from lazy_harness.config import defaults
from lazy_harness.memory import provenance
from lazy_harness.worker import calls, codex_distill, llm, rollout
from lazy_harness.worker.prompt import ANSWER_SCHEMA
from tests.support import fake_claude, fake_codex
from tests.worker.spendrig import configure, ledger_lines, run_worker, spent, tasks

# why: spend written at the wall clock, "today" taken by the code's own clock: one local day for both
pytestmark = pytest.mark.usefixtures("one_local_day")

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "codex"


@pytest.fixture
def cfg():
    values = defaults()
    values["compound_loop"]["timeout_seconds"] = 20
    values["worker"]["distiller"] = "codex"
    return values


@pytest.fixture
def workdir(tmp_path):
    path = tmp_path / "neutral"
    path.mkdir()
    return str(path)


def test_call_is_isolated_and_prompt_goes_on_stdin(tmp_path, monkeypatch, cfg, workdir):
    fake = fake_codex.use(tmp_path, monkeypatch)
    cfg["worker"]["codex_model"] = "gpt-test"

    got = codex_distill.call("PROMPT TEXT\nwith lines", cfg, dict(os.environ), workdir)

    assert got.answer == fake_codex.DEFAULT_ANSWER
    [rec] = fake_codex.calls(fake)
    argv = rec["argv"]
    assert argv[0] == "exec" and argv[-1] == "-"
    for flag in ("--json", "--ephemeral", "--skip-git-repo-check"):
        assert flag in argv
    assert argv[argv.index("--thread-source") + 1] == "lazy-harness"
    assert [argv[i + 1] for i, a in enumerate(argv) if a == "--disable"] == ["hooks", "memories"]
    assert argv[argv.index("--sandbox") + 1] == "read-only"
    assert argv[argv.index("--model") + 1] == "gpt-test"
    assert rec["stdin"] == "PROMPT TEXT\nwith lines" and "PROMPT TEXT" not in " ".join(argv)
    assert rec["cwd"] == workdir and rec["marker"] == "1"
    assert not any(
        Path(a).exists() for a in argv if a.startswith("/") and "lh-codex-" in a
    )  # schema file removed


def test_schema_is_strict_and_nulls_read_as_absent(tmp_path, monkeypatch, cfg, workdir):
    answer = {"decisions": [{"summary": "Use Postgres"}], "failures": [], "learnings": [], "handoff": []}
    fake = fake_codex.use(tmp_path, monkeypatch, mode="nulls", answer=answer)

    got = codex_distill.call("p", cfg, dict(os.environ), workdir)

    schema = fake_codex.calls(fake)[0]["schema"]
    decision = schema["properties"]["decisions"]["items"]
    assert schema["additionalProperties"] is False and set(schema["required"]) == set(
        ANSWER_SCHEMA["properties"]
    )
    assert decision["additionalProperties"] is False and set(decision["required"]) == set(
        decision["properties"]
    )
    assert decision["properties"]["context"]["type"] == ["string", "null"]
    assert decision["properties"]["summary"]["type"] == "string"  # required before: never null
    assert got.answer == answer  # the nulls the fake added are gone


def test_strict_schema_keeps_only_strict_keywords_and_leaves_the_original_alone():
    from lazy_harness.worker import consolidate_answer

    before = json.dumps(consolidate_answer.SCHEMA, sort_keys=True)
    strict = codex_distill.strict_schema(consolidate_answer.SCHEMA)

    assert "maxLength" not in json.dumps(strict) and "maxLength" in before
    assert json.dumps(consolidate_answer.SCHEMA, sort_keys=True) == before
    assert strict["additionalProperties"] is False


def test_text_answer_is_retried_as_an_unusable_answer(tmp_path, monkeypatch, cfg, workdir):
    fake_codex.use(tmp_path, monkeypatch, mode="text")

    with pytest.raises(llm.CallError) as err:
        codex_distill.call("p", cfg, dict(os.environ), workdir)

    assert (err.value.cause, err.value.action) == ("answer", llm.RETRY)
    assert "answered with text" in err.value.message


@pytest.mark.parametrize(
    "message,cause,action",
    [
        ("stream error: error sending request: Connection refused (os error 111)", "unreachable", llm.WAIT),
        ("unexpected status 401 Unauthorized: invalid api key", "auth", llm.WAIT),
        ("unexpected status 429 Too Many Requests: rate limit", "overloaded", llm.RETRY),
    ],
)
def test_failures_name_their_cause(tmp_path, monkeypatch, cfg, workdir, message, cause, action):
    fake_codex.use(tmp_path, monkeypatch, mode="fail", message=message, code=1)

    with pytest.raises(llm.CallError) as err:
        codex_distill.call("p", cfg, dict(os.environ), workdir)

    assert (err.value.cause, err.value.action) == (cause, action)
    assert message[:30] in err.value.message and "exited 1" in err.value.message


def test_no_answer_in_time_waits(tmp_path, monkeypatch, cfg, workdir):
    fake_codex.use(tmp_path, monkeypatch, mode="hang")
    cfg["compound_loop"]["timeout_seconds"] = 1

    with pytest.raises(llm.CallError) as err:
        codex_distill.call("p", cfg, dict(os.environ), workdir)

    assert (err.value.cause, err.value.action) == ("timeout", llm.WAIT)


def test_missing_codex_fails_at_once_with_the_install_hint(tmp_path, monkeypatch, cfg, workdir):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))

    with pytest.raises(llm.CallError) as err:
        codex_distill.call("p", cfg, dict(os.environ), workdir)

    assert (err.value.cause, err.value.action) == ("not_found", llm.FAIL)
    assert "npm install -g @openai/codex" in (err.value.hint or "")


def test_tokens_priced_from_config_or_at_the_default_price(tmp_path, monkeypatch, cfg, workdir):
    usage = {"input_tokens": 2_000_000, "cached_input_tokens": 500_000, "output_tokens": 100_000}
    fake_codex.use(tmp_path, monkeypatch, usage=usage)

    unpriced = codex_distill.call("p", cfg, dict(os.environ), workdir).usage
    cfg["worker"]["codex_input_usd_per_mtok"] = 0.25
    cfg["worker"]["codex_output_usd_per_mtok"] = 2.0
    priced = codex_distill.call("p", cfg, dict(os.environ), workdir).usage

    assert (priced.input_tokens, priced.output_tokens, priced.cache_read_tokens) == (
        2_000_000,
        100_000,
        500_000,
    )
    assert priced.cost_usd == pytest.approx(2 * 0.25 + 0.1 * 2.0) and priced.reported is True
    inp, out = codex_distill.DEFAULT_PRICES
    assert unpriced.cost_usd == pytest.approx(2 * inp + 0.1 * out) and unpriced.reported is False


def test_auto_picks_claude_when_installed_else_codex(tmp_path, monkeypatch):
    cfg = defaults()
    codex_bin = fake_codex.use(tmp_path, monkeypatch)
    assert codex_distill.chosen(cfg) == "codex"  # PATH holds codex alone
    claude_bin = tmp_path / "bin"
    fake_claude.install(claude_bin)
    monkeypatch.setenv("PATH", f"{codex_bin}{os.pathsep}{claude_bin}")
    assert codex_distill.chosen(cfg) == "claude"
    cfg["worker"]["distiller"] = "codex"
    assert codex_distill.chosen(cfg) == "codex"
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert codex_distill.chosen(defaults()) == "claude"  # neither: claude's failure names its install


def test_guarded_call_records_tokens_and_the_cap_stops_unpriced_codex(
    isolated_home, tmp_path, monkeypatch, cfg
):
    fake = fake_codex.use(tmp_path, monkeypatch, usage={"input_tokens": 400_000, "output_tokens": 20_000})
    cfg["budget"]["daily_usd"] = 2.0
    meta = {"project": "api", "session_id": "s-1", "task_id": "t-1"}

    answer, attempts = calls.run_model("prompt", cfg, dict(os.environ), meta, sleep=lambda s: None)
    [line] = ledger_lines()
    assert answer == fake_codex.DEFAULT_ANSWER and attempts == 1
    assert (line["input_tokens"], line["output_tokens"], line["cost_reported"]) == (400_000, 20_000, False)
    assert line["total_cost_usd"] == pytest.approx(0.4 * 2.5 + 0.02 * 15)  # $1.30 at the default price
    spent(1.0, project="other")  # now past the $2 daily cap

    with pytest.raises(calls.Wait) as wait:
        calls.run_model("prompt", cfg, dict(os.environ), meta, sleep=lambda s: None)
    assert wait.value.paused and "daily cap" in wait.value.message
    assert len(fake_codex.calls(fake)) == 1  # the second call never ran


def test_model_check_uses_the_same_distiller(isolated_home, tmp_path, monkeypatch, cfg):
    fake = fake_codex.use(tmp_path, monkeypatch, answer={"verdicts": []})
    from lazy_harness.worker import model_check

    model_check.run(
        [("decision", "d-1", "decisions.jsonl", "Use Postgres")],
        cfg,
        dict(os.environ),
        {"project": "api", "session_id": "s", "task_id": "t"},
        lambda m: None,
        time.time(),
        lambda s: None,
    )

    [rec] = fake_codex.calls(fake)
    assert "verdicts" in rec["schema"]["properties"]
    assert ledger_lines()[0]["kind"] == "model-check"


def _codex_task(home: Path, project: Path, name: str = "interactive.jsonl") -> dict:
    """The fixture rollout under $CODEX_HOME/sessions with its paths pointed at ``project``; its task."""
    text = (FIXTURE / name).read_text().replace("/home/user/project", str(project))
    sid = json.loads(text.splitlines()[0])["payload"]["id"]
    folder = Path(rollout.sessions_dir()) / "2026" / "11" / "28"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"rollout-2026-11-28T23-58-46-{sid}.jsonl"
    path.write_text(text)
    payload = {"session_id": sid, "transcript_path": str(path), "cwd": str(project)}
    fields = queue.task_fields(payload, "SessionEnd", True)
    fields["agent"] = "codex"
    queue.enqueue(paths.queue_dir(), fields)
    return fields


def test_worker_distills_a_codex_task_without_claude(isolated_home, tmp_path, monkeypatch):
    monkeypatch.setenv("CODEX_HOME", str(isolated_home / ".codex"))
    learning = {
        "title": "Vacuum runs nightly",
        "learning": "The billing DB is vacuumed at 03:00 UTC.",
        "context": "ops",
        "scope": "project",
        "tags": ["postgres"],
    }
    answer = {**fake_codex.DEFAULT_ANSWER, "learnings": [learning]}
    fake = fake_codex.use(tmp_path, monkeypatch, answer=answer)  # PATH: the fake codex alone, no claude
    configure(isolated_home, min_user_chars=50)
    project = tmp_path / "api"
    project.mkdir()
    fields = _codex_task(isolated_home, project)

    stats = run_worker()

    assert stats.processed == 1, tasks("failed") or tasks("done")
    [rec] = fake_codex.calls(fake)
    assert "User: We decided to keep the billing queue in Postgres" in rec["stdin"]
    assert "decided last week" not in rec["stdin"]  # the SessionStart hook's context is never read
    with open(os.path.join(fields["memory_dir"], "decisions.jsonl")) as fh:
        [decision] = [json.loads(line) for line in fh]
    assert decision["agent"] == "codex" and provenance.agent_of(decision) == "codex"
    with open(os.path.join(fields["memory_dir"], "handoff.jsonl")) as fh:
        assert [json.loads(line)["agent"] for line in fh] == ["codex"]
    [note] = list(Path(paths.learnings_dir()).rglob("*.md"))
    assert "\nagent: codex\n" in note.read_text()
    assert ledger_lines()[0]["outcome"] == "ok"


def test_exec_rollout_is_never_distilled(isolated_home, tmp_path, monkeypatch):
    monkeypatch.setenv("CODEX_HOME", str(isolated_home / ".codex"))
    fake = fake_codex.use(tmp_path, monkeypatch)
    configure(isolated_home, min_user_chars=10)
    project = tmp_path / "api"
    project.mkdir()
    _codex_task(isolated_home, project, "exec.jsonl")

    stats = run_worker()

    [done] = tasks("done")
    assert stats.processed == 0 and "not an interactive session (headless)" in done["reason"]
    assert fake_codex.calls(fake) == []


def test_codex_task_outside_codex_sessions_is_refused(isolated_home, tmp_path, monkeypatch):
    monkeypatch.setenv("CODEX_HOME", str(isolated_home / ".codex"))
    fake_codex.use(tmp_path, monkeypatch)
    configure(isolated_home, min_user_chars=10)
    project = tmp_path / "api"
    project.mkdir()
    planted = tmp_path / "elsewhere.jsonl"
    planted.write_text((FIXTURE / "interactive.jsonl").read_text())
    fields = queue.task_fields(
        {"session_id": "s-x", "transcript_path": str(planted), "cwd": str(project)}, "SessionEnd", True
    )
    fields["agent"] = "codex"
    queue.enqueue(paths.queue_dir(), fields)

    run_worker()

    [failed] = tasks("failed")
    assert "untrusted task" in failed["reason"] and "sessions" in failed["reason"]


def test_claude_entries_record_their_agent_too(isolated_home, tmp_path, monkeypatch):
    from tests.worker.spendrig import queue_session

    fake_claude.use(tmp_path, monkeypatch)
    configure(isolated_home)
    project = tmp_path / "api"
    project.mkdir()
    queue_session(project)

    assert run_worker().processed == 1
    [folder] = [f for f in Path(paths.memory_root()).iterdir() if f.is_dir()]
    with open(folder / "decisions.jsonl") as fh:
        assert {json.loads(line)["agent"] for line in fh} == {"claude"}


def test_unknown_agent_fails_the_task(isolated_home, tmp_path, monkeypatch):
    from tests.worker.spendrig import queue_session

    fake_claude.use(tmp_path, monkeypatch)
    configure(isolated_home)
    project = tmp_path / "api"
    project.mkdir()
    payload = queue_session(project)
    [pending] = [n for n in os.listdir(paths.queue_dir()) if n.endswith(queue.SUFFIX)]
    task = os.path.join(paths.queue_dir(), pending)
    with open(task, "a") as fh:
        fh.write("agent=gemini\n")

    run_worker()

    [failed] = tasks("failed")
    assert failed["session_id"] == payload["session_id"] and "unknown agent 'gemini'" in failed["reason"]


def test_resumed_session_redistils_only_what_was_appended(isolated_home, tmp_path, monkeypatch):
    monkeypatch.setenv("CODEX_HOME", str(isolated_home / ".codex"))
    fake = fake_codex.use(tmp_path, monkeypatch)
    configure(isolated_home, min_user_chars=50)
    project = tmp_path / "api"
    project.mkdir()
    fields = _codex_task(isolated_home, project, "resumed.jsonl")
    lines = Path(fields["session_jsonl"]).read_text().splitlines(keepends=True)
    # why: line 32 is where `codex resume` started appending (after the first run's last task_complete)
    first, resumed = lines[:31], lines[31:]
    assert "One more thing" not in "".join(first) and "One more thing" in "".join(resumed)
    Path(fields["session_jsonl"]).write_text("".join(first))
    assert run_worker().processed == 1

    with open(fields["session_jsonl"], "a") as fh:
        fh.write("".join(resumed))
    queue.enqueue(paths.queue_dir(), {**fields, "event": "SessionEnd"})
    assert run_worker().processed == 1

    first_call, second_call = fake_codex.calls(fake)
    assert "We decided to keep the billing queue in Postgres" in first_call["stdin"]
    assert "One more thing: the vacuum job runs at 03:00 UTC" in second_call["stdin"]
    assert "User: We decided to keep the billing queue" not in second_call["stdin"]
    assert "distilled earlier" in second_call["stdin"]


def _agent_says(text: str) -> list[dict]:
    return [{"type": "item.completed", "item": {"type": "agent_message", "text": text}}]


def test_an_example_object_before_codex_answer_in_text_is_not_taken_for_it():
    """A text answer whose first object is an example (as claude's text answers, worker/answer.py):
    the object holding the schema's keys is the answer; one holding none of them is no answer."""
    keys = llm.answer_keys(None)
    said = ('A decision looks like {"summary": "x"}. Here it is: '
            '{"decisions": [{"summary": "Queue tasks as files", "rationale": "rename is atomic"}]}')
    assert codex_distill.answer_of(_agent_says(said), keys)["decisions"][0]["summary"] == "Queue tasks as files"
    with pytest.raises(llm.ModelError):
        codex_distill.answer_of(_agent_says('Nothing to keep: {"note": "empty session"}'), keys)


def test_every_tool_and_each_mcp_server_of_the_person_is_turned_off(tmp_path, monkeypatch, cfg, workdir):
    fake = fake_codex.use(tmp_path, monkeypatch)
    home = tmp_path / "codex-home"
    home.mkdir()
    (home / "config.toml").write_text('model = "x"\n[mcp_servers.notes]\ncommand = "a"\n'
                                      '[mcp_servers."team-docs"]\ncommand = "b"\n')
    env = {**os.environ, "CODEX_HOME": str(home)}

    codex_distill.call("PROMPT", cfg, env, workdir)

    argv = fake_codex.calls(fake)[0]["argv"]
    settings = [argv[i + 1] for i, a in enumerate(argv) if a == "-c"]
    assert {"features.shell_tool=false", 'web_search="disabled"'} <= set(settings)
    assert {"mcp_servers.notes.enabled=false", "mcp_servers.team-docs.enabled=false"} <= set(settings)


def test_a_server_codex_cannot_be_told_to_turn_off_stops_the_call_with_the_file_named(
        tmp_path, monkeypatch, cfg, workdir):
    fake = fake_codex.use(tmp_path, monkeypatch)
    home = tmp_path / "codex-home"
    home.mkdir()
    (home / "config.toml").write_text('[mcp_servers."team.docs"]\ncommand = "b"\n')

    with pytest.raises(llm.CallError) as err:
        codex_distill.call("PROMPT", cfg, {**os.environ, "CODEX_HOME": str(home)}, workdir)

    assert err.value.action == llm.FAIL and str(home / "config.toml") in str(err.value)
    assert '"team.docs"' in str(err.value) and fake_codex.calls(fake) == []


def test_an_unreadable_codex_config_turns_off_no_server_and_still_calls(tmp_path, monkeypatch, cfg, workdir):
    fake = fake_codex.use(tmp_path, monkeypatch)
    home = tmp_path / "codex-home"
    home.mkdir()
    (home / "config.toml").write_text("[mcp_servers.notes\n")  # Codex itself names this error

    codex_distill.call("PROMPT", cfg, {**os.environ, "CODEX_HOME": str(home)}, workdir)

    argv = fake_codex.calls(fake)[0]["argv"]
    assert not any(a.startswith("mcp_servers.") for a in argv) and "features.shell_tool=false" in argv


@pytest.mark.parametrize("prices,runs", [((0, 0), False), ((1.0, 5.0), True)])
def test_a_first_codex_call_is_guessed_at_the_price_its_ledger_line_uses(isolated_home, tmp_path, monkeypatch, cfg,
                                                                         prices, runs):
    """With no call in the ledger, the cap check guesses a codex call at [worker] codex_*_usd_per_mtok,
    or at the deliberately high price its line will be charged at when those are 0, never at haiku's."""
    fake = fake_codex.use(tmp_path, monkeypatch)
    cfg["budget"]["daily_usd"] = 0.04  # above a guess at $1/$5 a million tokens, under one at $2.50/$15
    cfg["worker"]["codex_input_usd_per_mtok"], cfg["worker"]["codex_output_usd_per_mtok"] = prices
    meta = {"project": "api", "session_id": "s-1", "task_id": "t-1"}
    if runs:
        calls.run_model("prompt", cfg, dict(os.environ), meta, sleep=lambda s: None)
    else:
        with pytest.raises(calls.Wait) as wait:
            calls.run_model("prompt", cfg, dict(os.environ), meta, sleep=lambda s: None)
        assert "daily cap" in wait.value.message
    assert len(fake_codex.calls(fake)) == (1 if runs else 0)


@pytest.mark.parametrize("said", ["exceeded retry limit, last status: 429 Too Many Requests, request id: req_1",
                                  "exceeded retry limit, last status: 503 Service Unavailable",
                                  "We're currently experiencing high demand, which may cause temporary errors."])
def test_codexs_own_overload_words_wait_past_the_retries(isolated_home, tmp_path, monkeypatch, said):
    """codex exec says a 429 or a server's overload in its own words: the same cause as claude's 429/529,
    so the task waits in the queue after the retries instead of failing (docs/how/cost.md)."""
    assert llm.classify(said) == ("overloaded", llm.RETRY)
    monkeypatch.setenv("CODEX_HOME", str(isolated_home / ".codex"))
    (isolated_home / ".codex").mkdir()
    fake = fake_codex.use(tmp_path, monkeypatch, mode="fail", message=said, code=1)
    configure(isolated_home, max_attempts=2)
    project = tmp_path / "api"
    project.mkdir()
    from tests.worker.spendrig import queue_session

    queue_session(project)
    stats = run_worker()
    assert (stats.waiting, stats.failed, len(fake_codex.calls(fake))) == (1, 0, 2)
    [waiter] = tasks("")
    assert "overloaded or rate-limited" in waiter["wait_reason"]
