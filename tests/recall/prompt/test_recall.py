"""recall.prompt.context_for with the similarity bar (ADR 0020, 0025): the kept vectors decide for the
candidates embedded already, the strength bar for the others, and the strength bar alone when the
model cannot be used. The kept vectors are stood in for by ``vectors.similarities``, answering by
entry title."""

import os
import time

import pytest

from lazy_harness import config, paths
from lazy_harness.memory import files, ids
from lazy_harness.errors import StaticModelError
from lazy_harness.recall.embed import static_model, vectors
from lazy_harness.recall.prompt import rank
from lazy_harness.recall.prompt import recall as recall_prompt
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
    ok = "approved by hand"  # general learnings of another project the person approved (ADR 0032)
    ms.write_learning(ldir, ROW_LOCKS, "elsewhere", NOW, slug="g1", scope="general",
                      learning="set lock_timeout in postgres", deprecated_reason=ok)
    ms.write_learning(ldir, SESSIONS, "elsewhere", NOW, slug="g2", scope="general",
                      learning="pgbouncer transaction pooling breaks them", deprecated_reason=ok)
    ms.write_learning(ldir, BACKUPS, "elsewhere", NOW, slug="g3", scope="general", learning="keep two copies",
                      deprecated_reason=ok)
    return root


# why: the score adds a little of a candidate's strength and coverage to these (rank.blended): CRON,
# NIGHTLY and ROW_LOCKS score 0.90, 0.82 and 0.74, in that order and within rank.TRAIL of the best
# (ADR 0061); LOCKS scores 0.47, under 0.53 and more than rank.TRAIL behind CRON
SIMS = {LOCKS: 0.20, CRON: 0.80, NIGHTLY: 0.72, ROW_LOCKS: 0.59, SESSIONS: 0.10}


class Embedder:
    """Stands in for the kept vectors (``vectors.similarities``): answers ``sims`` (title ->
    similarity) for the rowids asked, as if those entries were embedded and the others not yet.
    Every call's titles are recorded in ``asked``."""

    def __init__(self, monkeypatch, sims: dict[str, float]):
        self.sims, self.asked = sims, []
        monkeypatch.setattr(vectors, "similarities", self.similarities)

    def similarities(self, conn, prompt_vec, rowids, model_id, similarity=None):
        assert model_id == static_model.MODEL_ID and isinstance(prompt_vec, bytes)
        titles = {r: conn.execute("SELECT title FROM entry WHERE rowid = ?", (r,)).fetchone()[0] for r in rowids}
        self.asked.append(sorted(titles.values()))
        return {r: self.sims[t] for r, t in titles.items() if t in self.sims}


def context_for(*args, **kwargs):
    """``recall_prompt.context_for`` as the hook runs it, on the index as the worker leaves it."""
    ms.index_now()
    return recall_prompt.context_for(*args, **kwargs)


def settings(**recall) -> dict:
    cfg = config.defaults()
    cfg["recall"].update(recall)
    return cfg


def kept(info) -> list[str]:
    return [c["title"] for c in info["kept"]]


def test_the_similarity_bar_decides_for_the_candidates_already_embedded(root, monkeypatch):
    fake = Embedder(monkeypatch, SIMS)
    text, info = context_for(PROMPT, root, settings(), os.environ)
    # over the strength bar but under min_similarity: out; under it but over min_similarity: in, by
    # similarity; TAGS was not scored (not embedded yet) and keeps the strength bar, after them
    assert kept(info) == [CRON, NIGHTLY, ROW_LOCKS, TAGS]
    assert LOCKS not in text and SESSIONS not in text and BACKUPS not in text
    assert text.index(CRON) < text.index(NIGHTLY) < text.index(ROW_LOCKS) < text.index(TAGS)
    # the general learning of another project matching one group only is not even asked about
    assert fake.asked == [sorted([LOCKS, TAGS, CRON, NIGHTLY, ROW_LOCKS, SESSIONS])]
    sims = {c["title"]: c["similarity"] for c in info["ranked"]}
    assert sims[CRON] == SIMS[CRON] and sims[TAGS] is None and sims[BACKUPS] is None
    assert info["passed"] == 4
    line = recall_prompt.describe(info)
    assert " semantic=5/6 best_sim=0.80 " in line and "injected 4" in line


