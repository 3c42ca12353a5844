"""docs/how quotes what the code prints: the recall example, the install message, the invalid-config
messages and where they are logged."""

import calendar
import json
import os
import re
from pathlib import Path

from lazy_harness import config, notice, paths
from lazy_harness.memory import provenance
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

DOCS = Path(__file__).resolve().parent.parent / "docs" / "how"
PROMPT = "why does checkout return 500 when the stripe webhook arrives first"


def doc(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def words(text: str) -> str:
    """The text with its line breaks and runs of spaces as one space (docs wrap their quotes)."""
    return " ".join(text.split())


def _shop_memory(home: str) -> str:
    """The memory of docs/how/recall.md's example; returns the project folder."""
    project = ms.make_project(home, "shop")
    mdir = paths.memory_dir(project)
    prov = {"project_folder": os.path.basename(mdir), "via": "session", "machine": provenance.here()[0],
            "author": "me"}
    t0 = calendar.timegm((2025, 3, 2, 10, 15, 0))
    ms.write_jsonl(os.path.join(mdir, "decisions.jsonl"), [ms.decision(
        t0 - 86400 * 20, "Create the order in the webhook handler only after the checkout transaction commits",
        "webhooks can arrive before the checkout request returns", project="shop",
        session_id="7bbc0a28-5d1e-4c2a-9f3e-2b6d8a1c4e90", tags=["webhook", "checkout"], **prov)])
    ms.write_jsonl(os.path.join(mdir, "failures.jsonl"), [ms.failure(
        t0, "Checkout returned 500 when the Stripe webhook arrived before the order existed",
        "Create the order with on_commit and let the webhook retry when the order is missing", project="shop",
        session_id="3f2a9c1b-0d4e-4b7a-8c6f-1e2d3c4b5a69", root_cause="the webhook handler looked up an order "
        "not committed yet", tags=["webhook", "checkout", "stripe"], **prov)])
    ms.write_learning(paths.learnings_dir(None), "Stripe sends webhook events out of order", "shop", t0 - 86400 * 19,
                      learning="Stripe does not guarantee the order of webhook events; a handler must accept an "
                      "event for an object it has not seen yet.", tags=["stripe", "webhook"],
                      origin_session="5e6f7a8b-1111-4222-8333-444455556666", **prov)
    return project


def test_the_recall_example_is_what_the_prompt_hook_adds(tmp_path, monkeypatch):
    project = _shop_memory(str(tmp_path))
    monkeypatch.chdir(project)
    # a running session shown nothing yet (a first prompt without --session follows SessionStart's
    # digest, which here shows all three): one Claude Code knows by its transcript alone
    sid = "0c8e1f52-7a3d-4b9e-9f10-3d2c4b5a6e7f"
    transcripts = os.path.join(paths.projects_dir(), "-home-me-shop")
    os.makedirs(transcripts)
    with open(os.path.join(transcripts, sid + ".jsonl"), "w", encoding="utf-8") as fh:
        fh.write(json.dumps({"type": "user", "sessionId": sid}) + "\n")
    ms.index_now()  # as the worker leaves it: show says so when it has to bring the index up to date
    r = invoke("memory", "show", "--prompt", PROMPT, "--session", sid)
    assert r.code == 0, r.err
    first, rest = r.out.split("\n", 1)  # the first line says whose prompt: that session's next
    assert f"next prompt of session {sid} gets: it was shown 0 entries" in first, first
    real = rest.split("\n\n")[0].strip()
    mdir, ldir = paths.memory_dir(project), os.path.dirname(paths.learnings_dir(None))
    real = real.replace(mdir, "/home/me/.local/share/lazy-harness/projects/-home-me-shop").replace(
        ldir, "/home/me/.local/share/lazy-harness/knowledge")
    example = re.search(r"```\n(.*?)\n```", doc("recall.md"), re.S)
    assert example is not None
    assert example.group(1) == real


def test_the_install_message_is_quoted_as_printed():
    for line in notice.next_steps(config.defaults()):
        assert line in doc("hooks.md")


def test_an_invalid_config_is_told_where_it_is_logged():
    debugging, configuration = words(doc("debugging.md")), words(doc("configuration.md"))
    for text in (debugging, configuration):
        assert "skipped: config invalid: lh config validate (<file>:<line>: ...); distillation paused, " \
               "session watched" in text
        assert "worker <pid>: paused, config.toml invalid: <file>:<line>: ...; tasks stay pending " \
               "(hint: lh config validate)" in text
    assert "compound loop: paused: config.toml is invalid, nothing is distilled until it is fixed " \
           "(lh config validate)" in debugging
    assert "`lh: <file>:<line>: ... (hint: lh config validate)`" in configuration
    assert "with the same message" not in configuration
    assert "for a worker that could not start (for example an invalid config.toml" not in debugging
