"""From a prompt to terms: identifiers cut into words, related words, the bar's view of a prompt."""

import os
import time

from lazy_harness import paths
from lazy_harness.memory import files
from lazy_harness.recall import index, select, terms
from tests.support import memory_samples as ms

SETTINGS = {"min_terms": 2, "min_coverage": 30}


def test_identifiers_are_cut_into_their_words():
    assert terms.words("on_commit PaymentIntents src/app.py HTTPServer") == [
        "on", "commit", "payment", "intents", "src", "app", "py", "httpserver"]
    assert terms.split_identifiers("use PaymentIntents, not charges_api or HTTP") == "payment intents"


def test_related_words_find_each_other_both_ways():
    assert "database" in terms.related("postgres") and "postgres" in terms.related("database")
    assert "deployment" in terms.related("rollout")
    assert "photo" in terms.related("pictures")  # looked up by the word's stem too


def test_a_hyphenated_related_word_is_a_phrase_not_two_loose_words():
    query = terms.group_query("login")
    assert '"sign-in"' in query and '"in"' not in query


def test_request_words_are_not_terms():
    assert terms.informative("please summarize and translate the checkout webhook") == ["checkout", "webhook"]


def _index_with(tmp_path, summaries):
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    now = time.time()
    ms.write_jsonl(os.path.join(mem, files.DECISIONS),
                   [ms.decision(now + i, s, "because", project="proj") for i, s in enumerate(summaries)])
    conn = index.connect(paths.recall_index_file())
    index.refresh(conn, [mem], None)
    return conn, *index.scope_sql([mem], "proj")


def test_a_camel_case_identifier_in_an_entry_is_found_by_its_words(tmp_path):
    conn, where, args = _index_with(tmp_path, ["Charge cards through PaymentIntents", "Cache the sitemap"])
    ranked, _ = select.rank(conn, "how do we create a payment intent", where, args, SETTINGS)
    assert ranked and ranked[0]["title"] == "Charge cards through PaymentIntents"


def test_a_paraphrase_passes_through_related_words(tmp_path):
    conn, where, args = _index_with(tmp_path, ["Deployments take a Postgres advisory lock",
                                               "Cache the sitemap for five minutes"] + [f"filler {i}" for i in range(20)])
    ranked, _ = select.rank(conn, "the rollout keeps running twice, lock it in the database", where, args, SETTINGS)
    passed = [c["title"] for c in ranked if c["passes"]]
    assert passed == ["Deployments take a Postgres advisory lock"]


def test_a_prompt_about_things_memory_never_mentions_gets_nothing(tmp_path):
    conn, where, args = _index_with(tmp_path, ["Deployments take a Postgres advisory lock"] +
                                    [f"filler {i}" for i in range(20)])
    ranked, _ = select.rank(conn, "write a limerick about the cat, with a lock rhyme and a moral", where, args, SETTINGS)
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
    conn = index.connect(paths.recall_index_file())
    index.refresh(conn, [mem], ldir)
    where, args = index.scope_sql([mem], "proj")

    def passing(prompt):
        ranked, _ = select.rank(conn, prompt, where, args, SETTINGS, project="proj")
        return sorted(c["origin"] for c in ranked if c["passes"])

    assert passing("python list surprises me") == ["proj"]
    assert passing("python default list keeps growing between calls") == ["elsewhere", "proj"]
    ranked, _ = select.rank(conn, "python list surprises me", where, args, SETTINGS)  # no project: no difference
    assert sorted(c["origin"] for c in ranked if c["passes"]) == ["elsewhere", "proj"]
