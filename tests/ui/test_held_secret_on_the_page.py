"""The page of ``lh ui`` never shows a held entry's secret (ADR 0062): a decision line with an AWS key
that arrived by sync, one with a ``password=`` typed by hand, an open item and a learning holding a
key. Every section that lists them (held for approval, the decisions, the open items, the learnings,
the ranked table of "What a prompt gets", the lists that name an entry by id) gives the redacted form,
and "Held for approval" the file and line to edit the secret out of; the HTML holds none of the
secret's characters."""

import html
import os
import re
from urllib.parse import quote

from lazy_harness import paths
from lazy_harness.memory import files, handoff, ids, learnings
from tests.support import memory_samples as ms
from tests.ui.conftest import NOW
from tests.ui.test_server import cookie, page, request
from tests.ui.test_uifx_page_agrees_with_show import _section

AWS = "AKIA" + "Q3EGRIYTZ6VX2N4M"
PASSWORD = "Tr0ub4dor-and-3"
SECRETS = (AWS, AWS[4:], PASSWORD)
SYNCED = ("Upload the zebrafish artifacts to the shared bucket", f"ci uses {AWS} for the artifact bucket")
TYPED = (f"set password={PASSWORD} for the zebrafish staging database", "the admin rotated it last week")
ITEM = f"rotate the zebrafish bucket key {AWS} before friday"
TITLE = f"Zebrafish bucket key is {AWS}"


def _get(server, query: str = "") -> str:
    status, _, body = request(server, "GET", page(server, "/" + query), cookie(server))
    assert status == 200, body[:300]
    return html.unescape(body)


def _seed_secrets(seeded) -> dict:
    path = os.path.join(seeded.mdir, files.DECISIONS)
    lines = sum(1 for _ in open(path, encoding="utf-8"))
    ms.write_jsonl(path, [ms.decision(NOW - 120, *SYNCED, machine="laptop-2", via="session"),
                          ms.decision(NOW - 60, *TYPED)])
    handoff.append(seeded.mdir, [handoff.record("open", ITEM, "by hand", "t9", NOW - 30)])
    learning = ms.write_learning(seeded.ldir, TITLE, "proj", NOW - 90, slug="bucket-key",
                                 learning=f"the zebrafish key {AWS} opens the bucket",
                                 project_folder=os.path.basename(seeded.mdir))
    # a session was given the typed decision before the check knew its shape: "Injected" names it by id
    typed = ids.entry_id("decision", TYPED[0])
    with open(os.path.join(paths.logs_dir(), "hooks.log"), "a", encoding="utf-8") as fh:
        fh.write(f"{ms.iso(NOW - 50)} UserPromptSubmit session={seeded.session} terms=4 candidates=3 passed=1 "
                 f"best=5.10 semantic=off injected 1 (310/2000 chars): {typed} (20.1 ms)\n")
    return {"path": path, "first": lines + 1, "learning": learning, "lid": learnings.id_of(learning)}


def test_no_section_of_the_page_shows_a_held_entrys_secret(server, seeded):
    got = _seed_secrets(seeded)
    ms.index_now()
    body = _get(server, f"?project={quote(os.path.basename(seeded.mdir))}&all=1")
    for secret in SECRETS:
        assert secret not in body
    held = _section(body, "held")
    assert f"{got['path']}:{got['first']}" in held and f"{got['path']}:{got['first'] + 1}" in held, held
    assert got["learning"] in held and os.path.join(seeded.mdir, files.HANDOFF) in held
    assert held.count("[REDACTED:aws-access-key]") >= 3 and "password=[REDACTED:assignment]" in held
    decisions = _section(body, "decisions")
    assert "ci uses [REDACTED:aws-access-key] for the artifact bucket" in decisions, decisions
    assert "set password=[REDACTED:assignment] for the zebrafish staging database" in decisions
    assert "rotate the zebrafish bucket key [REDACTED:aws-access-key]" in _section(body, "handoff")
    assert "Zebrafish bucket key is [REDACTED:aws-access-key]" in _section(body, "learnings")
    assert "set password=[REDACTED:assignment] for the zebrafish" in _section(body, "injected")
    # an ordinary entry is shown as written
    assert "Keep the recall index in SQLite FTS5" in decisions


def test_the_ranked_table_of_a_prompt_shows_held_hits_redacted(server, seeded):
    _seed_secrets(seeded)
    ms.index_now()
    body = _get(server, f"?project={quote(os.path.basename(seeded.mdir))}&q={quote('zebrafish bucket key password')}")
    for secret in SECRETS:
        assert secret not in body
    table = _section(body, "search")
    rows = re.findall(r"<tr class=\"(?:pass|miss)\".*?</tr>", table, re.S)
    assert any("[REDACTED:aws-access-key]" in r for r in rows), table


def test_an_entry_forgotten_for_its_secret_is_listed_redacted_among_the_left_out(server, seeded):
    from lazy_harness.memory import by_hand

    got = _seed_secrets(seeded)
    typed = ids.entry_id("decision", TYPED[0])
    by_hand.forget(seeded.mdir, seeded.ldir, "proj", typed, "holds a password", NOW)
    by_hand.forget(seeded.mdir, seeded.ldir, "proj", got["lid"], "holds a key", NOW)
    body = _get(server, f"?project={quote(os.path.basename(seeded.mdir))}&all=1")
    for secret in SECRETS:
        assert secret not in body
    assert "set password=[REDACTED:assignment] for the zebrafish" in _section(body, "decisions")
    assert "Zebrafish bucket key is [REDACTED:aws-access-key]" in _section(body, "learnings")


def test_closing_an_item_held_for_its_secret_from_the_page_says_it_redacted(server, seeded):
    from tests.ui.test_uifx_page_agrees_with_show import _post

    _seed_secrets(seeded)
    said = _post(server, os.path.basename(seeded.mdir), "close", item=ids.handoff_id(ITEM), reason="rotated")
    assert any("closed " + ids.handoff_id(ITEM) in n for n in said), said
    for secret in SECRETS:
        assert secret not in " ".join(said)
    assert any("[REDACTED:aws-access-key]" in n for n in said), said


def test_a_learning_without_a_project_that_holds_a_secret_is_listed_redacted(server, seeded):
    """A project learning written before keys were recorded, of a project no folder here has, arrives
    by sync with a key in its title: "Learnings without a project" names it redacted."""
    ms.write_learning(seeded.ldir, TITLE, "ghost-project", NOW - 90, slug="ghost-key", scope="project",
                      learning="the key opens the bucket")
    body = _get(server, f"?project={quote(os.path.basename(seeded.mdir))}&all=1")
    for secret in SECRETS:
        assert secret not in body
    assert "Zebrafish bucket key is [REDACTED:aws-access-key]" in _section(body, "unassigned")
