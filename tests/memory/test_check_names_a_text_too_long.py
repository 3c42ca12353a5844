"""A decision appended by hand whose rationale is a pasted document (300 KB of prose), and a learning
file over the limit: the hold check holds each unread for its length (``trust.LONGEST``, ADR 0088), and
``lh memory check`` said all was fine (``0 line(s) skipped``, exit 0) while ``lh doctor`` said nothing.
Check names each by file (and line) and id, in ``trust.too_long``'s words, and exits 1, as for a skipped
line: a session is shown none of the entry until the person acts. One the person approved is not named,
nor one forgotten; ``lh doctor`` warns while check would name one.

The text is measured as the hold check measures it (``trust.text_of`` of the fields; a learning's title,
body, tags and cues), and as it folds it (NFKC makes one character many letters); the rules never run."""

import json
import os
import time
from pathlib import Path

import pytest

from lazy_harness import paths
from lazy_harness.memory import approval, files, ids, trust, trust_rules
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms
from tests.support.realistic_memory import Writer

NOW = time.time()
TOO_LONG_LINE = ("{where}: {kind} {eid} is too long to check ({n:,} characters, over the 16,000 the check reads): "
                 "it is held from every session until approved (lh memory approve {eid}), or keep a long document "
                 "in a file and name the file in the entry, or shorten it")


@pytest.fixture(scope="module")
def writer() -> Writer:
    return Writer(23)


# why left out: "basic" or "bearer" before a word reads as a credential to the redactor, and a secret
# holds an entry whatever approved it (ADR 0056)
CREDENTIAL_WORDS = {"basic", "bearer", "token", "password", "passwd", "secret", "auth", "authorization"}


def prose(writer: Writer, chars: int) -> str:
    """Sentences of words drawn from the standard library's docstrings: a document as a person pastes it."""
    parts, n = [], 0
    while n < chars:
        parts.append(" ".join(w for w in writer.sentence(8, 24).split() if w.lower() not in CREDENTIAL_WORDS) + ".")
        n += len(parts[-1]) + 1
    return " ".join(parts)


def append_by_hand(path: str, rec: dict) -> None:
    """One line appended as a person does it (an editor, ``>>``): json.dumps as typed, ASCII escapes."""
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(rec) + "\n")


@pytest.fixture
def memory(isolated_home, tmp_path, monkeypatch, writer) -> dict:
    writer.rng.seed(23)  # why: each test its own text, whichever ran before
    root = ms.make_project(str(tmp_path), "billing")
    mdir = paths.memory_dir(root)
    key, ldir = os.path.basename(mdir), paths.learnings_dir()
    decisions, failures = os.path.join(mdir, files.DECISIONS), os.path.join(mdir, files.FAILURES)
    ms.write_jsonl(decisions, [
        ms.decision(NOW - 3 * ms.DAY, "Pin the protobuf version", "the 5.x wheels broke the — gRPC stubs"),
        ms.decision(NOW - 2 * ms.DAY, "The export queue is a Maildir", prose(writer, 1500)),
    ])
    ms.write_jsonl(failures, [ms.failure(NOW - ms.DAY, "The nightly export ran twice", "lock the scheduler",
                                         root_cause=prose(writer, 3000))])
    ms.write_learning(ldir, "Retry uploads with backoff", "billing", NOW - 40 * ms.DAY, project_folder=key,
                      scope="project", learning=prose(writer, 2500))
    doc = {"ts": ms.iso(NOW - 60), "type": "decision", "summary": "Pasted the export design doc",
           "rationale": prose(writer, 300 * 1024)}
    append_by_hand(decisions, doc)  # line 3
    lpath = ms.write_learning(ldir, "How the invoice export is laid out", "billing", NOW - ms.DAY, project_folder=key,
                              scope="project", learning=prose(writer, 40_000))
    meta, ltext = approval.learning_text(lpath)
    monkeypatch.chdir(root)
    return {"root": root, "decisions": decisions, "doc": doc, "eid": ids.of_record(doc, "decision"),
            "lpath": lpath, "lid": ids.of_learning(meta, path=lpath), "ltext": ltext}


def too_long_lines(out: str) -> list[str]:
    """The lines of check's output (or doctor's) that name an entry too long to check."""
    return [line for line in out.splitlines() if f" is {trust.TOO_LONG} (" in line]


def test_check_names_the_pasted_document_and_the_long_learning_and_exits_1(memory):
    text = trust.text_of(memory["doc"], "decision")
    assert trust.reason(text) == trust.too_long(len(text))  # what SessionStart holds it for
    assert trust.reason(memory["ltext"]) == trust.too_long(len(memory["ltext"]))  # what lh memory held says
    done = invoke("memory", "check")
    assert done.code == 1, done.out
    eid, lid = memory["eid"], memory["lid"]
    assert TOO_LONG_LINE.format(where=f"{memory['decisions']}:3", kind="decision", eid=eid, n=len(text)) in done.out
    [learning] = [line for line in too_long_lines(done.out) if lid in line]
    assert learning.startswith(f"{memory['lpath']}: learning {lid} is too long to check "
                               f"({len(memory['ltext']):,} characters, over the 16,000 the check reads): ")
    assert f"(lh memory approve {lid})" in learning and "keep a long document in a file" in learning
    assert len(too_long_lines(done.out)) == 2, done.out  # the ordinary entries are not named
    assert "2 entry(s) too long to check" in done.out.splitlines()[-1]
    # the ids are those the views hold them under
    held = invoke("memory", "held").out
    assert eid in held and lid in held


