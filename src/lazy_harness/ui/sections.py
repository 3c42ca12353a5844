"""The sections of the page, in order: one function each, taking the :class:`View` and returning HTML.

A new section is one function and one line in :data:`SECTIONS` (anchor, title, function).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import quote

from lazy_harness.logfile import one_line
from lazy_harness.memory import held_shown, journal, provenance
from lazy_harness.memory.fence import from_origin
from lazy_harness.memory.handoff_log import by_whom, why_closed
from lazy_harness.recall import search
from lazy_harness.ui import entry_names, hook_log, held_and_usage, memory_lists, queue_and_spend, reading, usage_section
from lazy_harness.ui.markup import LIMIT, day_of, esc, forget_or_why, form, text, when_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.config.typed import Config
    from collections.abc import Mapping
    from collections.abc import Callable


@dataclass
class View:
    project: reading.Project
    projects: list[reading.Project]
    cfg: Config
    env: Mapping[str, str] | None
    now: float
    token: str  # the form token: the server's, not its cookie's (a cookie alone changes nothing)
    cwd: str
    base: str  # the secret path the whole page lives under: every link, form and asset starts with it
    query: str | None = None
    everything: bool = False  # every entry of every list, not only the newest LIMIT
    notes: list[str] = field(default_factory=list)
    titles: dict[str, entry_names.Named] | None = None  # ``_titles``, worked out once a page
    section: str | None = None  # the anchor of the section being made (``page``), where its actions come back

    def all_link(self, anchor: str) -> str:
        """The link of a cut list's "show all": this view with every entry, its search kept."""
        search = f"&q={quote(self.query, safe='')}" if self.query else ""
        return f"{self.base}/?project={quote(self.project.key)}&all=1{search}#{anchor}"

    def act(self, action: str, label: str, confirm: str | None = None, **fields: str) -> str:
        """An action's form. It carries the view it was sent from (every entry, the search, the section),
        which the server sends the browser back to with the note of what was done (``Handler._back``)."""
        view = {"all": "1"} if self.everything else {}
        if self.query:
            view["q"] = self.query
        if self.section:
            view["section"] = self.section
        return form(f"{self.base}/action/{action}", self.token, {"project": self.project.key, **view, **fields},
                    label, confirm)


def _empty(text: str) -> str:
    return f'<p class="empty">{esc(text)}</p>'


def _left_out(items: list[str], count: int) -> str:
    if not count:
        return ""
    return (f'<details class="left-out"><summary>{count} left out (held, waiting for approval, forgotten, '
            f'superseded, merged or deprecated)</summary><ul>{"".join(items)}</ul></details>')


def _entry(eid: str, head: str, body: str, actions: str = "", css: str = "entry live") -> str:
    return (f'<li class="{css}" data-id="{esc(eid)}"><div class="line"><code class="id">{esc(eid)}</code> '
            f'{head}</div>{body}{actions}</li>')


# --- the sections --------------------------------------------------------------------------------

def handoff_section(v: View) -> str:
    every = memory_lists.handoff_items(v.project)  # oldest first
    if not every:
        return _empty("No open handoff items.")
    cut = None if v.everything else LIMIT
    items = every[-cut:] if cut else every  # the newest, still oldest first
    rows = []
    for item in items:
        history = "".join(
            f'<li>{esc(when_of(r.get("ts")))} <b>{esc(r.get("op"))}</b> '
            f'{esc(by_whom(r.get("session_id"), r.get("agent")))}{esc(why_closed(r.get("reason")))}</li>'
            for r in item["history"])
        body = (f'<details class="history"><summary>history ({len(item["history"])})</summary>'
                f'<ul>{history}</ul></details>' if history else "")
        actions = (v.act("close", "Close", "Close this item?", reason="closed in lh ui", item=item["id"])
                   + v.act("forget", "Forget", "Forget this item?", id=item["id"]))
        opener = provenance.item_described(item, by_whom(item["opened_by"], item.get("opened_agent")))
        head = (f'{text(item["text"])} <span class="meta">opened '
                f'{esc(when_of(item["opened"]))} {esc(opener)}</span>')
        if item["left_out"]:  # held: listed, as lh memory show lists it, with its tag
            head += f' <span class="badge">{esc(item["left_out"])}</span>'
        rows.append(_entry(item["id"], head, body, f'<div class="actions">{actions}</div>'))
    return f'<ul class="entries">{"".join(rows)}</ul>{_more(v, "handoff", cut, len(every), 0)}'


