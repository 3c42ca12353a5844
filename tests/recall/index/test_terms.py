"""From a prompt to terms: identifiers cut into words, related words, the bar's view of a prompt."""

import os
import time

import pytest

from lazy_harness import config, paths
from lazy_harness.memory import files
from lazy_harness.recall.index import lookup, store, terms
from lazy_harness.recall.prompt import rank
from tests.support import memory_samples as ms

SETTINGS = {"min_terms": 2, "min_coverage": 30}  # the coverage bar alone (no min_score)
DEFAULTS = {k: v[1] for k, v in config.SCHEMA["recall"].items()}  # the bar as shipped


def test_identifiers_are_cut_into_their_words():
    assert terms.words("on_commit PaymentIntents src/app.py HTTPServer") == [
        "on", "commit", "payment", "intents", "src", "app", "py", "httpserver"]
    assert terms.split_identifiers("use PaymentIntents, not charges_api or HTTP") == "payment intents"


def test_related_words_find_each_other_both_ways():
    assert "database" in terms.related("postgres") and "postgres" in terms.related("database")
    assert "deployment" in terms.related("rollout")
    assert "photo" in terms.related("pictures")  # looked up by the word's stem too


def test_a_hyphenated_related_word_is_a_phrase_not_two_loose_words():
    alternatives = terms.group_alternatives("login")
    assert "sign-in" in alternatives and "in" not in alternatives


def test_request_words_are_not_terms():
    assert terms.informative("please summarize and translate the checkout webhook") == ["checkout", "webhook"]


def rank_all(conn, prompt, where, args, settings, **kw):
    """``rank.rank`` over every memory folder of the index (``where`` keeps the project's)."""
    scopes = [s for (s,) in conn.execute("SELECT scope FROM lex_scope")]
    return rank.rank(conn, prompt, where, args, settings, scopes=scopes, **kw)


def _index_with(tmp_path, summaries, index_file=None):
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    now = time.time()
    ms.write_jsonl(os.path.join(mem, files.DECISIONS),
                   [ms.decision(now + i, s, "because", project="proj") for i, s in enumerate(summaries)])
    conn = store.connect(index_file or paths.recall_index_file())
    store.refresh_within(conn, [mem], None)
    return conn, *lookup.scope_sql([mem], "proj")


def test_a_camel_case_identifier_in_an_entry_is_found_by_its_words(tmp_path):
    conn, where, args = _index_with(tmp_path, ["Charge cards through PaymentIntents", "Cache the sitemap"])
    ranked, _ = rank_all(conn, "how do we create a payment intent", where, args, SETTINGS)
    assert ranked and ranked[0]["title"] == "Charge cards through PaymentIntents"


def test_a_paraphrase_passes_through_related_words(tmp_path):
    conn, where, args = _index_with(tmp_path, ["Deployments take a Postgres advisory lock",
                                               "Cache the sitemap for five minutes",
                                               *[f"filler {i}" for i in range(20)]])
    ranked, _ = rank_all(conn, "the rollout keeps running twice, lock it in the database", where, args, SETTINGS)
    passed = [c["title"] for c in ranked if c["passes"]]
    assert passed == ["Deployments take a Postgres advisory lock"]


def test_a_prompt_about_things_memory_never_mentions_gets_nothing(tmp_path):
    conn, where, args = _index_with(tmp_path, ["Deployments take a Postgres advisory lock"] +
                                    [f"filler {i}" for i in range(20)])
    ranked, _ = rank_all(conn, "write a limerick about the cat, with a lock rhyme and a moral", where, args,
                            SETTINGS)
    assert not [c for c in ranked if c["passes"]]


def test_a_general_learning_from_another_project_must_match_one_word_more(tmp_path):
    """The same text as the project's own learning passes on two words; written in another project
    (and shared because it is general), it needs a third."""
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    now = time.time()
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(now + i, f"filler {i}", "because", project="proj")
                                                       for i in range(20)])
    ldir = paths.learnings_dir()
    text = "Mutable default arguments in Python keep their list between calls"
    ms.write_learning(ldir, text, "proj", now, learning="Use None and build the list inside.", slug="own")
    ms.write_learning(ldir, text + ".", "elsewhere", now, learning="Use None and build the list inside.",
                      slug="theirs", scope="general")
    conn = store.connect(paths.recall_index_file())
    store.refresh_within(conn, [mem], ldir)
    where, args = lookup.scope_sql([mem], "proj")

    def passing(prompt):
        ranked, _ = rank_all(conn, prompt, where, args, SETTINGS, project="proj")
        return sorted(c["origin"] for c in ranked if c["passes"])

    assert passing("python list surprises me") == ["proj"]
    assert passing("python default list keeps growing between calls") == ["elsewhere", "proj"]
    ranked, _ = rank_all(conn, "python list surprises me", where, args, SETTINGS)  # no project: no difference
    assert sorted(c["origin"] for c in ranked if c["passes"]) == ["elsewhere", "proj"]


