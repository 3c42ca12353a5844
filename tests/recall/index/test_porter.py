"""The index's words are those SQLite's ``porter unicode61 remove_diacritics 2`` tokenizer made (ADR 0049):
Porter's stems of folded words, compared with SQLite's own on every distinct word of this repository."""

import glob
import os
import re
import sqlite3

from lazy_harness.recall.index import porter

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def sqlite_terms(words: list[str]) -> list[list[str]]:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61 remove_diacritics 2')")
    conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)")
    conn.executemany("INSERT INTO t(rowid, x) VALUES (?, ?)", list(enumerate(words)))
    out: list[list[str]] = [[] for _ in words]
    for term, doc in conn.execute("SELECT term, doc FROM v ORDER BY doc, offset"):
        out[doc].append(term)
    return out


def test_stems_are_sqlites_on_every_word_of_the_repository():
    words: set[str] = set()
    for pattern in ("src/**/*.py", "tests/**/*.py", "docs/**/*.md", "benchmarks/*.py"):
        for path in glob.glob(os.path.join(ROOT, pattern), recursive=True):
            with open(path, encoding="utf-8", errors="replace") as fh:
                words |= {w.lower() for w in re.findall(r"[^\W_]+", fh.read())}
    words |= {"caresses", "ponies", "ties", "ies", "sses", "agreed", "feed", "hopping", "filing", "sky",
              "generalizations", "oscillators", "3ds", "x86s", "größe", "naïve", "résumés", "x₂₂ing"}
    ordered = sorted(w for w in words if re.fullmatch(r"[a-z0-9]+|[^\W_]*[^\x00-\x7f][^\W_]*", w))
    want = sqlite_terms(ordered)
    wrong = [(w, t, porter.key(w)) for w, t in zip(ordered, want, strict=True) if t != [porter.key(w)]]
    assert len(ordered) > 5000
    # SQLite folds a few letters outside Latin (the Turkish dotted I, the micro sign) that ``fold`` leaves
    assert len(wrong) <= 5, wrong[:20]
    assert porter.key("readers") == "reader" and porter.key("deployments") == "deploy"
    assert porter.key("deploying") == "deploi"  # Porter's y after a vowel: the prefix "deplo*" finds both


def test_a_stem_is_kept_once_per_word_and_the_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(porter, "_CACHE", {})
    monkeypatch.setattr(porter, "CACHED", 3)
    for w in ("connections", "connected", "connecting", "connection", "connects"):
        assert porter.stem(w) == "connect"
    assert len(porter._CACHE) == 3
