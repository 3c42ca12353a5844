"""A file name's extension in a prompt says the file's language, which a project has everywhere: it is
not a term of its own (the file's stem is), so "cart.py" does not find every entry about Python."""

import os
import time

from lazy_harness import config, paths
from lazy_harness.memory import files
from lazy_harness.recall.index import lookup, store, terms
from lazy_harness.recall.prompt import rank
from tests.support import memory_samples as ms

DEFAULTS = {k: v[1] for k, v in config.SCHEMA["recall"].items()}  # the bar as shipped


def test_a_file_names_extension_is_not_a_term_its_stem_is():
    assert terms.informative("rename the variable total_amt to total_amount in cart.py") == [
        "variable", "total", "amt", "amount", "cart"]
    assert terms.informative("port main.go, app.ts and README.md; see src/infra/main.tf.") == [
        "port", "main", "app", "readme", "src", "infra"]
    assert terms.informative("the tests in Button.tsx and Main.java") == ["tests", "button", "main"]


def test_a_short_word_on_its_own_is_still_a_term():
    assert terms.informative("the js scripts and the db helpers") == ["js", "scripts", "db", "helpers"]
    # "py" is no group's word (it is mostly a file name's end in memory), so as short as it is, it goes
    assert terms.informative("the py scripts") == ["scripts"]
    assert terms.informative("which python version, and node.js or golang") == [
        "python", "version", "node", "golang"]
    assert terms.informative("the .env file and the db") == ["env", "db"]
    assert terms.informative("the app.db file is locked") == ["app", "db", "locked"]  # a database file


def test_a_dotted_name_that_goes_on_keeps_its_words():
    # a module path or an attribute is not a file name: only its last part could be an extension
    assert terms.informative("django.db.utils OperationalError in api.staging and self.cart") == [
        "django", "db", "utils", "operational", "error", "api", "staging", "self", "cart"]


def test_an_extension_does_not_bring_an_entry_about_the_language(tmp_path):
    root = ms.make_project(tmp_path, "shop")
    mem = paths.memory_dir(root)
    now = time.time()
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [
        ms.decision(now, "Money columns are NUMERIC(14,4) and Decimal in Python, replacing integer cents",
                    "floats lost cents in the amount totals", project="shop"),
        ms.decision(now + 1, "Serve product photos from the CDN", "the app server was slow", project="shop")])
    conn = store.connect(paths.recall_index_file())
    store.refresh_within(conn, [mem], None)
    where, args = lookup.scope_sql([mem], "shop")
    scopes = [s for (s,) in conn.execute("SELECT scope FROM lex_scope")]
    ranked, info = rank.rank(conn, "rename the variable total_amt to total_amount in cart.py", where, args,
                             DEFAULTS, scopes=scopes)
    assert "py" not in info["terms"]
    assert not any("py" in c["matched"] for c in ranked)


def test_python_in_a_prompt_does_not_find_an_entry_for_naming_a_py_file(tmp_path):
    # "py" in memory is mostly a file's extension (cart.py): every entry of a Python project names one
    root = ms.make_project(tmp_path, "shop")
    mem = paths.memory_dir(root)
    now = time.time()
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [
        ms.decision(now, "Cart totals are computed in cart.py, never in the template",
                    "the template rounded each line on its own", project="shop"),
        ms.decision(now + 1, "Python 3.12 is the oldest version the service supports",
                    "the type syntax of 3.12 is used everywhere", project="shop")])
    conn = store.connect(paths.recall_index_file())
    store.refresh_within(conn, [mem], None)
    where, args = lookup.scope_sql([mem], "shop")
    scopes = [s for (s,) in conn.execute("SELECT scope FROM lex_scope")]
    ranked, info = rank.rank(conn, "which python release do we need for the service", where, args,
                             DEFAULTS, scopes=scopes)
    assert "python" in info["terms"]
    by_python = [c["title"] for c in ranked if "python" in c["matched"]]
    assert by_python and all("Python 3.12" in t for t in by_python), by_python
