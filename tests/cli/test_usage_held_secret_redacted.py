"""``lh memory usage`` names the entries that cost the most for the least use by their title: an entry
held for a secret (ADR 0062: a line brought by sync, a hand edit) is named redacted there too, as
every other listing prints it, and a secret split between a learning's title and its body is found."""

import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files, handoff, ids, learnings, usage_log
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()
AWS = "AKIA" + "Q3EGRIYTZ6VX2N4M"
PASSWORD = "Tr0ub4dor-and-3"
SPLIT = "Kx9-hunter-Lm42"
COSTLY = "most characters for the least use:"


@pytest.fixture
def here(tmp_path, monkeypatch, isolated_home):
    project = ms.make_project(str(tmp_path), "app")
    monkeypatch.chdir(project)
    mdir, ldir = paths.memory_dir(project), paths.learnings_dir()
    typed = f"set password={PASSWORD} for the staging db"
    across = ("Connect to staging with the admin password", f"{SPLIT} since the rotation")
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), [ms.decision(NOW - 60, typed, "rotated last week"),
                                                         ms.decision(NOW - 50, *across)])
    item = f"rotate the bucket key {AWS} before friday"
    handoff.append(mdir, [handoff.record("open", item, "by hand", "t1", NOW - 30)])
    titled = ms.write_learning(ldir, f"Bucket key is {AWS}", "app", NOW - 90, slug="bucket-key",
                               learning="it opens the artifact bucket", scope="project",
                               project_folder=os.path.basename(mdir))
    split = ms.write_learning(ldir, "The staging admin login is password=", "app", NOW - 80, slug="split",
                              learning=f"{SPLIT}\nrotated every month", scope="project",
                              project_folder=os.path.basename(mdir))
    shown = [ids.entry_id("decision", typed), ids.entry_id("decision", across[0]), ids.handoff_id(item),
             learnings.id_of(titled), learnings.id_of(split)]
    usage_log.append(mdir, [usage_log.line("shown", NOW - 20 + k, session=f"s{k}", id=eid, chars=300)
                            for k in range(2) for eid in shown])
    return shown


def test_usage_names_each_entry_held_for_a_secret_redacted(here):
    r = invoke("memory", "usage")
    assert r.code == 0, r.err
    costly = r.out.split(COSTLY, 1)[1]
    assert all(eid in costly for eid in here), costly  # every one is listed, by its id
    for secret in (AWS, AWS[4:], PASSWORD, SPLIT):
        assert secret not in r.out + r.err, r.out
    named = {ln.split()[0]: ln for ln in costly.splitlines() if ln.strip()}
    for eid in (here[0], here[2], here[3]):  # the secret in the title itself: replaced by its marker
        assert "[REDACTED:" in named[eid], named[eid]