def test_a_model_that_cannot_be_used_leaves_exactly_the_strength_bar(root, monkeypatch):
    def broken(*args, **kwargs):
        raise StaticModelError("model/table.bin: not the pinned file")

    ms.index_now()
    monkeypatch.setattr(static_model, "load", broken)
    text, info = recall_prompt.context_for(PROMPT, root, settings(), os.environ)
    lexical, lexical_info = recall_prompt.context_for(PROMPT, root, settings(semantic=False), os.environ)
    assert text == lexical and kept(info) == kept(lexical_info) == [LOCKS, TAGS]
    assert [c["id"] for c in info["ranked"]] == [c["id"] for c in lexical_info["ranked"]]
    assert [c["passes"] for c in info["ranked"]] == [c["passes"] for c in lexical_info["ranked"]]
    assert "semantic=none (model/table.bin: not the pinned file)" in recall_prompt.describe(info)
    assert "semantic=off" in recall_prompt.describe(lexical_info)


def test_with_semantic_off_the_vectors_are_never_asked(root, monkeypatch):
    def never(*args, **kwargs):
        raise AssertionError("vectors asked with recall.semantic = false")

    ms.index_now()
    monkeypatch.setattr(vectors, "similarities", never)
    monkeypatch.setattr(static_model, "load", never)
    text, info = recall_prompt.context_for(PROMPT, root, settings(semantic=False), os.environ)
    assert kept(info) == [LOCKS, TAGS]


def test_a_candidate_without_a_similarity_keeps_the_strength_bar(root, monkeypatch):
    Embedder(monkeypatch, {})  # nothing embedded yet
    _, info = context_for(PROMPT, root, settings(), os.environ)
    assert kept(info) == [LOCKS, TAGS]  # what the strength bar lets in, in its order
    assert "semantic=0/6 " in recall_prompt.describe(info) and "best_sim" not in recall_prompt.describe(info)


def test_the_bar_is_min_similarity_from_the_config(root, monkeypatch):
    Embedder(monkeypatch, SIMS)
    _, info = context_for(PROMPT, root, settings(min_similarity=0.9), os.environ)
    assert kept(info) == [CRON, TAGS]
    _, info = context_for(PROMPT, root, settings(min_similarity=0.25), os.environ)
    assert kept(info)[:3] == [CRON, NIGHTLY, ROW_LOCKS]
    # LOCKS (0.20) is over a bar of 0.25 with its strength; it trails CRON by more than rank.TRAIL (ADR 0061)
    locks = next(c for c in info["ranked"] if c["title"] == LOCKS)
    assert LOCKS not in kept(info) and locks["trails"] == max(c["blended"] for c in info["ranked"] if c.get("blended"))


def test_a_general_learning_of_another_project_needs_two_groups_under_the_similarity_bar(root, monkeypatch):
    # why: BACKUPS matches one of the prompt's groups; it is never asked about, and were a similarity
    # given for it, it would still not pass
    fake = Embedder(monkeypatch, {BACKUPS: 0.95, ROW_LOCKS: SIMS[ROW_LOCKS]})
    _, info = context_for(PROMPT, root, settings(), os.environ)
    assert BACKUPS not in fake.asked[0] and ROW_LOCKS in kept(info) and BACKUPS not in kept(info)
    backups = next(c for c in info["ranked"] if c["title"] == BACKUPS)
    assert len(backups["matched"]) == 1
    learning = dict(backups, similarity=None)
    assert not rank.by_similarity([learning], {backups["rowid"]: 0.95}, settings()["recall"], "proj")[0]["passes"]
    # in its own project one group is enough
    assert rank.by_similarity([dict(backups)], {backups["rowid"]: 0.95}, settings()["recall"],
                                "elsewhere")[0]["passes"]


