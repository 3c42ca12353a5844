"""``vectors.fill``: each text an entry is embedded from (its whole text, then its cues) gets the
model's vector once, under the text's hash, however many entries share it and however many parts
the work is cut into."""

from __future__ import annotations

import sqlite3

import pytest

from lazy_harness.memory import ids
from lazy_harness.recall.embed import static_model, vectors

ENTRIES = [
    {"title": "Checkout returns 500", "body": "the webhook came first", "tags": "stripe", "cues": "webhook\norder"},
    {"title": "Checkout returns 500", "body": "the webhook came first", "tags": "stripe", "cues": "order"},
    {"title": "Queue stuck", "body": None, "tags": "", "cues": ""},
    {"title": "Lone cue", "body": "b", "tags": "t", "cues": "\nwebhook\n"},
]


def index() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("CREATE TABLE entry(rowid INTEGER PRIMARY KEY, title TEXT, body TEXT, tags TEXT, cues TEXT)")
    for stmt in vectors.SCHEMA:
        conn.execute(stmt)
    for i, e in enumerate(ENTRIES, start=1):
        conn.execute("INSERT INTO entry VALUES (?,?,?,?,?)", (i, e["title"], e["body"], e["tags"], e["cues"]))
    conn.executemany("INSERT INTO key VALUES (?,?,?)", vectors.keys_rows(1, ENTRIES))
    return conn


@pytest.mark.parametrize("part", [1, 2, 500])
def test_fill_embeds_each_distinct_text_once_with_the_models_vector(tmp_path, part):
    conn = index()
    texts = {}
    for e in ENTRIES:
        for t in vectors.texts_of(e):
            texts[ids.text_digest(t)] = t
    assert len(texts) == 5  # two entries share their whole text, three share the cue "webhook" or "order"
    assert texts[ids.text_digest("Queue stuck\n\n")] == "Queue stuck\n\n"  # a missing body is an empty line
    assert vectors.fill(conn, str(tmp_path / "state"), part=part) == len(texts)
    model = static_model.load(state_dir=str(tmp_path / "state"))
    rows = conn.execute("SELECT key, model, v, n FROM vec").fetchall()
    assert sorted(r[0] for r in rows) == sorted(texts)
    for key, model_id, v, n in rows:
        assert (model_id, v) == (static_model.MODEL_ID, model.embed(texts[key]))
        assert n == vectors.norm(v) > 0
    assert vectors.fill(conn, str(tmp_path / "state"), part=part) == 0  # nothing left: nothing embedded again