def test_the_same_words_weigh_more_in_a_short_entry_than_lost_in_a_long_one(tmp_path):
    """Both entries hold the prompt's two words, so their coverage is the same; BM25 tells the short
    entry, about them, from the long one that mentions them in passing, and the bar keeps only it."""
    long_one = ("Release notes list every change: the scheduler page, the postgres upgrade, " +
                " ".join(f"item{i} changed" for i in range(120)))
    conn, where, args = _index_with(tmp_path, ["Postgres locks the scheduler", long_one] +
                                    [f"filler {i}" for i in range(20)])
    ranked, _ = rank_all(conn, "why does the scheduler need postgres", where, args, DEFAULTS)
    short, long_ = (next(c for c in ranked if c["title"].startswith(p)) for p in ("Postgres locks", "Release notes"))
    assert short["coverage"] == long_["coverage"]
    assert short["strength"] > 2 * long_["strength"]
    assert short["passes"] and not long_["passes"]


def test_a_match_keeps_its_strength_when_the_index_grows_tenfold(tmp_path):
    """BM25 gives a word one entry holds more weight in a bigger index; the strength is measured in
    that weight, so the bar means the same for a new memory and an old one."""
    def measured(folder, fillers):
        conn, where, args = _index_with(tmp_path / folder, ["Postgres advisory locks for the scheduler"] +
                                        [f"filler number {i} about nothing" for i in range(fillers)],
                                        str(tmp_path / folder / "index.sqlite"))
        ranked, _ = rank_all(conn, "scheduler ran twice, lock it in postgres", where, args, DEFAULTS)
        conn.close()
        return ranked[0]

    small, big = measured("small", 20), measured("big", 200)
    assert big["bm25"] < 1.5 * small["bm25"]  # raw BM25 (negative: lower is better) grew by half or more
    assert 0.9 < big["strength"] / small["strength"] < 1.1


def test_an_entry_written_without_cues_counts_uncued_times(tmp_path):
    """Decisions and learnings from before cues have one field fewer to match: their BM25 counts
    ``UNCUED`` times. Cues come from the JSONL line or the learning's frontmatter; handoff items
    never have cues and count once."""
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    now = time.time()
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [
        ms.decision(now, "Postgres advisory locks for the scheduler", "two runs at once"),
        ms.decision(now + 1, "Postgres advisory locks for the backup scheduler", "two runs at once",
                    cues=["nightly backup started two times"])] +
        [ms.decision(now + 2 + i, f"filler {i}", "because") for i in range(20)])
    ldir = paths.learnings_dir()
    ms.write_learning(ldir, "Postgres advisory locks are per session", "proj", now, slug="plain",
                      learning="The scheduler must hold one connection.")
    ms.write_learning(ldir, "Postgres advisory locks end with the session", "proj", now, slug="cued",
                      learning="The scheduler must hold one connection.", cues=["lock released too early"])
    conn = store.connect(paths.recall_index_file())
    store.refresh_within(conn, [mem], ldir)
    where, args = lookup.scope_sql([mem], "proj")
    ranked, _ = rank_all(conn, "scheduler postgres advisory locks", where, args, DEFAULTS, project="proj")
    per_bm25 = {c["title"]: c["strength"] / -c["bm25"] for c in ranked}
    cued = per_bm25["Postgres advisory locks for the backup scheduler"]
    assert per_bm25["Postgres advisory locks for the scheduler"] == pytest.approx(rank.UNCUED * cued)
    assert per_bm25["Postgres advisory locks are per session"] == pytest.approx(rank.UNCUED * cued)
    assert per_bm25["Postgres advisory locks end with the session"] == pytest.approx(cued)
