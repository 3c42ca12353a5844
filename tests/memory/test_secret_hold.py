"""A secret in memory that never went through the worker's redactor (ADR 0056): a decision pushed to the
sync remote by another machine, a line or a learning edited by hand. The hold check holds an entry
whose text the redactor would change, so it never reaches a session (SessionStart's context, prompt
recall); its reason names the kind and quotes the words around it redacted, never the secret; the
verdict is kept per text like the others; ordinary notes are not held."""

import importlib
import json
import os
import subprocess
import sys
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files, held_review, ids, state, trust
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import run_hook
from tests.memory import test_approvals_made_here as made_here
from tests.memory.test_approvals_made_here import Hostile
from tests.support import memory_samples as ms
from tests.support import realistic_memory as rm

world = made_here.world  # the fixture: machine A synced once with a bare remote

NOW = time.time()
TOKEN = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"
SUMMARY = "Deploy the staging stack with the bot account"
RATIONALE = f"the bot token {TOKEN} has the deploy scope"
PASSWORD = "Tr0ub4dor-and-3"
PROMPT = "how do I deploy the staging stack with the bot account?"


def _start(root: str, env: dict | None = None, sid: str = "5f0c2a8e-9d1b-4e7a-8c3f-2b6d1e0a9f47") -> tuple[str, str]:
    r = run_hook("SessionStart", {"session_id": sid, "cwd": root, "hook_event_name": "SessionStart",
                                  "source": "startup"}, env=env)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout) if r.stdout else {}
    return (out.get("hookSpecificOutput") or {}).get("additionalContext", ""), out.get("systemMessage", "")


def _ask(root: str, env: dict | None = None) -> str:
    ms.index_now()  # as the worker leaves it: the hook only reads the index (ADR 0042)
    r = run_hook("UserPromptSubmit", {"session_id": "7a1e0c55-3b2d-4e6f-9a8b-0c1d2e3f4a5b", "cwd": root,
                                      "hook_event_name": "UserPromptSubmit", "prompt": PROMPT}, env=env)
    assert r.returncode == 0, r.stderr
    return r.stdout.decode()


def _held(root: str) -> dict[str, dict]:
    return {h["id"]: h for h in held_review.listing(paths.memory_dir(root), paths.learnings_dir())}


def _reason_lines(out: str) -> list[str]:
    """The lines of ``lh memory held`` that give a reason (``held: <why>``)."""
    return [line for line in out.splitlines() if " held: " in line]


# --- the check itself ------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "kind"), [
    (f"{SUMMARY}: {RATIONALE}", "github-token"),
    (f"The staging admin password is {PASSWORD} since the rotation", "password"),
    (f"DB_PASSWORD={PASSWORD} in the compose file", "assignment"),
    (f"the DSN is postgres://app:{PASSWORD}@db.internal:5432/app", "url-password"),
    ("ci uses AKIA" + "Q3EGRIYTZ6VX2N4M for the artifact bucket", "aws-access-key"),
])
def test_a_text_the_redactor_changes_is_held_with_its_kind_and_never_the_secret(text, kind):
    why = trust.reason(text)
    assert why is not None and why.startswith(trust.SECRET) and kind in why, why
    assert TOKEN not in why and PASSWORD not in why and "Q3EGRIYTZ6VX2N4M" not in why
    assert f"[REDACTED:{kind}]" in why  # where: the words around it, redacted


@pytest.mark.parametrize("text", [
    f"{SUMMARY}: {RATIONALE}",
    "alerts go to https://discord.com/api/webhooks/1234567890123/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd now",
    "the hook posts to https://chat.example.com/hooks/x7Fq9ZkP2mW8vR4tY6uB3nJ5 for the channel",
    f"The staging admin password is {PASSWORD} since the rotation",
])
def test_what_the_worker_redacted_before_writing_is_not_held(text):
    """The worker writes the redactor's output: read again, it holds nothing (a hook URL's marker was
    taken for a random segment and redacted again, so every entry the worker wrote with one was held)."""
    from lazy_harness.redact import redact

    cleaned, found = redact(text)
    assert found and trust.reason(cleaned) is None, cleaned