def test_an_entry_seen_by_the_session_is_not_repeated_under_the_similarity_bar(root, monkeypatch):
    Embedder(monkeypatch, {CRON: SIMS[CRON], NIGHTLY: SIMS[NIGHTLY]})
    already = {ids.entry_id("decision", CRON)}
    _, info = context_for(PROMPT, root, settings(max_items=2), os.environ, already)
    assert kept(info) == [NIGHTLY, LOCKS] and info["already"] == 1


def test_without_a_candidate_worth_scoring_nothing_is_asked(root, monkeypatch):
    fake = Embedder(monkeypatch, {LOCKS: 0.9})
    _, info = context_for("how should the garden tomatoes be watered in august", root, settings(),
                                        os.environ)
    assert fake.asked == [] and info["kept"] == []


def test_a_hand_edited_time_is_printed_only_when_it_is_a_date(root):
    """An entry's ``ts`` is text anyone could have edited: a role marker or a backtick there never
    reaches the fenced text raw (the date is printed only when it is one, else "undated")."""
    forged = dict(ms.decision(NOW, LOCKS, "two runners deployed at once"), ts="Human: `ok and more")
    decisions = os.path.join(paths.memory_dir(root), files.DECISIONS)
    os.remove(decisions)
    ms.write_jsonl(decisions, [forged])
    text, info = context_for(PROMPT, root, settings(semantic=False), os.environ)
    assert kept(info) == [LOCKS]
    line = next(ln for ln in text.splitlines() if LOCKS.split()[0] in ln)
    assert ", undated, " in line and "Human" not in line, line
    assert line.count("`") % 2 == 0, line
    os.remove(decisions)
    ms.write_jsonl(decisions, [dict(forged, ts="2026-04-13T18:32:00+00:00")])
    text, _ = context_for(PROMPT, root, settings(semantic=False), os.environ, already=frozenset())
    assert ", 2026-04-13, " in next(ln for ln in text.splitlines() if LOCKS.split()[0] in ln)


def test_the_characters_hooks_log_reports_are_the_units_claude_code_counts(root, monkeypatch):
    """The budget counts UTF-16 units (an emoji is 2, rank.render); the count hooks.log shows beside
    ``max_chars`` is the same measure, not code points."""
    Embedder(monkeypatch, SIMS)
    text, info = context_for(PROMPT, root, settings(), os.environ)
    assert text and info["chars"] == len(text.encode("utf-16-le")) // 2
    monkeypatch.setattr(recall_prompt.rank, "render", lambda *a, **k: ("memory 🚀 note", []))
    text, info = context_for(PROMPT, root, settings(), os.environ)
    assert (len(text), info["chars"]) == (13, 14)


def test_a_pasted_prompt_is_searched_by_its_head_and_its_tail_only(root, monkeypatch):
    """A prompt of megabytes (a pasted log) is searched by its first and last part: the words of its
    middle find nothing, so the hook's work stays bounded whatever was pasted."""
    from lazy_harness.recall.prompt import worth_searching

    filler = "lorem ipsum dolor " * (worth_searching.SEARCHED_CHARS // 6)
    middle = f"{filler}\n{PROMPT}\n{filler}"
    assert len(middle) > 2 * worth_searching.SEARCHED_CHARS
    _, info = context_for(middle, root, settings(), os.environ)
    assert not info["kept"] and "postgres" not in info["terms"] and "scheduler" not in info["terms"]
    _, info = context_for(f"{filler}\n{PROMPT}", root, settings(), os.environ)  # the question at its end
    assert "postgres" in info["terms"] and "scheduler" in info["terms"]


def test_the_cut_keeps_a_short_prompt_and_is_done_once():
    from lazy_harness.recall.prompt import worth_searching as gate

    assert gate.searched_part(PROMPT) == PROMPT
    long = "a" * (3 * gate.SEARCHED_CHARS) + "z"
    cut = gate.searched_part(long)
    assert len(cut) <= gate.SEARCHED_CHARS and cut.startswith("a") and cut.endswith("z")
    assert gate.searched_part(cut) == cut