def _listing(v: View, anchor: str, items: list[dict], row: Callable[[dict], tuple[str, str, str]],
             question: str | Callable[[dict], str], none: str) -> str:
    """Entries as a list, the left-out ones (``left_out``) folded away; ``row(item)`` gives (id, head,
    body) of the ones shown, ``question`` (or ``question(item)``) what their Forget asks: each list is
    cut at LIMIT unless the page was asked for everything."""
    live = [i for i in items if not i["left_out"]]
    gone = [i for i in items if i["left_out"]]
    if not live and not gone:
        return _empty(none)
    cut = None if v.everything else LIMIT
    shown_live = []
    for item in live[:cut]:
        eid, head, body = row(item)
        asked = question(item) if callable(question) else question
        forget = forget_or_why(v.act, asked, eid, item.get("refused"))
        shown_live.append(_entry(eid, head, body, f'<div class="actions">{forget}</div>'))
    shown_gone = []
    for item in gone[:cut]:
        eid, head, body = row(item)
        shown_gone.append(_entry(eid, head + f' <span class="badge">{esc(item["left_out"])}</span>', body,
                                 css="entry gone"))
    return (f'<ul class="entries">{"".join(shown_live)}</ul>{_more(v, anchor, cut, len(live), len(gone))}'
            + _left_out(shown_gone, len(gone)))


def _more(v: View, anchor: str, cut: int | None, live: int, gone: int) -> str:
    """The line under a cut list: what was cut of the shown and of the left-out entries, and the link
    to every entry; '' when nothing was cut."""
    cuts = []
    if cut is not None and live > cut:
        cuts.append(f"the newest {cut} of {live}")
    if cut is not None and gone > cut:
        cuts.append(f"{cut} of the {gone} left out")
    if not cuts:
        return ""
    link = esc(v.all_link(anchor))
    return f'<p class="more">Shown: {esc(" and ".join(cuts))}: <a href="{link}">show all</a></p>'


def _records_section(v: View, kind: str, detail: str, anchor: str) -> str:
    def row(rec: dict) -> tuple[str, str, str]:
        extra = rec.get(detail)
        body = (f'<p class="detail"><span class="label">{esc(detail.capitalize())}:</span> '
                f'<bdi>{esc(_text(extra))}</bdi></p>' if extra else "")
        head = (f'<span class="meta">{esc(day_of(rec.get("ts")))}</span> '
                f'{text(rec.get("summary"))}')
        # why search's label of the index's provenance phrase: the words lh memory search and show give
        came = search.came_from({"prov": provenance.describe(rec, kind)})
        if came:  # another machine's entry (sync): escaped, its machine and author are synced text
            head += f' <span class="meta">{esc(one_line(came, 80, safe=False))}</span>'
        return rec["id"], head, body

    every = memory_lists.entries(v.project, kind)
    return _listing(v, anchor, every, row, "Forget this entry?", f"No {kind}s recorded.")


def _text(value: object) -> str:
    if isinstance(value, list):
        return ", ".join(str(x) for x in value)
    return "" if value is None else str(value)


def decisions_section(v: View) -> str:
    return _records_section(v, "decision", "rationale", "decisions")


def failures_section(v: View) -> str:
    return _records_section(v, "failure", "prevention", "failures")


def _learning_list(v: View, items: list[dict], what: str, mine: bool) -> str:
    def row(item: dict) -> tuple[str, str, str]:
        head = (f'<span class="meta">{esc(item["day"])}</span> '
                f'{text(item.get("title"))}{entry_names.origin(v.project, item, mine)}')
        came = search.came_from({"prov": provenance.describe(item, "learning", session_key="origin_session",
                                                             project_field="origin")})
        if came:  # another machine's learning (sync), labelled as its decisions are
            head += f' <span class="meta">{esc(one_line(came, 80, safe=False))}</span>'
        excerpt = str(item.get("learning") or "")[:400]
        body = f'<p class="detail" dir="auto">{esc(excerpt)}</p>' if excerpt else ""
        if item.get("also_in"):  # one learning in two files: merge them, or delete all but one
            body += (f'<p class="meta">also in {esc(", ".join(os.path.basename(p) for p in item["also_in"]))} '
                     '(one learning in two files: merge them, or delete all but one)</p>')
        return item["id"], head, body

    return _listing(v, "learnings", items, row, entry_names.learning_question, f"No {what}.")