def test_an_approved_entry_is_not_named(memory):
    assert invoke("memory", "approve", memory["eid"]).code == 0
    done = invoke("memory", "check")
    assert memory["eid"] not in done.out and memory["lid"] in done.out
    assert done.code == 1
    assert invoke("memory", "approve", memory["lid"]).code == 0
    done = invoke("memory", "check")
    assert done.code == 0, done.out
    assert too_long_lines(done.out) == []


def test_a_forgotten_entry_is_not_named(memory):
    assert invoke("memory", "forget", memory["eid"]).code == 0
    done = invoke("memory", "check")
    assert memory["eid"] not in done.out and len(too_long_lines(done.out)) == 1


def test_doctor_warns_while_check_would_name_one(memory):
    lines = invoke("doctor").out.splitlines()
    warned = [line for line in lines if line.startswith("warn  ") and trust.TOO_LONG in line]
    assert any(memory["eid"] in line and f"{memory['decisions']}:3" in line for line in warned), lines
    assert any(memory["lid"] in line for line in warned), lines
    for eid in (memory["eid"], memory["lid"]):
        invoke("memory", "approve", eid)
    assert not [line for line in invoke("doctor").out.splitlines() if trust.TOO_LONG in line]


def test_a_text_is_measured_as_the_check_folds_it(memory):
    """NFKC makes U+FDFA eighteen letters: a rationale under the limit as typed is over it as the rules
    would read it, and held; Cyrillic prose of the same length, and ASCII at the limit, are not."""
    folds = "Note: " + "\ufdfa " * (trust.LONGEST // 4)
    cyrillic = " ".join(["Экспорт счетов идёт ночью, один раз."] * 400)[:trust.LONGEST // 2]
    recs = [{"ts": ms.iso(NOW - 50), "type": "decision", "summary": "Arabic honorific notes", "rationale": folds},
            {"ts": ms.iso(NOW - 40), "type": "decision", "summary": "Ночной экспорт", "rationale": cyrillic},
            {"ts": ms.iso(NOW - 30), "type": "decision", "summary": "at the limit",
             "rationale": "x" * (trust.LONGEST - len("at the limit "))},
            {"ts": ms.iso(NOW - 20), "type": "decision", "summary": "one over",
             "rationale": "y" * (trust.LONGEST + 1 - len("one over "))}]
    for rec in recs:
        append_by_hand(memory["decisions"], rec)  # lines 4 to 7
    texts = [trust.text_of(rec, "decision") for rec in recs]
    assert len(texts[0]) <= trust.LONGEST and trust.hostile(texts[0]).startswith(trust.TOO_LONG)
    assert [len(t) for t in texts[2:]] == [trust.LONGEST, trust.LONGEST + 1]
    assert trust.hostile(texts[1]) is None and trust.hostile(texts[2]) is None
    done = invoke("memory", "check")
    named = too_long_lines(done.out)
    unread = trust.hostile(texts[0]).partition("): ")[0]
    assert any(line.startswith(f"{memory['decisions']}:4: decision ") and f"is {unread}):" in line for line in named)
    assert not any(f"{memory['decisions']}:{n}:" in line for line in named for n in (5, 6)), named
    assert any(f"{memory['decisions']}:7: " in line and "16,001 characters" in line for line in named), named


def test_a_long_open_item_typed_into_handoff_md_is_named(memory, writer):
    md = os.path.join(paths.memory_dir(memory["root"]), files.HANDOFF)
    with open(md, "w", encoding="utf-8") as fh:
        fh.write(f"# Handoff\n\n- Finish the invoice export: {prose(writer, 20_000)}\n- Rotate the staging keys\n")
    named = [line for line in too_long_lines(invoke("memory", "check").out) if line.startswith(f"{md}: ")]
    assert len(named) == 1 and " open item h-" in named[0], named


def test_an_ordinary_memory_is_measured_without_folding_or_rules(memory, monkeypatch):
    """No rule runs, and only a text whose fold could pass the limit is folded: none of these."""
    for eid in (memory["eid"], memory["lid"]):
        approved = invoke("memory", "approve", eid)
        assert approved.code == 0, approved.out + approved.err
    for i in range(50):
        append_by_hand(memory["decisions"], {"ts": ms.iso(NOW - i), "type": "decision", "summary": f"café rule {i}",
                                              "rationale": "the — dash and “quotes” of an editor " * 60})
    calls: list[str] = []
    monkeypatch.setattr(trust, "forms", lambda text: calls.append(text) or [text])
    monkeypatch.setattr(trust_rules, "matches", lambda k, form: calls.append(form) or False)
    done = invoke("memory", "check")
    assert done.code == 0, done.out
    assert calls == []


def test_debugging_md_quotes_the_line_as_check_prints_it():
    doc = " ".join((Path(__file__).resolve().parents[2] / "docs" / "how" / "debugging.md").read_text(
        encoding="utf-8").split())
    assert TOO_LONG_LINE.format(where="decisions.jsonl:3", kind="decision", eid="d-1a2b3c4d", n=307_222) in doc
