"""``lh memory forget ID`` in one project refuses a learning kept to another project (scope
``project``, written under another key): no view of this project lists it, so the id came from
elsewhere; the person forgets it in its own project. A general learning shown here can be forgotten
here, as the views that list it offer."""

import os

from lazy_harness import paths
from lazy_harness.memory import frontmatter, ids
from tests.cli.lhrun import invoke
from tests.memory.test_follows_project import write_as_session
from tests.support import memory_samples as ms


def _learning_of(root: str, scope: str, title: str) -> tuple[str, str]:
    write_as_session(root, {"learnings": [{"title": title, "learning": f"{title}, measured.", "context": "A run.",
                                           "scope": scope, "tags": ["x"]}]}, session=f"s-{scope}")
    [path] = [os.path.join(d, n) for d, _, ns in os.walk(paths.learnings_dir()) for n in ns
              if title.lower().split()[0] in n]
    return ids.of_learning(frontmatter.read_frontmatter_values(path, ("id", "title")), path=path), path


def _alpha_beta(tmp_path) -> tuple[str, str]:
    """Two projects: alpha (to write a learning) and beta, with memory of its own."""
    beta = ms.make_project(tmp_path, "beta")
    write_as_session(beta, {"decisions": [{"summary": "Beta uses tabs"}]}, session="s-b")
    return ms.make_project(tmp_path, "alpha"), beta


def test_forget_refuses_another_projects_own_learning(tmp_path):
    alpha, beta = _alpha_beta(tmp_path)
    lid, path = _learning_of(alpha, "project", "Wombat exports need the legacy codec")
    r = invoke("memory", "forget", lid, "--project", beta)
    assert r.code != 0 and "alpha" in r.err and "--project" in r.err, r.out + r.err
    assert frontmatter.read_frontmatter_values(path, ("status",)).get("status") != "forgotten"
    ok = invoke("memory", "forget", lid, "--project", alpha)
    assert ok.code == 0, ok.err


def test_forget_takes_a_general_learning_of_another_project(tmp_path):
    alpha, beta = _alpha_beta(tmp_path)
    lid, path = _learning_of(alpha, "general", "Quokka builds cache the toolchain")
    r = invoke("memory", "forget", lid, "--project", beta)
    assert r.code == 0, r.err
    assert frontmatter.read_frontmatter_values(path, ("status",)).get("status") == "forgotten"