def learnings_section(v: View) -> str:
    from lazy_harness.memory import state

    own, general = memory_lists.learnings(v.project, state.policy(v.cfg))
    return (f'<h3>From {esc(v.project.name)}</h3>' + _learning_list(v, own, "learnings from this project", True)
            + '<h3>General, from other projects</h3>'
            + _learning_list(v, general, "general learnings from other projects", False))


def search_section(v: View) -> str:
    from lazy_harness.recall.prompt import explain

    every = '<input type="hidden" name="all" value="1">' if v.everything else ""  # why: a search keeps "show all"
    box = (f'<form class="search" method="get" action="{esc(v.base)}/#search"><input type="hidden" name="project" '
           f'value="{esc(v.project.key)}">{every}<input type="search" name="q" value="{esc(v.query or "")}" '
           f'placeholder="Type a prompt: see what it would get" aria-label="prompt"><button type="submit">Search'
           f'</button></form>')
    if not v.query:
        return box + _empty("The same ranking and bar as prompt recall (lh memory show --prompt).")
    place = (v.project.memory_dir, v.project.learnings_dir, v.project.name)
    said = explain.report(v.query, v.cwd, v.cfg, v.env, place=place, started=_started(v))
    if "nothing" in said:
        return box + f'<p class="result-none">{esc(said["nothing"])}</p>'
    text = said["text"] or f"This prompt receives nothing: {said['none']}."
    rows = "".join(
        f'<tr class="{"pass" if c["passes"] and not c.get("left") else "miss"}" data-id="{esc(c["id"])}">'
        f'<td>{_verdict(c)}</td>'
        f'<td class="num">{c["strength"]:.1f}</td><td class="num">{c["coverage"] * 100:.0f}%</td>'
        f'<td class="num">{"-" if c.get("similarity") is None else format(c["similarity"], ".2f")}</td>'
        f'<td>{esc(c["kind"])}</td><td><code>{esc(c["id"])}</code></td>'
        f'<td>{esc(held_shown.text(c["title"], c.get("held") or c.get("hold")))}'
        f'{entry_names.ranked_origin(v.project, c)}</td>'
        f'<td>{esc(", ".join(c["matched"]))}</td></tr>' for c in said["ranked"])
    table = (f'<table class="ranked"><thead><tr><th></th><th>strength</th><th>coverage</th><th>similarity</th>'
             f'<th>kind</th><th>id</th><th>title</th><th>matched</th></tr></thead><tbody>{rows}</tbody></table>'
             if rows else "")
    return (box + f'<h3>What the prompt gets</h3><pre class="injected">{esc(text)}</pre>'
            f'<p class="why">{esc(said["why"])}</p>{table}')


def _started(v: View) -> frozenset[str]:
    """The ids SessionStart's digest shows a new session of the project, which its first prompt never
    repeats (as ``lh memory show --prompt`` reads them); none when no folder of the project is known or
    the read-back is off. why: without them the search said a note comes back that the start has shown."""
    folder = reading.folder_of(v.project, v.env)
    if not folder or not v.cfg["context"]["enabled"]:
        return frozenset()
    from lazy_harness import paths, queue
    from lazy_harness.memory import files
    from lazy_harness.recall.readback import digest, prepared

    def trouble() -> tuple[int, str | None]:  # what SessionStart asks of the queue
        return queue.distill_trouble(paths.queue_dir(v.env), paths.worker_state_file(v.env), files.iso_epoch)

    env = os.environ if v.env is None else v.env
    text, stats = digest.digest(folder, v.cfg, env, v.now, "startup", trouble=trouble)
    return prepared.started_ids(text, stats)


