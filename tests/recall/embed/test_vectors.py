"""The prompt's similarity to kept vectors (``vectors.similarities``): the cosine of signed-byte
vectors, the better of an entry's texts, entries not wholly embedded left out."""

from __future__ import annotations

import math
import random
import sqlite3

import pytest

from lazy_harness.recall.embed import vectors

DIMS = 256


def signed(v: bytes) -> list[int]:
    return [b - 256 if b > 127 else b for b in v]


def cosine(a: bytes, b: bytes) -> float:
    """The textbook cosine, in floats, of two vectors of signed bytes."""
    x, y = signed(a), signed(b)
    return math.fsum(p * q for p, q in zip(x, y, strict=True)) / (math.sqrt(math.fsum(p * p for p in x))
                                                      * math.sqrt(math.fsum(q * q for q in y)))


def index(texts: dict[int, list[bytes | None]]) -> sqlite3.Connection:
    """An index's two vector tables holding ``texts``: rowid -> its texts' vectors (None: not embedded)."""
    conn = sqlite3.connect(":memory:")
    for stmt in vectors.SCHEMA:
        conn.execute(stmt)
    for rowid, vecs in texts.items():
        for n, v in enumerate(vecs):
            key = f"text-{rowid}-{n}"
            conn.execute("INSERT INTO key VALUES (?,?,?)", (rowid, n, key))
            if v is not None:
                conn.execute("INSERT INTO vec VALUES (?,?,?,?)", (key, "m1", v, vectors.norm(v)))
    return conn


EXTREMES = [bytes([0x80] * DIMS), bytes([0x7F] * DIMS), bytes([0x7F, 0x80] * (DIMS // 2)),
            bytes([0x01] + [0x00] * (DIMS - 1)), bytes([0xFF] * DIMS)]


@pytest.mark.parametrize("prompt", EXTREMES[:3] + [bytes(random.Random(3).randrange(256) for _ in range(DIMS))])
def test_cosines_are_the_textbook_ones_at_the_extremes_of_a_byte(prompt):
    rng = random.Random(11)
    many = [bytes(rng.randrange(256) for _ in range(DIMS)) for _ in range(200)] + EXTREMES
    got = vectors.similarities(index({i: [v] for i, v in enumerate(many)}), prompt, list(range(len(many))), "m1")
    assert sorted(got) == list(range(len(many)))
    for i, v in enumerate(many):
        assert got[i] == pytest.approx(cosine(prompt, v), abs=1e-12), i


def test_an_entry_gets_the_better_of_its_texts_and_one_not_wholly_embedded_is_left_out():
    rng = random.Random(5)
    prompt = bytes(rng.randrange(256) for _ in range(DIMS))
    near, far = bytes(b ^ 1 for b in prompt), bytes(b ^ 0x80 for b in prompt)
    conn = index({1: [far, near], 2: [far], 3: [near, None], 4: [far]})
    got = vectors.similarities(conn, prompt, [1, 2, 3], "m1")
    assert set(got) == {1, 2}  # 3 lacks a vector; 4 was not asked for
    assert got[1] == pytest.approx(cosine(prompt, near), abs=1e-12) and got[1] > 0.99
    assert got[2] == pytest.approx(cosine(prompt, far), abs=1e-12) and got[2] < got[1]


def test_another_models_vectors_do_not_count():
    prompt = EXTREMES[1]
    assert vectors.similarities(index({1: [EXTREMES[1]]}), prompt, [1], "m2") == {}


def test_kept_vectors_give_the_same_cosines_and_a_late_vector_is_found(monkeypatch):
    """``keep_vectors`` (the resident answerer): what it keeps answers as the tables do; an entry
    still waiting for a vector is not kept as lacking one; another model's search starts over."""
    rng = random.Random(8)
    prompt = bytes(rng.randrange(256) for _ in range(DIMS))
    texts = {i: [bytes(rng.randrange(256) for _ in range(DIMS)) for _ in range(3)] for i in range(1, 40)}
    texts[40] = [texts[1][0], None]
    conn = index(texts)
    fresh = vectors.similarities(conn, prompt, list(texts), "m1")
    try:
        vectors.keep_vectors(20)  # fewer than asked: the bound is reached and kept anew
        assert vectors.similarities(conn, prompt, list(texts), "m1") == fresh
        assert vectors.similarities(conn, prompt, list(texts), "m1") == fresh  # from what was kept
        assert 40 not in fresh
        conn.execute("INSERT INTO vec VALUES (?,?,?,?)", ("text-40-1", "m1", texts[1][1], vectors.norm(texts[1][1])))
        assert vectors.similarities(conn, prompt, [40], "m1") == {40: max(fresh[1], vectors.similarities(
            index({1: [texts[1][1]]}), prompt, [1], "m1")[1])}
        conn.execute("UPDATE vec SET model = 'm2', v = ?, n = 0", (bytes(DIMS),))  # another model, other vectors
        assert vectors.similarities(conn, prompt, list(texts), "m2") == dict.fromkeys(texts, 0.0)
    finally:
        vectors.keep_vectors(0)


def test_vectors_read_ahead_answer_in_place_of_the_tables_until_another_model_is_asked_for():
    """``warm`` (the resident answerer between questions): the vectors of the entries it is given,
    kept; a search finds them without reading the tables, and another model's search starts over."""
    rng = random.Random(12)
    prompt = bytes(rng.randrange(256) for _ in range(DIMS))
    texts = {i: [bytes(rng.randrange(256) for _ in range(DIMS)) for _ in range(1 + i % 4)] for i in range(1, 30)}
    texts[30] = [texts[1][0], None]
    conn = index(texts)
    fresh = vectors.similarities(conn, prompt, list(texts), "m1")
    try:
        vectors.keep_vectors(5)
        assert vectors.warm(conn, list(texts), "m1") == 29
        assert sorted(vectors._VECS.ahead) == list(range(1, 30))  # 30 waits for a vector: not kept as lacking one
        conn.execute("DELETE FROM vec")
        assert vectors.similarities(conn, prompt, list(texts), "m1") == fresh
        assert 30 not in fresh
        assert vectors.similarities(conn, prompt, list(texts), "m2") == {}
        assert vectors._VECS.ahead == {}
    finally:
        vectors.keep_vectors(0)


def test_vectors_of_another_size_leave_their_entry_to_the_words():
    """A hand-made row of another size (an entry's texts of two sizes, or all of a size not the
    prompt's) leaves the entry out, as one not embedded, instead of failing the search."""
    rng = random.Random(13)
    prompt = bytes(rng.randrange(256) for _ in range(DIMS))
    good = bytes(rng.randrange(256) for _ in range(DIMS))
    conn = index({1: [good], 2: [good, good + b"\x01"], 3: [good[:-8], good[:-8]]})
    for kept in (0, 10):
        vectors.keep_vectors(kept)
        try:
            got = vectors.similarities(conn, prompt, [1, 2, 3], "m1")
        finally:
            vectors.keep_vectors(0)
        assert got == {1: pytest.approx(cosine(prompt, good), abs=1e-12)}


def test_a_vector_kept_without_its_length_scores_zero_and_raises_nothing():
    conn = index({1: [EXTREMES[1]], 2: [EXTREMES[2]]})
    conn.execute("UPDATE vec SET n = NULL WHERE key = 'text-1-0'")
    got = vectors.similarities(conn, EXTREMES[1], [1, 2], "m1")
    assert got[1] == 0.0 and got[2] == pytest.approx(cosine(EXTREMES[1], EXTREMES[2]), abs=1e-12)
