"""A memory that looks like a user's, for benchmarks/: words drawn from real technical text.

The vocabulary is the docstrings of the Python standard library of the interpreter that runs this
(present on every machine, real technical prose), counted word by word; every entry's words are
drawn from that count (a Zipf distribution: a few words are in most entries, most words in few), so
a prompt's words occur in hundreds or thousands of entries, as they do in a real memory. A memory
whose entries share no words with the prompt makes every search look cheap.

Entries come as a user's do, 10:5:3 decisions:failures:learnings, each with tags and three cues as
the distill prompt asks; learnings come from three projects, some general; 50 open handoff items
(or as many as asked). Deterministic for a given seed and interpreter.
"""

import ast
import os
import random
import re
import sysconfig
from collections import Counter

from lazy_harness import paths
from lazy_harness.memory import files
from tests.support import memory_samples as ms

# stdlib packages and modules whose docstrings make the vocabulary: networking, storage, processes,
# text, testing, tooling: what a developer's memory talks about
SOURCES = ("asyncio", "concurrent", "email", "http", "json", "logging", "multiprocessing", "sqlite3",
           "unittest", "urllib", "xml", "importlib", "argparse", "subprocess.py", "shutil.py", "tarfile.py",
           "zipfile.py", "ssl.py", "socket.py", "threading.py", "pathlib.py", "typing.py", "tempfile.py",
           "smtplib.py", "ftplib.py", "imaplib.py", "configparser.py", "csv.py", "datetime.py",
           "selectors.py", "socketserver.py", "queue.py", "sched.py", "pdb.py", "doctest.py", "inspect.py",
           "dataclasses.py", "enum.py", "functools.py", "contextlib.py", "pickle.py", "shelve.py",
           "gzip.py", "lzma.py", "bz2.py", "hashlib.py", "hmac.py", "secrets.py", "uuid.py", "base64.py")
WORD = re.compile(r"[a-z][a-z]{2,}")
# a prompt as a developer types it: its words are common in technical text, so each reaches many entries
PROMPTS = (
    "why does the connection pool time out when the worker thread reads from the socket",
    "the request handler returns an empty response after the server restarts, where do we set the header",
    "can we cache the parsed configuration file so each process does not read it again",
)
RELEVANT = ("Bound the connection pool and time out reads on the worker socket",
            "worker threads blocked forever on a socket read when the pool ran dry",
            ["why does the pool time out on the socket", "worker thread stuck reading from the connection",
             "how long do we wait for a socket read"])


def vocabulary() -> tuple[list[str], list[int]]:
    """(words, cumulative counts) of the standard library's docstrings, most frequent first."""
    root = sysconfig.get_paths()["stdlib"]
    counts: Counter = Counter()
    for name in SOURCES:
        base = os.path.join(root, name)
        found = [base] if name.endswith(".py") else sorted(
            os.path.join(d, f) for d, _, fs in os.walk(base) for f in fs if f.endswith(".py") and "test" not in d)
        for path in found:
            try:
                with open(path, encoding="utf-8") as fh:
                    tree = ast.parse(fh.read())
            except (OSError, SyntaxError, UnicodeDecodeError):
                continue
            for node in ast.walk(tree):
                if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                    doc = ast.get_docstring(node)
                    if doc:
                        counts.update(WORD.findall(doc.lower()))
    words = [w for w, _ in counts.most_common()]
    cum, total = [], 0
    for w in words:
        total += counts[w]
        cum.append(total)
    return words, cum


class Writer:
    """Draws words and sentences from the vocabulary."""

    def __init__(self, seed: int = 7):
        self.words, self.cum = vocabulary()
        self.rng = random.Random(seed)
        mid = self.words[40:3000]  # tags: words with meaning, neither "the" nor one-offs
        self.tag_words = mid

    def text(self, lo: int, hi: int) -> str:
        n = self.rng.randint(lo, hi)
        return " ".join(self.rng.choices(self.words, cum_weights=self.cum, k=n))

    def sentence(self, lo: int, hi: int) -> str:
        t = self.text(lo, hi)
        return t[:1].upper() + t[1:]

    def tags(self, n: int = 3) -> list[str]:
        return self.rng.sample(self.tag_words, n)

    def cues(self) -> list[str]:
        return [self.text(5, 10) for _ in range(3)]


def build(project_dir: str, env, now: float, entries: int = 18_000, name: str = "big-project",
          handoff_items: int = 50, seed: int = 7) -> dict:
    """``entries`` entries, 10:5:3 decisions:failures:learnings, spread over a year before ``now``,
    plus ``handoff_items`` open items and one decision about ``PROMPTS[0]`` (``RELEVANT``)."""
    w = Writer(seed)
    n_dec, n_fail = entries * 10 // 18, entries * 5 // 18
    n_learn = entries - n_dec - n_fail
    mem = paths.memory_dir(project_dir, env)
    span = 365 * ms.DAY
    decisions = [ms.decision(now - span + span * i / n_dec, w.sentence(7, 14), w.sentence(15, 30), project=name,
                             context=w.sentence(12, 28), alternatives=[w.text(4, 8), w.text(4, 8)],
                             tags=w.tags(), cues=w.cues())
                 for i in range(n_dec)]
    summary, why, cues = RELEVANT
    decisions.append(ms.decision(now - 60, summary, why, project=name, tags=["pool", "socket", "timeout"], cues=cues))
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), decisions)
    ms.write_jsonl(os.path.join(mem, files.FAILURES), [
        ms.failure(now - span + span * i / n_fail, w.sentence(7, 14), w.sentence(12, 24), project=name,
                   root_cause=w.sentence(12, 24), resolution=w.sentence(10, 20), tags=w.tags(), cues=w.cues())
        for i in range(n_fail)])
    ldir = paths.learnings_dir(None, env)
    origins = (name, "other-project", "third-project")
    for i in range(n_learn):
        ms.write_learning(ldir, w.sentence(6, 12), origins[i % 3], now - span + span * i / n_learn,
                          learning=w.sentence(25, 60), context=w.sentence(10, 25), slug=f"learning-{i}",
                          fast=True, tags=w.tags(), cues=w.cues(), scope="general" if i % 2 else "project")
    ms.write_handoff(mem, [w.sentence(6, 14) for _ in range(handoff_items)], "sess-large", now - 3600, project=name)
    return {"memory_dir": mem, "learnings_dir": ldir, "relevant": summary, "decisions": n_dec + 1,
            "failures": n_fail, "learnings": n_learn}