def _verdict(c: dict) -> str:
    """The first column of a ranked candidate's row, as ``lh memory show --prompt`` words it (spelled out):
    ``pass`` only for what the prompt's text holds; one passing the bar and left out says why (``shown``
    to the session already, ``no room``: explain.left_out)."""
    if c["passes"]:
        return str(c.get("left") or "pass")
    return ("held" if c.get("held") else "waiting" if c.get("waiting") else "damaged" if c.get("damaged")
            else "other" if c.get("own_title") else "")


def _titles(v: View) -> dict[str, entry_names.Named]:
    """``entry_names.titles`` of the project, worked out once a page (two sections ask)."""
    if v.titles is None:
        from lazy_harness.memory import state

        v.titles = entry_names.titles(v.project, state.policy(v.cfg))
    return v.titles


def injected_section(v: View) -> str:
    sessions = hook_log.injected(v.project, v.cwd if v.project.current else None, v.env)
    if not sessions:
        return _empty("No session start or prompt of this project in hooks.log yet.")
    titles = _titles(v)
    out = []
    for s in sessions:
        events = "".join(
            f'<li><span class="meta">{esc(when_of(e["when"]))}</span> <b>{esc(e["event"])}</b> {esc(e["said"])}'
            + ('<ul class="given">'
               + "".join(f"<li><code>{esc(i)}</code> {titles[i].html() if i in titles else esc(chr(8230))}</li>"
                       for i in e["ids"])
               + "</ul>" if e["ids"] else "")
            + "</li>" for e in s["events"])
        unknown = "" if s["known"] else ' <span class="badge">project not known</span>'
        out.append(f'<li class="session"><div class="line">session <code>{esc(s["session"])}</code>{unknown}</div>'
                   f'<ul class="events">{events}</ul></li>')
    return ('<p class="note">From hooks.log: what SessionStart and each prompt injected, and why '
            'nothing was when nothing was.</p>' f'<ul class="sessions">{"".join(out)}</ul>')


def queue_section(v: View) -> str:
    q = queue_and_spend.queue(v.project, v.env)
    counts = " ".join(f'<span class="count">{esc(k)} <b>{n}</b></span>' for k, n in q["counts"].items())
    rows = "".join(
        f'<tr class="{esc(t["state"])}"><td><code>{esc(t["id"])}</code></td><td>{esc(t["when"])}</td>'
        f'<td>{esc(t["state"])}</td><td>{esc(t["event"])}</td><td>{esc(t["reason"])}'
        + (f'<details><summary>error</summary><pre>{esc(t["error"])}</pre></details>' if t["error"] else "")
        + "</td></tr>" for t in q["tasks"])
    table = (f'<table class="tasks"><thead><tr><th>task</th><th>queued</th><th>state</th><th>event</th>'
             f'<th>reason</th></tr></thead><tbody>{rows}</tbody></table>' if rows
             else _empty("No task of this project in the queue."))
    return f'<p class="counts">{counts} <span class="meta">(every project; {esc(q["folder"])})</span></p>{table}'


def spend_section(v: View) -> str:
    from lazy_harness.cost import budget, paused

    days = queue_and_spend.spend(v.env, v.now)
    # why not budget.check alone: a cap nearly reached pauses too, as the worker's notice says (lh cost)
    verdict = paused.pause(v.cfg, v.now, env=v.env)
    top = max((d[1] for d in days), default=0.0) or 1.0
    width, height, gap = 24, 80, 6
    bars = []
    for n, (day, usd, calls) in enumerate(days):
        h = max(1.0, usd / top * height) if usd else 0.0
        x = n * (width + gap)
        bars.append(f'<g><title>{esc(day)}: ${usd:.4f}, {calls} call(s)</title>'
                    f'<rect x="{x}" y="{height - h:.1f}" width="{width}" height="{h:.1f}" class="bar"></rect>'
                    f'<text x="{x + width / 2}" y="{height + 14}" class="axis">{esc(day[8:])}</text></g>')
    total = sum(d[1] for d in days)
    svg = (f'<svg class="chart" role="img" aria-label="spend per day" viewBox="0 0 {len(days) * (width + gap)} '
           f'{height + 20}" width="{len(days) * (width + gap)}" height="{height + 20}">{"".join(bars)}</svg>')
    return (f'{svg}<p>Last {len(days)} days: <b>${total:.4f}</b> (every project). Today '
            f'{esc(budget.money(verdict.spent_today))} of {esc(budget.money(verdict.daily))} a day; this month '
            f'{esc(budget.money(verdict.spent_month))} of {esc(budget.money(verdict.monthly))}.'
            + ("" if verdict.allowed else f' <span class="badge">paused: {esc(verdict.reason)}</span>') + "</p>")


