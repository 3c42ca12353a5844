"""SessionStart's learnings section: another project's approved learning takes a place only when it
shares a distinctive word of its title or tags with this project's name, branch or own learnings."""

import os
import time

from tests.support import memory_samples as ms
from lazy_harness import config, paths
from lazy_harness.memory import files
from lazy_harness.recall.readback import digest, prepared

APPROVED = "approved by hand"  # the person approved it: it may reach every project (ADR 0032)
NOW = time.time()

RELATED = [("Serde rename_all keeps JSON keys camelCase", ["serde", "json"]),
           ("Cargo features must be additive across a workspace", ["cargo"])]
# why "when", "use", "build", "test": everyday words the own learning's title shares with them, no evidence
UNRELATED = [("Use React memo when props are stable", ["react", "performance"]),
             ("CSS grid auto-fit wraps cards when the build is narrow", ["css", "layout"]),
             ("useEffect cleanup runs before the next test render", ["react", "hooks"])]


def _start(tmp_path, name: str = "ferrox", branch: str = "main"):
    project = ms.make_project(tmp_path, name, branch=branch)
    # a decision of its own: the digest speaks for this project whatever its learnings
    ms.write_jsonl(os.path.join(paths.memory_dir(project, os.environ), files.DECISIONS),
                   [ms.decision(NOW, "ship one binary", "simpler installs", project=name)])
    return project


def _others(items, origin: str = "webapp") -> None:
    for k, (title, tags) in enumerate(items):
        ms.write_learning(paths.learnings_dir(None, os.environ), title, origin, NOW - (1 + k) * 3600, tags=tags,
                          deprecated_reason=APPROVED)


def _digest(project):
    values = config.defaults()
    values["context"]["learnings"] = 6  # places for all six: nothing is left out for space
    text, stats = digest.build_context(project, values, os.environ, NOW, "startup")
    return text, stats


def test_a_rust_project_gets_its_own_and_the_related_but_not_react_or_css(tmp_path):
    project = _start(tmp_path)
    ms.write_learning(paths.learnings_dir(None, os.environ), "Use cargo test --workspace when crates share a build",
                      "ferrox", NOW - 5 * ms.DAY, tags=["cargo", "serde", "rust"])
    _others(RELATED + UNRELATED)
    text, stats = _digest(project)
    assert "Use cargo test --workspace when crates share a build" in text
    for title, _ in RELATED:
        assert title in text
    for title, _ in UNRELATED:
        assert title not in text
    assert stats["shown"]["learnings"] == 3
    assert "unrelated_learnings=3" in prepared.describe(stats)


def test_a_project_without_own_learnings_gets_none_of_the_unrelated(tmp_path):
    project = _start(tmp_path)
    _others(RELATED + UNRELATED)
    text, stats = _digest(project)
    assert "ship one binary" in text  # the digest is still there, its learnings section is not
    assert "Learnings relevant to this project" not in text
    assert stats["shown"]["learnings"] == 0


def test_a_learning_named_after_the_project_or_its_branch_still_comes(tmp_path):
    project = _start(tmp_path, branch="feature/plugin-loader")
    _others([("Ferrox release needs a signed tag", ["release"]),
             ("Plugin loader scans the folder once", []),
             ("Use React memo when props are stable", ["react"])])
    text, stats = _digest(project)
    assert "Ferrox release needs a signed tag" in text and "Plugin loader scans the folder once" in text
    assert "Use React memo when props are stable" not in text
    assert stats["shown"]["learnings"] == 2


def test_own_learnings_are_shown_whatever_their_words(tmp_path):
    project = _start(tmp_path)
    for k, title in enumerate(("Use React memo when props are stable", "CSS grid wraps cards")):
        ms.write_learning(paths.learnings_dir(None, os.environ), title, "ferrox", NOW - (1 + k) * ms.DAY)
    text, stats = _digest(project)
    assert "Use React memo when props are stable" in text and "CSS grid wraps cards" in text
    assert "unrelated_learnings" not in prepared.describe(stats)


def test_the_projects_own_decisions_and_failures_say_what_it_is_about(tmp_path):
    """A project without learnings of its own whose recent decisions name Docker gets the approved Docker
    learning, not the React one: what the start shows of its decisions and failures is evidence too."""
    project = ms.make_project(tmp_path, "project")
    mdir = paths.memory_dir(project, os.environ)
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS),
                   [ms.decision(NOW, "Build the service image with docker buildx", "one builder for both",
                                project="project")])
    _others([("Docker COPY invalidates the cache for every later layer", ["dockerfile", "cache"]),
             ("Use React memo when props are stable", ["react"])])
    text, stats = _digest(project)
    assert "Docker COPY invalidates the cache for every later layer" in text
    assert "Use React memo when props are stable" not in text
    assert stats["shown"]["learnings"] == 1
