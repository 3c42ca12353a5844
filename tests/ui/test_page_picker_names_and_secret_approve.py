"""Two things the page said that did not help the person: the project picker listed two projects of one
folder name (~/work/api and ~/personal/api) as ``api`` and ``api``; and "Held for approval" gave an entry
held for a secret an Approve button that ``lh memory approve`` always refuses. The picker names each of
two projects of one name by its key too; the held entry gives, in place of Approve, what approve says of
it (the file and line to edit the secret out of), and keeps its Forget."""

import html
import os
import re
from urllib.parse import quote

import pytest

from lazy_harness import paths
from lazy_harness.errors import LhError
from lazy_harness.memory import by_hand, files, ids
from tests.support import memory_samples as ms
from tests.ui.conftest import NOW
from tests.ui.test_held_states import POISON
from tests.ui.test_server import cookie, page, request, server_key
from tests.ui.test_uifx_page_agrees_with_show import _items, _section

AWS = "AKIA" + "Q3EGRIYTZ6VX2N4M"


def _page(server, key: str) -> str:
    status, _, body = request(server, "GET", page(server, f"/?project={quote(key)}&all=1"), cookie(server))
    assert status == 200, body[:300]
    return body


def test_two_projects_of_one_folder_name_are_told_apart_in_the_picker(server, seeded, tmp_path):
    keys = []
    for parent in ("work", "personal"):
        root = ms.make_project(tmp_path / parent, "api")
        ms.write_jsonl(os.path.join(paths.memory_dir(root), files.DECISIONS),
                       [ms.decision(NOW - 60, f"Decision of the {parent} api", "its own", project="api")])
        keys.append(paths.project_key(root))
    options = re.findall(r'<option value="([^"]+)"[^>]*>([^<]*)</option>', _page(server, server_key(server, seeded)))
    labels = {html.unescape(key): html.unescape(label) for key, label in options}
    assert len(set(labels.values())) == len(labels), labels
    for key in keys:
        assert labels[key] == f"api ({key})", labels  # the key: the folder's path, as the header names it
    assert labels[server_key(server, seeded)] == "proj (this folder)"
    assert labels[paths.project_key(str(tmp_path / "other"))] == "other"  # a name no other project has: alone


def test_an_entry_held_for_a_secret_has_no_approve_but_what_approve_says_of_it(server, seeded):
    path = os.path.join(seeded.mdir, files.DECISIONS)
    line = sum(1 for _ in open(path, encoding="utf-8")) + 1
    ms.write_jsonl(path, [ms.decision(NOW - 60, f"Use key {AWS} for the deploy bucket", "it works"),
                          ms.decision(NOW - 30, "Setup step", POISON)])
    secret, poisoned = (ids.entry_id("decision", s) for s in (f"Use key {AWS} for the deploy bucket", "Setup step"))
    with pytest.raises(LhError) as refused:  # what lh memory approve says of it, writing nothing
        by_hand.approve(seeded.mdir, seeded.ldir, "proj", [secret], "approved by hand", NOW)
    rows = {eid: inner for _, eid, inner in _items(_section(_page(server, server_key(server, seeded)), "held"))}
    assert "/action/approve" not in rows[secret] and AWS not in rows[secret]
    said = html.unescape(re.search(r'<p class="meta refused">(.*?)</p>', rows[secret], re.S).group(1))
    assert said == f"lh memory approve refuses {secret}: {refused.value}", said
    assert f"edit the secret out of {path}:{line} " in said
    assert "/action/forget" in rows[secret]  # dropping it is still one click
    assert "/action/approve" in rows[poisoned] and "refused" not in rows[poisoned]  # held for no secret: Approve