RUNS_LIMIT = 20  # runs listed before "show all": each is a few lines, the newest are the ones undone


def runs_section(v: View) -> str:
    """Every journalled change, newest first (``lh memory history``), cut at RUNS_LIMIT with the line
    every cut list of the page has, unless the page was asked for everything."""
    every = memory_lists.runs(v.project)
    if not every:
        return _empty("No change recorded (consolidations, forget, close).")
    cut = None if v.everything else RUNS_LIMIT
    rows = []
    for data in every[:cut]:
        where, made = data.get("elsewhere") or (None, data.get("changes") or [])
        changes = "".join(f"<li>{esc(c)}</li>" for c in made)
        action = (f'<span class="badge">{esc(where)}</span>' if where  # why no undo: not this journal's
                  else f'<span class="badge">undone {esc(data["undone"])}</span>' if data.get("undone")
                  else '<span class="badge">a hold: Approve or Forget above ends it</span>'
                  if data.get("kind") == "hold" else v.act("undo", "Undo", "Undo this run?", run=data["run"]))
        moved = (f'<span class="meta">journaled in {esc(journal.folder(data["earlier"]))} before the '
                 'project moved to this folder</span> ' if data.get("earlier") else "")
        rows.append(f'<li class="run" data-run="{esc(data["run"])}">'
                    f'<div class="line"><code>{esc(data["run"])}</code> '
                    f'<b>{esc(data.get("kind", "?"))}</b> '
                    f'<span class="meta">{esc(when_of(data.get("started")))}</span> '
                    f'{moved}{action}</div><ul>{changes}</ul></li>')
    return f'<ul class="runs">{"".join(rows)}</ul>{_more(v, "runs", cut, len(every), 0)}'


# (anchor, title, function): the page's sections, in order
def held_section(v: View) -> str:
    """Entries held for approval (ADR 0024): what the hold check kept from every session, with why
    and where each came from; and the learnings sessions wrote that wait for approval to be used in
    other projects (ADR 0032). Approve releases one, forget drops it."""
    from lazy_harness.memory import approval_key, state

    # held_review.listing, kept while the store is unchanged
    found = held_and_usage.held(v.project, state.policy(v.cfg))
    if not found:
        return _empty("Nothing held for approval.")
    cut = None if v.everything else LIMIT
    refused = memory_lists.forget_refusals(v.project) if any(h["kind"] == "learning" for h in found[:cut]) else {}
    rows = []
    for h in found[:cut]:
        said = f"held: {h['reason']}" if h["state"] == state.HELD else state.WAITS
        if h["state"] != state.HELD and approval_key.NOT_HERE in str(h.get("reason") or ""):
            said += f" ({approval_key.NOT_HERE})"  # why: an approval that is not this person's (ADR 0052)
        head = (f'<span class="kind">{esc(h["kind"])}</span> <span class="meta">{esc(said)}; '
                f'{esc(from_origin(h["origin"]))}</span>')
        body = f'{text(h["text"], "p")}<p class="meta">{esc(h["file"])}</p>'
        question = ("Use this learning in every project?" if h["state"] != state.HELD or h.get("crosses")
                    else "Show this entry to sessions again?")  # why: a general one crosses once approved
        forget = ("Forget this entry?" if h["kind"] != "learning" else entry_names.EVERYWHERE
                  if h["state"] != state.HELD or h.get("crosses") else "Forget this learning?")
        # why no Approve on one held for a secret: approve refuses it; its message says what to edit
        approve = (f'<p class="meta refused">lh memory approve refuses {esc(h["id"])}: {esc(h["approve_refused"])}</p>'
                   if h.get("approve_refused") else v.act("approve", "Approve", question, id=h["id"]))
        actions = approve + forget_or_why(v.act, forget, h["id"], refused.get(h["id"]))
        rows.append(_entry(h["id"], head, body, f'<div class="actions">{actions}</div>',
                           css=f"entry {h['state']}"))
    more = ""
    if cut is not None and len(found) > cut:
        link = esc(v.all_link("held"))
        more = (f'<p class="more">The first {cut} of {len(found)} (lh memory approve --all approves every waiting '
                f'learning): <a href="{link}">show all</a></p>')
    return f'<ul class="entries">{"".join(rows)}</ul>{more}'