def test_a_note_about_secrets_is_not_held():
    assert trust.reason(f"{SUMMARY}: the bot token [REDACTED:github-token] has the deploy scope") is None
    assert trust.reason("Rotate the deploy token every 90 days; the password policy asks for 16 characters") is None
    assert trust.reason("Read the token from $GITHUB_TOKEN, never from a file in the repository") is None


def test_the_stamp_of_the_kept_verdicts_follows_the_redactor(monkeypatch, tmp_path):
    """An edit of a redactor module (its size) or a new version works every kept verdict out again."""
    import lazy_harness

    folder = tmp_path / "redact"
    folder.mkdir()
    (folder / "kinds.py").write_text("RULES = 1\n")
    before = trust._redactor(str(folder))
    (folder / "kinds.py").write_text("RULES = 12\n")
    assert trust._redactor(str(folder)) != before
    edited = trust._redactor(str(folder))
    monkeypatch.setattr(lazy_harness, "__version__", "99.0")
    assert trust._redactor(str(folder)) != edited
    monkeypatch.setattr(trust, "_STAMP", None)
    assert trust.rules_stamp() not in ("", None)


def test_ordinary_notes_are_not_held_for_a_secret():
    """The false-hold rate: none of the realistic memory's entries (words of technical text, as the
    benchmarks use) nor of the recall evaluation sets' entries holds what the redactor takes out."""
    w = rm.Writer(seed=11)
    texts = [f"{w.sentence(7, 14)} {w.sentence(15, 60)} {' '.join(w.tags())} {' '.join(w.cues())}"
             for _ in range(600)]
    for name in ("recall_set", "recall_blind_cued", "recall_blind2_cued", "recall_blind3_cued", "recall_tiny"):
        for e in importlib.import_module(f"tests.eval.{name}").ENTRIES:
            texts.append(trust.text_of({"text": e.get("text", "")} if e["kind"] == "handoff" else e, e["kind"]))
    held_ = [t for t in texts if trust.secret(t)]
    assert len(texts) > 2000 and held_ == [], held_[:3]


# --- through the hooks, the CLI and sync --------------------------------------------------------------

def test_a_synced_decision_with_a_token_is_held_out_of_the_start_and_prompt_recall(world):
    """The reviewer's case: a clone of the remote appends a decision holding a GitHub token; after the
    pull the token is in no session's context and ``lh memory held`` names it without printing it."""
    a, remote, tmp = world
    key = os.path.basename(a.mdir(a.alpha))
    ev = Hostile(remote, str(tmp / "evil"))
    rec = {**made_here._decision(SUMMARY, key, via="session"), "rationale": RATIONALE}
    ev.append(f"projects/{key}/{files.DECISIONS}", json.dumps(rec) + "\n")
    ev.push()
    a.sync()
    context, told = a.start(a.alpha)
    assert TOKEN not in context and "seed of alpha" in context
    assert TOKEN not in _ask(a.alpha, a.env)
    found = _held(a.alpha)[rec["id"]]
    assert found["state"] == state.HELD and "github-token" in found["reason"] and TOKEN not in found["reason"]
    out = invoke("memory", "held", "--project", a.alpha).out
    [line] = [line for line in _reason_lines(out) if rec["id"] in line]
    assert "holds a secret (github-token)" in line and TOKEN not in line


