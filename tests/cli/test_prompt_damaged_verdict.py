"""``lh memory show --prompt`` and the page's search name a damaged candidate (``state.DAMAGED``: a learning
file stripped of its frontmatter by hand) in the first column of their table, as they name a held one."""

import os
import re
import time

from lazy_harness.memory import ids
from tests.cli.lhrun import invoke
from tests.recall.test_handfx4_damaged_learnings import BODY, NAMED, _write, alpha_gamma  # noqa: F401


def test_show_prompt_names_a_damaged_candidate(alpha_gamma):  # noqa: F811
    _, gamma, path = alpha_gamma
    _write(path, BODY)
    out = invoke("memory", "show", "--project", gamma, "--prompt", NAMED).out
    rows = [ln for ln in out.split("==== why", 1)[1].splitlines()[1:] if " learning " in ln]
    assert rows, out
    assert all(ln.split()[0] == "damaged" for ln in rows), out


def test_the_pages_search_names_a_damaged_candidate(alpha_gamma):  # noqa: F811
    from lazy_harness import config
    from lazy_harness.ui import reading, sections

    _, gamma, path = alpha_gamma
    _write(path, BODY)
    cfg = config.load()
    p = reading.projects(gamma, cfg, os.environ)[0]
    v = sections.View(project=p, projects=[p], cfg=cfg, env=os.environ, now=time.time(), token="t", cwd=gamma,
                      base="/b", query=NAMED)
    got = sections.search_section(v)
    lid = ids.of_learning({}, path=path)
    [row] = re.findall(rf'<tr class="miss" data-id="{re.escape(lid)}"><td>([^<]*)</td>', got)
    assert row == "damaged", got