def unassigned_section(v: View) -> str:
    """Project learnings written before keys were recorded that no project owns (two projects share
    their origin's name, or none has it), each with the command that gives it to one (ADR 0035)."""
    from lazy_harness import paths
    from lazy_harness.memory import owners

    mroot = paths.memory_root(v.cfg["memory"]["path"] or None, v.env)
    found = [h for h in owners.orphans(mroot, v.project.learnings_dir, v.env) if h["owner"] is None]
    if not found:
        return _empty("Every project learning has its project.")
    cut = None if v.everything else LIMIT
    rows = []
    for h in found[:cut]:  # newest first
        where = ", ".join(h["candidates"]) or "no project of that name here"
        head = f'<span class="kind">learning</span> <span class="meta">from {esc(h["origin"])}: {esc(where)}</span>'
        # why: one that holds a secret is named redacted, as every list names it (ADR 0062)
        title = held_shown.text(h.get("title") or "", memory_lists.learning_secret(h["path"]))
        body = (f'{text(title, "p")}'
                f'<p class="meta"><code>lh memory assign {esc(h["id"])} --project KEY_OR_FOLDER</code></p>')
        rows.append(_entry(h["id"], head, body, css="entry held"))
    return f'<ul class="entries">{"".join(rows)}</ul>{_more(v, "unassigned", cut, len(found), 0)}'


SECTIONS = [
    ("held", "Held for approval", held_section),
    ("unassigned", "Learnings without a project", unassigned_section),
    ("handoff", "Open handoff items", handoff_section),
    ("decisions", "Decisions", decisions_section),
    ("failures", "Failures and their prevention", failures_section),
    ("learnings", "Learnings", learnings_section),
    ("search", "What a prompt gets", search_section),
    ("injected", "Injected into recent sessions", injected_section),
    ("usage", "Usage: shown against used", lambda v: usage_section.section(v, _titles, _entry)),
    ("queue", "Queue", queue_section),
    ("spend", "Spend per day", spend_section),
    ("runs", "Changes, and undo", runs_section),
]
ANCHORS = frozenset(a for a, _, _ in SECTIONS)  # the sections an action may send the browser back to


def page(v: View) -> str:
    """The whole page: header with the project picker, notes from the last action, every section."""
    options = "".join(
        f'<option value="{esc(p.key)}"{" selected" if p.key == v.project.key else ""}>{esc(label)}</option>'
        for p, label in zip(v.projects, reading.labels(v.projects), strict=True))
    picker = (f'<form class="picker" method="get" action="{esc(v.base)}/"><label>Project <select name="project">'
              f'{options}</select></label><button type="submit">Show</button></form>')
    nav = " ".join(f'<a href="#{a}">{esc(t)}</a>' for a, t, _ in SECTIONS)
    notes = "".join(f'<p class="flash">{esc(n)}</p>' for n in v.notes)
    parts = []
    for a, t, fn in SECTIONS:
        v.section = a  # why: each action form says the section it is in, where the page comes back to
        parts.append(f'<section id="{a}"><h2>{esc(t)}</h2>{fn(v)}</section>')
    v.section = None
    body = "".join(parts)
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<meta name="color-scheme" content="light dark"><title>lh ui: {esc(v.project.name)}</title>'
            f'<link rel="stylesheet" href="{esc(v.base)}/static/ui.css">'
            f'<script src="{esc(v.base)}/static/ui.js" defer></script></head>'
            f'<body><header><h1>lazy-harness memory: <span class="project">{esc(v.project.name)}</span></h1>'
            f'{picker}<p class="meta">{esc(v.project.memory_dir)}</p><nav>{nav}</nav></header>'
            f'<main>{notes}{body}</main></body></html>')


def project_of(projects: list[reading.Project], key: str | None) -> reading.Project:
    """The project named by ``key`` among the listed ones; the current folder's by default."""
    return next((p for p in projects if p.key == key), projects[0]) if key else projects[0]

