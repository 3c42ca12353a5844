"""``lh memory search`` labels a forgotten entry ``[forgotten]`` with its id; the person brings it back
by that id: ``lh memory undo ID`` undoes the newest run that changed the entry, when that run changed
it alone, and otherwise names the run and what else it would put back. ``lh memory approve ID`` of a
forgotten entry says how to bring it back, not only to look at the held list."""

import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()
ONE = "The billing export keeps a run marker for the cron"
TWO = "Refund reports are built from the ledger, never the invoices"


@pytest.fixture
def root(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    ms.write_jsonl(os.path.join(paths.memory_dir(root), files.DECISIONS),
                   [ms.decision(NOW - 60, ONE, "reruns"), ms.decision(NOW - 50, TWO, "one source")])
    return root


def found_id(root: str, words: str, title: str) -> str:
    out = invoke("memory", "search", *words.split(), "--project", root).out
    [line] = [ln for ln in out.splitlines() if title in ln]
    return line.split()[1]


def test_a_forgotten_entry_comes_back_by_the_id_search_shows(root):
    eid = found_id(root, "billing export", ONE)
    assert invoke("memory", "forget", eid, "--project", root).code == 0
    other = found_id(root, "refund ledger", TWO)
    assert invoke("memory", "forget", other, "--project", root).code == 0  # a newer run, of another entry
    out = invoke("memory", "search", "billing", "export", "--project", root).out
    assert eid in out and "[forgotten]" in out, out
    back = invoke("memory", "undo", eid, "--project", root)
    assert back.code == 0, back.err
    out = invoke("memory", "search", "billing", "export", "--project", root).out
    assert eid in out and "[forgotten]" not in out, out
    still = invoke("memory", "search", "refund", "ledger", "--project", root).out
    assert "[forgotten]" in still, still  # the other entry's run is left as it is
    again = invoke("memory", "undo", eid, "--project", root)
    assert again.code == 1 and eid in again.err and "Traceback" not in again.err, again.err


def test_an_entry_forgotten_with_others_in_one_run_names_that_run(root, monkeypatch):
    eid = found_id(root, "billing export", ONE)
    other = found_id(root, "refund ledger", TWO)
    assert invoke("memory", "forget", eid, "--project", root).code == 0
    from lazy_harness.memory import journal

    # one run that changed both, as a consolidation does: its change lines name each entry
    [path] = [os.path.join(journal.folder(paths.memory_dir(root)), n)
              for n in os.listdir(journal.folder(paths.memory_dir(root)))]
    import json

    with open(path) as fh:
        data = json.load(fh)
    data["changes"].append(f"forget {other}: merged")
    with open(path, "w") as fh:
        json.dump(data, fh)
    refused = invoke("memory", "undo", eid, "--project", root)
    assert refused.code == 1 and data["run"] in refused.err and "2 entries" in refused.err, refused.err
    assert f"lh memory undo {data['run']}" in refused.err, refused.err


def test_approving_a_forgotten_entry_says_how_it_comes_back(root):
    eid = found_id(root, "billing export", ONE)
    assert invoke("memory", "forget", eid, "--project", root).code == 0
    refused = invoke("memory", "approve", eid, "--project", root)
    assert refused.code == 1 and f"lh memory undo {eid}" in refused.err, refused.err
