"""recall.prompt.context_for with the similarity bar (ADR 0020): the embedder's answer decides for the
candidates it scored, the strength bar for the others, and the strength bar alone when it does not
answer. The embedder is stood in for by ``embed_client.similarities``, answering by entry title."""

import os
import sqlite3
import time

import pytest

from lazy_harness import config, paths
from lazy_harness.memory import files, ids
from lazy_harness.recall import embed_client, index, select
from lazy_harness.recall import prompt as recall_prompt
from tests.support import memory_samples as ms

NOW = time.time()
PROMPT = "the deploy scheduler ran twice last night, can we lock it in postgres"
# over the strength bar: 4 and 2 of the prompt's groups
LOCKS = "Use Postgres advisory locks for the deployment scheduler"
TAGS = "Releases are tagged from main only"
# under it: one group each
CRON = "Cron entries live in the ops repository"
NIGHTLY = "Nightly reports are emailed at six"
# general learnings of another project: two groups each, under the strength bar
ROW_LOCKS = "Postgres row locks wait forever without lock_timeout"
SESSIONS = "Advisory locks in Postgres are per session"
# a general learning of another project matching one group only
BACKUPS = "Backups run twice a day"


@pytest.fixture
def root(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    ms.write_jsonl(os.path.join(paths.memory_dir(root), files.DECISIONS), [
        ms.decision(NOW, LOCKS, "two runners deployed at once"),
        ms.decision(NOW, CRON, "one place for every schedule"),
        ms.decision(NOW, NIGHTLY, "people read them at breakfast"),
        ms.decision(NOW, "Keep the stylesheet in one file", "simple"),
        ms.decision(NOW, TAGS, "deploy what was reviewed; the scheduler picks tags"),
    ])
    ldir = paths.learnings_dir()
    ms.write_learning(ldir, ROW_LOCKS, "elsewhere", NOW, slug="g1", scope="general", learning="set lock_timeout in postgres")
    ms.write_learning(ldir, SESSIONS, "elsewhere", NOW, slug="g2", scope="general",
                      learning="pgbouncer transaction pooling breaks them")
    ms.write_learning(ldir, BACKUPS, "elsewhere", NOW, slug="g3", scope="general", learning="keep two copies")
    return root


class Embedder:
    """Stands in for embed_client: ``send_prompt`` records the prompt (and answers "no embedder
    running" when ``sims`` is None and that is ``why``); ``ask`` records every candidate sent;
    ``answer`` gives ``sims`` (title -> similarity) for the rowids the caller wants, or None with
    ``why``. Every call is recorded."""

    def __init__(self, monkeypatch, sims: dict[str, float] | None, why: str = "no embedder running"):
        self.sims, self.why, self.calls, self.started, self.dropped = sims, why, [], [], []
        for name in ("send_prompt", "ask", "answer", "drop", "ensure_running"):
            monkeypatch.setattr(embed_client, name, getattr(self, name))

    def send_prompt(self, env, index_path, prompt, timeout):
        self.calls.append({"index": index_path, "prompt": prompt, "timeout": timeout, "sent": None, "asked": None})
        if self.sims is None and self.why == "no embedder running":
            return None, self.why
        return self.calls[-1], ""

    def drop(self, pending):
        self.dropped.append(pending)

    def _titles(self, pending, rowids):
        with sqlite3.connect(pending["index"]) as conn:  # the index the hook searched, as the embedder reads it
            return {r: conn.execute("SELECT title FROM entry WHERE rowid = ?", (r,)).fetchone()[0] for r in rowids}

    def ask(self, pending, rowids):
        assert pending is self.calls[-1] and pending["sent"] is None
        pending["sent"] = sorted(self._titles(pending, rowids).values())
        return ""

    def answer(self, pending, wanted, timeout):
        assert pending is self.calls[-1] and timeout == pending["timeout"] and pending["sent"] is not None
        titles = self._titles(pending, wanted)
        assert set(titles.values()) <= set(pending["sent"])
        pending["asked"] = sorted(titles.values())
        if self.sims is None:
            return None, self.why
        return {r: self.sims[t] for r, t in titles.items() if t in self.sims}, ""

    def ensure_running(self, env, now):
        self.started.append(now)
        return "spawned"


def settings(**recall) -> dict:
    cfg = config.defaults()
    cfg["recall"].update(recall)
    return cfg


def kept(info) -> list[str]:
    return [c["title"] for c in info["kept"]]


def test_the_similarity_bar_decides_for_the_candidates_the_embedder_scored(root, monkeypatch):
    fake = Embedder(monkeypatch, {LOCKS: 0.30, CRON: 0.62, NIGHTLY: 0.50, ROW_LOCKS: 0.45, SESSIONS: 0.20})
    text, info = recall_prompt.context_for(PROMPT, root, settings(), os.environ, now=NOW)
    # over the strength bar but under min_similarity: out; under it but over min_similarity: in, by
    # similarity; TAGS was not scored (not embedded yet) and keeps the strength bar, after them
    assert kept(info) == [CRON, NIGHTLY, ROW_LOCKS, TAGS]
    assert LOCKS not in text and SESSIONS not in text and BACKUPS not in text
    assert text.index(CRON) < text.index(NIGHTLY) < text.index(ROW_LOCKS) < text.index(TAGS)
    call, = fake.calls
    assert call["prompt"] == PROMPT and call["timeout"] == 0.08
    assert call["index"] == os.path.abspath(paths.recall_index_file())
    # the general learning of another project matching one group only is not even asked about
    assert call["asked"] == sorted([LOCKS, TAGS, CRON, NIGHTLY, ROW_LOCKS, SESSIONS])
    assert fake.started == []  # it answered: nothing to start
    sims = {c["title"]: c["similarity"] for c in info["ranked"]}
    assert sims[CRON] == 0.62 and sims[TAGS] is None and sims[BACKUPS] is None
    assert info["passed"] == 4
    line = recall_prompt.describe(info)
    assert " semantic=5/6 best_sim=0.62 " in line and "injected 4" in line


def test_without_an_answer_the_result_is_exactly_the_strength_bars_and_the_embedder_is_started(root, monkeypatch):
    fake = Embedder(monkeypatch, None)
    text, info = recall_prompt.context_for(PROMPT, root, settings(), os.environ, now=NOW)
    lexical, lexical_info = recall_prompt.context_for(PROMPT, root, settings(semantic=False), os.environ, now=NOW)
    assert text == lexical and kept(info) == kept(lexical_info) == [LOCKS, TAGS]
    assert [c["id"] for c in info["ranked"]] == [c["id"] for c in lexical_info["ranked"]]
    assert [c["passes"] for c in info["ranked"]] == [c["passes"] for c in lexical_info["ranked"]]
    assert len(fake.calls) == 1 and fake.started == [NOW]
    assert "semantic=none (no embedder running; embedder spawned)" in recall_prompt.describe(info)
    assert "semantic=off" in recall_prompt.describe(lexical_info)


def test_the_cli_look_does_not_start_the_embedder(root, monkeypatch):
    fake = Embedder(monkeypatch, None, why="embedder timed out after 80 ms")
    _, info = recall_prompt.context_for(PROMPT, root, settings(), os.environ)  # no clock: lh memory show
    assert len(fake.calls) == 1 and fake.started == []
    assert "semantic=none (embedder timed out after 80 ms)" in recall_prompt.describe(info)


def test_with_semantic_off_the_embedder_is_never_asked(root, monkeypatch):
    def never(*args, **kwargs):
        raise AssertionError("embed_client called with recall.semantic = false")

    for name in ("send_prompt", "ask", "answer", "similarities_for", "similarities", "ensure_running"):
        monkeypatch.setattr(embed_client, name, never)
    text, info = recall_prompt.context_for(PROMPT, root, settings(semantic=False), os.environ, now=NOW)
    assert kept(info) == [LOCKS, TAGS]


def test_a_candidate_without_a_similarity_keeps_the_strength_bar(root, monkeypatch):
    Embedder(monkeypatch, {})  # the embedder answered, but has embedded nothing yet
    _, info = recall_prompt.context_for(PROMPT, root, settings(), os.environ, now=NOW)
    assert kept(info) == [LOCKS, TAGS]  # what the strength bar lets in, in its order
    assert "semantic=0/6 " in recall_prompt.describe(info) and "best_sim" not in recall_prompt.describe(info)


def test_the_bar_is_min_similarity_from_the_config(root, monkeypatch):
    Embedder(monkeypatch, {LOCKS: 0.30, CRON: 0.62, NIGHTLY: 0.50, ROW_LOCKS: 0.45, SESSIONS: 0.20})
    _, info = recall_prompt.context_for(PROMPT, root, settings(min_similarity=0.5), os.environ, now=NOW)
    assert kept(info) == [CRON, NIGHTLY, TAGS]
    _, info = recall_prompt.context_for(PROMPT, root, settings(min_similarity=0.25), os.environ, now=NOW)
    assert kept(info)[:4] == [CRON, NIGHTLY, ROW_LOCKS, LOCKS]


def test_a_general_learning_of_another_project_needs_two_groups_under_the_similarity_bar(root, monkeypatch):
    # why: BACKUPS matches one of the prompt's groups; it is never asked about, and were a similarity
    # given for it, it would still not pass
    fake = Embedder(monkeypatch, {BACKUPS: 0.95, ROW_LOCKS: 0.45})
    _, info = recall_prompt.context_for(PROMPT, root, settings(), os.environ, now=NOW)
    assert BACKUPS not in fake.calls[0]["asked"] and ROW_LOCKS in kept(info) and BACKUPS not in kept(info)
    backups = next(c for c in info["ranked"] if c["title"] == BACKUPS)
    assert len(backups["matched"]) == 1
    learning = dict(backups, similarity=None)
    assert not select.by_similarity([learning], {backups["rowid"]: 0.95}, settings()["recall"], "proj")[0]["passes"]
    # in its own project one group is enough
    assert select.by_similarity([dict(backups)], {backups["rowid"]: 0.95}, settings()["recall"],
                                "elsewhere")[0]["passes"]


def test_an_entry_seen_by_the_session_is_not_repeated_under_the_similarity_bar(root, monkeypatch):
    Embedder(monkeypatch, {CRON: 0.62, NIGHTLY: 0.50})
    already = {ids.entry_id("decision", CRON)}
    _, info = recall_prompt.context_for(PROMPT, root, settings(max_items=2), os.environ, already, now=NOW)
    assert kept(info) == [NIGHTLY, LOCKS] and info["already"] == 1


def test_a_client_that_raises_after_all_leaves_the_strength_bar_to_decide(root, monkeypatch):
    def broken(*args):
        raise RuntimeError("socket module missing")

    fake = Embedder(monkeypatch, {})  # its ensure_running: a test must never start a real embedder
    for name in ("send_prompt", "ask", "answer"):
        monkeypatch.setattr(embed_client, name, broken)
    text, info = recall_prompt.context_for(PROMPT, root, settings(), os.environ, now=NOW)
    assert kept(info) == [LOCKS, TAGS] and fake.started == [NOW]
    assert "semantic=none (embedder client: RuntimeError: socket module missing" in recall_prompt.describe(info)


def test_without_a_candidate_worth_scoring_the_sent_prompt_is_dropped_unasked(root, monkeypatch):
    fake = Embedder(monkeypatch, {LOCKS: 0.9})
    _, info = recall_prompt.context_for("how should the garden tomatoes be watered in august", root, settings(),
                                        os.environ, now=NOW)
    call, = fake.calls
    assert fake.dropped == [call] and call["sent"] is None  # sent, then closed without asking
    assert info["kept"] == [] and fake.started == []


def test_the_candidates_go_to_the_embedder_before_their_terms_are_weighed_and_meanwhile_runs_before_the_answer(
        root, monkeypatch):
    fake = Embedder(monkeypatch, {CRON: 0.62})
    order = []
    real_count = index.count_and_match
    monkeypatch.setattr(index, "count_and_match", lambda *a: order.append("weigh") or real_count(*a))
    real_ask, real_answer = fake.ask, fake.answer
    monkeypatch.setattr(embed_client, "ask", lambda *a: order.append("ask") or real_ask(*a))
    monkeypatch.setattr(embed_client, "answer", lambda *a: order.append("answer") or real_answer(*a))
    _, info = recall_prompt.context_for(PROMPT, root, settings(), os.environ, now=NOW,
                                        meanwhile=lambda: order.append("meanwhile"))
    assert order[0] == "ask" and order.count("ask") == 1 and "weigh" in order
    assert order[-2:] == ["meanwhile", "answer"] and order.count("meanwhile") == 1
    assert kept(info)[0] == CRON


@pytest.mark.parametrize("semantic", [True, False])
def test_meanwhile_runs_once_whether_or_not_the_embedder_is_asked(root, monkeypatch, semantic):
    Embedder(monkeypatch, None)  # no embedder: nothing sent, nothing asked
    ran = []
    recall_prompt.context_for(PROMPT, root, settings(semantic=semantic), os.environ, now=NOW,
                              meanwhile=lambda: ran.append(1))
    assert ran == [1]
