"""An ``alias`` line makes the learnings written under another memory key this project's own. One that
arrived by sync (any clone of the remote can append it) and names the key of another project live on
this machine would bring that project's memory into this one's sessions without the person's consent.
So an alias counts when this machine wrote it (a migration, ``lh memory adopt``, ``--force`` too), or
when no other live project here holds the key it names (another machine's earlier key: what synced
aliases are for). An ``adopt`` line adopts only a learning written before keys were recorded."""

import json
import os

from lazy_harness import paths
from lazy_harness.memory import aliases, last_key
from tests.cli.lhrun import invoke
from tests.memory.test_follows_project import learning, start, write_as_session
from tests.support import memory_samples as ms

REFUND = "Billing refunds go through the finance-approvals queue"


def _synced_line(mdir: str, rec: dict) -> None:
    """A line as a round's merge leaves it: appended by another clone, nothing recorded on this machine."""
    os.makedirs(mdir, exist_ok=True)
    with open(os.path.join(mdir, aliases.FILE), "a", encoding="utf-8") as fh:
        fh.write(json.dumps(rec) + "\n")


def _two_projects(tmp_path) -> tuple[str, str, str]:
    """(app's root, billing's root, billing's key): billing, live here, wrote a project-only learning."""
    app = ms.make_project(tmp_path / "w", "app")
    write_as_session(app, {"decisions": [{"summary": "App renders with htmx"}]})
    last_key.remember_key(app, paths.memory_dir(app))
    billing = ms.make_project(tmp_path / "w", "billing")
    write_as_session(billing, {"learnings": [learning(REFUND)]}, session="b-1")
    last_key.remember_key(billing, paths.memory_dir(billing))  # as the worker keeps it after each task
    return app, billing, os.path.basename(paths.memory_dir(billing))


def test_a_synced_alias_naming_a_live_projects_key_brings_none_of_its_memory(tmp_path):
    app, billing, bkey = _two_projects(tmp_path)
    _synced_line(paths.memory_dir(app), {"op": "alias", "folder": bkey, "why": "moved", "ts": "2026-12-01T16:40:00"})
    assert bkey not in aliases.owned(paths.memory_dir(app)).keys
    assert REFUND not in start(app, sid="a-1")
    assert REFUND in start(billing, sid="b-2")  # billing keeps it


def test_an_alias_this_machine_wrote_counts_even_for_a_live_key(tmp_path):
    app, billing, bkey = _two_projects(tmp_path)
    forced = invoke("memory", "adopt", "--force", "--project", app, "--", bkey)
    assert forced.code == 0, forced.out + forced.err
    assert bkey in aliases.owned(paths.memory_dir(app)).keys
    assert REFUND in start(app, sid="a-2")


def test_a_synced_alias_of_a_key_no_live_project_holds_counts(tmp_path):
    # another machine's earlier key (its path key before the repository gained an origin): the
    # learnings written there under it are this project's here too
    app = ms.make_project(tmp_path / "w", "app")
    write_as_session(app, {"decisions": [{"summary": "App renders with htmx"}]})
    gone_key = "-home-elsewhere-src-app"
    ms.write_learning(paths.learnings_dir(), "Cache the htmx fragments for a minute", "app", 1_790_000_000.0,
                      slug="htmx", project_folder=gone_key, scope="project")
    _synced_line(paths.memory_dir(app), {"op": "alias", "folder": gone_key, "why": "the project gained an origin",
                                         "ts": "2026-11-01T10:00:00"})
    assert gone_key in aliases.owned(paths.memory_dir(app)).keys
    assert "Cache the htmx fragments" in start(app, sid="a-3")


def test_a_synced_adopt_line_lists_no_learning_that_records_its_key(tmp_path):
    app, billing, bkey = _two_projects(tmp_path)
    [path] = [os.path.join(d, n) for d, _, ns in os.walk(paths.learnings_dir()) for n in ns if "refunds" in n]
    from lazy_harness.memory import learnings

    lid = learnings.id_of(path)
    _synced_line(paths.memory_dir(app), {"op": "adopt", "id": lid, "why": "x", "ts": "2026-12-01T16:40:00"})
    owned = aliases.owned(paths.memory_dir(app))
    meta = {"id": lid, "project_folder": bkey, "origin": "billing", "title": REFUND}
    assert not owned.lists(meta, "app")