def test_a_hand_edited_decision_with_a_token_is_held_at_the_start_and_shown_once_the_token_is_gone(tmp_path):
    """No sync, no worker: the line written by hand is first read by SessionStart, which holds it; the
    verdict is kept per text (the next start loads no redactor); with the token edited out and the entry
    approved it is shown again, without the token."""
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    path = os.path.join(mdir, files.DECISIONS)
    ms.write_jsonl(path, [ms.decision(NOW - 60, "Cache the wheel builds between CI runs", "saves 4 minutes"),
                          ms.decision(NOW - 30, SUMMARY, RATIONALE)])
    did = ids.entry_id("decision", SUMMARY)
    context, told = _start(root)
    assert TOKEN not in context and "Cache the wheel builds" in context and did in told
    assert "held 1 memory entry" in told and TOKEN not in told
    assert TOKEN not in _ask(root)
    reason = _held(root)[did]["reason"]
    assert reason.startswith(trust.SECRET) and TOKEN not in reason
    kept = paths.hold_verdicts_file(os.path.basename(mdir))
    with open(kept, encoding="utf-8") as fh:
        assert any(v.startswith(trust.SECRET) for v in json.load(fh)["verdicts"].values())
    assert "lazy_harness.redact" not in _modules_of_a_start(root)  # the verdicts kept: nothing worked out
    with open(path, encoding="utf-8") as fh:
        edited = fh.read().replace(TOKEN, "from the vault (deploy-bot)")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(edited)
    assert trust.reason(trust.text_of(json.loads(edited.splitlines()[1]), "decision")) is None
    assert invoke("memory", "approve", did, "--project", root).code == 0
    context, _ = _start(root, sid="6f0c2a8e-9d1b-4e7a-8c3f-2b6d1e0a9f48")
    assert SUMMARY in context and "from the vault" in context and TOKEN not in context


def _modules_of_a_start(root: str) -> str:
    """The modules a SessionStart in ``root`` imported (``-X importtime``), one per line."""
    payload = json.dumps({"session_id": "8f0c2a8e-9d1b-4e7a-8c3f-2b6d1e0a9f49", "cwd": root,
                          "hook_event_name": "SessionStart", "source": "startup"})
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "lazy_harness.hooks", "SessionStart"],
                       input=payload.encode(), capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return "\n".join(line.rsplit("|", 1)[-1].strip() for line in r.stderr.decode().splitlines())


def test_a_hand_edited_learning_with_a_password_line_is_held(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    key = os.path.basename(paths.memory_dir(root))
    ms.write_learning(paths.learnings_dir(), "Staging database access", "proj", NOW - 60,
                      learning=f"Connect as the app user.\npassword: {PASSWORD}\nThe host is db.staging.internal.",
                      scope="project", project_folder=key, via="hand")
    ms.write_learning(paths.learnings_dir(), "Docker layer cache", "proj", NOW - 50,
                      learning="Copy requirements.txt and install before copying the source.", scope="project",
                      project_folder=key, via="hand")
    context, _ = _start(root)
    assert PASSWORD not in context and "Docker layer cache" in context
    [h] = [h for h in _held(root).values() if h["kind"] == "learning" and h["state"] == state.HELD]
    assert "assignment" in h["reason"] and PASSWORD not in h["reason"]
    assert PASSWORD not in "".join(_reason_lines(invoke("memory", "held", "--project", root).out))


@pytest.mark.parametrize("title, body", [
    ("Staging database login password=", f"{PASSWORD} until the vault is set up; rotate monthly."),
    ("Staging database login", f"password=\n\n{PASSWORD} until the vault is set up; rotate monthly."),
], ids=["title-then-body", "across-lines"])
def test_a_password_split_between_a_learnings_title_and_its_body_is_held(tmp_path, title, body):
    """The file's body starts with its ``## Learning`` heading, so the text the check reads held the
    heading (and blank lines) between the key and its value, and the redactor saw no assignment."""
    root = ms.make_project(tmp_path, "proj")
    key = os.path.basename(paths.memory_dir(root))
    ms.write_learning(paths.learnings_dir(), title, "proj", NOW - 60, learning=body, scope="project",
                      project_folder=key, via="hand")
    context, _ = _start(root)
    assert PASSWORD not in context
    [h] = [h for h in _held(root).values() if h["kind"] == "learning" and h["state"] == state.HELD]
    assert "assignment" in h["reason"] and PASSWORD not in h["reason"]


def test_the_headings_the_secret_check_reads_past_are_those_a_learning_is_written_with():
    from lazy_harness.memory import learnings

    assert learnings.LEARNING_HEAD.strip() == trust.LEARNING_HEADING
    assert learnings.CONTEXT_HEAD.strip() == trust.CONTEXT_HEADING
