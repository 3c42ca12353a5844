"""Another project's learning is named with its origin wherever the page names it: under "Never used",
"Injected into recent sessions" and the ranked table of "What a prompt gets", as "Learnings" names
it (``from <origin>``, escaped). Forget of a learning meant for every project asks about every
project, as ``lh memory forget`` forgets it there: the same learning file every project reads."""

import html
import os
import re
import time
from urllib.parse import urlencode

from lazy_harness import paths
from lazy_harness.memory import frontmatter, hand_runs, learnings, usage_log
from lazy_harness.ui import sections
from tests.support import memory_samples as ms
from tests.ui.conftest import NOW
from tests.ui.test_server import cookie, page, request, server_key

HOSTILE = 'q<script>document.title="owned"</script>"\'><b>'
EVERY = "Forget this learning in every project?"


def _view(root: str) -> sections.View:
    from lazy_harness import config
    from lazy_harness.ui import reading

    cfg = config.load()
    projects = reading.projects(root, cfg, os.environ)
    return sections.View(projects[0], projects, cfg, os.environ, NOW, "token", root, "/base")


def _general(seeded, origin: str = HOSTILE, title: str = "Bash traps need set -E to reach functions") -> str:
    """An approved general learning another project wrote (shown in every project); its id."""
    return learnings.id_of(ms.write_learning(seeded.ldir, title, origin, NOW - 60, slug="traps", scope="general",
                                             deprecated_reason="approved by hand"))


def _row(body: str, eid: str) -> str:
    [row] = [m.group(0) for m in re.finditer(rf'<(li|tr)\b[^>]*data-id="{re.escape(eid)}".*?</\1>', body, re.S)]
    return row


def _section(v, anchor: str) -> str:
    return next(fn for a, _, fn in sections.SECTIONS if a == anchor)(v)


def _shown(seeded, *eids: str) -> None:
    now = time.time()
    usage_log.append(seeded.mdir, [usage_log.line("shown", now - 60 + k, session=f"s{k}", id=eid, chars=300)
                                   for k in range(2) for eid in eids])


def _from(origin: str) -> str:
    return f'<span class="meta">from {html.escape(origin, quote=True)}</span>'


def test_never_used_names_another_projects_learning_by_its_origin_and_asks_about_every_project(seeded):
    gen = _general(seeded)
    own = learnings.id_of(ms.write_learning(seeded.ldir, "Our own tmp_path rule", "proj", NOW - 60, slug="mine",
                                            scope="project"))
    _shown(seeded, gen, own, seeded.sqlite)
    usage = _section(_view(seeded.root), "usage").split('class="entries never-used"', 1)[1]
    row = _row(usage, gen)
    assert _from(HOSTILE) in row and "<script>" not in row
    assert f'data-confirm="{EVERY}"' in row
    assert "from " not in _row(usage, own) and 'data-confirm="Forget this learning?"' in _row(usage, own)
    assert 'data-confirm="Forget this entry?"' in _row(usage, seeded.sqlite)


def test_learnings_asks_the_same_as_never_used_for_a_general_learning(seeded):
    gen = _general(seeded)
    body = _section(_view(seeded.root), "learnings")
    assert _from(HOSTILE) in _row(body, gen) and f'data-confirm="{EVERY}"' in _row(body, gen)


def test_a_general_learning_of_another_project_of_this_name_says_so(seeded):
    """Written in another folder named ``proj`` (its key is not this project's): not this project's own."""
    gen = learnings.id_of(ms.write_learning(seeded.ldir, "Pin the resolver in CI", "proj", NOW - 60, slug="twin",
                                            scope="general", deprecated_reason="approved by hand",
                                            project_folder="-elsewhere-proj"))
    _shown(seeded, gen)
    v = _view(seeded.root)
    for anchor in ("learnings", "usage"):
        assert "from proj (another project of this name)" in _row(_section(v, anchor), gen), anchor


def test_forget_from_this_page_forgets_a_general_learning_in_every_project(server, seeded):
    """What the question says: the one file every project reads is marked forgotten, as lh memory
    forget does from this project's folder."""
    gen = _general(seeded, origin="elsewhere")
    path = hand_runs.learning_paths(seeded.ldir, gen)[0]
    form = urlencode({"project": server_key(server, seeded), "token": server.form_token, "id": gen})
    assert request(server, "POST", page(server, "/action/forget"), cookie(server), body=form)[0] == 303
    assert frontmatter.read_frontmatter_values(path, ("status",))["status"] == "forgotten"


def test_injected_names_another_projects_learning_by_its_origin(seeded):
    gen = _general(seeded)
    with open(os.path.join(paths.logs_dir(), "hooks.log"), "a", encoding="utf-8") as fh:
        fh.write(f"{ms.iso(NOW - 30)} UserPromptSubmit session={seeded.session} injected 2 (610/2000 chars): "
                 f"{gen},{seeded.sqlite} (20.1 ms)\n")
    body = _section(_view(seeded.root), "injected")
    given = re.findall(r"<li><code>(.*?)</code> (.*?)</li>", body)
    named = dict(given)
    assert _from(HOSTILE) in named[gen] and "<script>" not in named[gen]
    assert "from " not in named[seeded.sqlite] and "Keep the recall index in SQLite FTS5" in named[seeded.sqlite]


def test_the_ranked_table_gives_another_projects_rows_their_origin(seeded):
    gen = _general(seeded, title="Bash traps need set -E to reach functions in pipefail scripts")
    own = learnings.id_of(ms.write_learning(seeded.ldir, "Bash traps need set -E in our own pipefail scripts",
                                            "proj", NOW - 60, slug="own-traps", scope="project",
                                            project_folder=os.path.basename(seeded.mdir)))
    v = _view(seeded.root)
    v.query = "bash traps need set -E to reach functions in pipefail scripts"
    body = _section(v, "search")
    row = _row(body, gen)
    assert _from(HOSTILE) in row and "<script>" not in row
    assert "from " not in _row(body, own)