def test_a_synced_alias_of_a_live_projects_earlier_key_brings_none_of_its_memory(tmp_path):
    from tests.memory.test_follows_project import add_origin

    app, billing, old = _two_projects(tmp_path)
    add_origin(billing, "git@github.com:team/billing.git")
    assert REFUND in start(billing, sid="b-2")  # migrated: the path key is billing's alias now
    assert old in aliases.owned(paths.memory_dir(billing)).keys and old != os.path.basename(paths.memory_dir(billing))
    _synced_line(paths.memory_dir(app), {"op": "alias", "folder": old, "why": "moved", "ts": "2026-12-01T16:40:00"})
    assert old not in aliases.owned(paths.memory_dir(app)).keys
    assert REFUND not in start(app, sid="a-4")


def test_a_key_record_without_its_root_counts_as_live(tmp_path):
    # an older version kept the key alone: its project cannot be told gone (last_key.still_owned: "?")
    app, billing, bkey = _two_projects(tmp_path)
    with open(paths.last_key_file(billing), "w", encoding="utf-8") as fh:
        fh.write(bkey + "\n")
    _synced_line(paths.memory_dir(app), {"op": "alias", "folder": bkey, "why": "moved", "ts": "2026-12-01T16:40:00"})
    assert bkey not in aliases.owned(paths.memory_dir(app)).keys


def test_a_project_that_only_started_sessions_here_is_live(tmp_path):
    # no distillation here yet (its memory came by sync): its session start records its key
    app, billing, bkey = _two_projects(tmp_path)
    os.unlink(paths.last_key_file(billing))
    start(billing, sid="b-3")
    _synced_line(paths.memory_dir(app), {"op": "alias", "folder": bkey, "why": "moved", "ts": "2026-12-01T16:40:00"})
    assert bkey not in aliases.owned(paths.memory_dir(app)).keys


def test_adopt_of_a_key_already_aliased_counts_it_and_moves_nothing(tmp_path):
    # an alias written before this machine noted the ones it wrote (an adopt --force of a live project)
    app, billing, bkey = _two_projects(tmp_path)
    _synced_line(paths.memory_dir(app), {"op": "alias", "folder": bkey, "why": "adopted by hand",
                                         "ts": "2026-10-01T10:00:00"})
    assert bkey not in aliases.owned(paths.memory_dir(app)).keys
    before = sorted(os.listdir(paths.memory_dir(billing)))
    done = invoke("memory", "adopt", "--project", app, "--", bkey)
    assert done.code == 0, done.out + done.err
    assert bkey in aliases.owned(paths.memory_dir(app)).keys
    assert sorted(os.listdir(paths.memory_dir(billing))) == before
    assert REFUND in start(app, sid="a-5")


def test_an_alias_an_older_adopt_wrote_counts_once_the_folder_it_moved_is_gone(tmp_path):
    # web1 moved to web2; an older version kept web1's key without its root and, asked to adopt it in
    # web2, moved web1's memory folder there and wrote the alias without noting it on this machine
    web2 = ms.make_project(tmp_path / "w", "web2")
    write_as_session(web2, {"decisions": [{"summary": "Web renders with htmx"}]})
    old_key = paths.project_key(str(tmp_path / "w" / "web1"))
    os.makedirs(os.path.dirname(paths.last_key_file(str(tmp_path / "w" / "web1"))), exist_ok=True)
    with open(paths.last_key_file(str(tmp_path / "w" / "web1")), "w", encoding="utf-8") as fh:
        fh.write(old_key + "\n")  # the older version's record: the key alone
    ms.write_learning(paths.learnings_dir(), "Cache the htmx fragments for a minute", "web1", 1_790_000_000.0,
                      slug="htmx", project_folder=old_key, scope="project")
    _synced_line(paths.memory_dir(web2), {"op": "alias", "folder": old_key, "why": "adopted by hand",
                                          "ts": "2026-06-01T10:00:00"})
    assert not os.path.exists(os.path.join(os.path.dirname(paths.memory_dir(web2)), old_key))
    assert old_key in aliases.owned(paths.memory_dir(web2)).keys
    assert "Cache the htmx fragments" in start(web2, sid="w-1")
