"""What one typed prompt would get, and why (``lh memory show --prompt``, the search of ``lh ui``): the
hook's text (``recall.context_for``) and the ranked candidates with the bar they met or missed."""

from __future__ import annotations

from lazy_harness import paths
from lazy_harness.recall.index import lookup
from lazy_harness.recall.prompt import rank, worth_searching
from lazy_harness.recall.prompt import recall as recall_prompt

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection, Mapping
    from typing import Any

    from lazy_harness.config.typed import Config, RecallConfig

SHOWN = 15  # candidates listed under the text
SEARCH = {"exact": "every entry holding its words scored",
          "bounded": f"the best {lookup.CHAMPIONS} entries of each of its words' lists scored"}


def report(prompt: str, cwd: str, cfg: Config, env: Mapping[str, str] | None,
           place: tuple[str, str, str] | None = None, session: str = "", transcript: str = "",
           started: frozenset[str] = frozenset()) -> dict[str, Any]:
    """``{"for", "nothing"}`` when the prompt gets no search; else ``{"for", "text", "why": :func:`header`,
    "none", "ranked": the first SHOWN candidates with ``why``, "indexed"}``. ``session``: that session's
    next prompt (``transcript``: a fork's parents); else a new session's first after ``started``."""
    from lazy_harness.memory import lineage
    from lazy_harness.recall.prompt import already_shown

    settings = cfg["recall"]
    already = already_shown.read(env, session) if session else started
    own = lineage.own(env, session, transcript, write=False)
    said = {"for": f"(what the next prompt of session {session} gets: it was shown {len(already)} entries "
                   "before, and its own entries are left out)" if session else
            f"(what a new session's first prompt gets, after SessionStart showed {len(already)} entries; "
            "--session ID: what that session's next prompt gets)"}
    if not settings["enabled"]:
        return {**said, "nothing": f"Prompts receive nothing: recall.enabled is false ({paths.config_file(env)})."}
    why = worth_searching.skip_reason(prompt, settings)
    if why:
        return {**said, "nothing": f"This prompt receives nothing: {why}."}
    text, info = recall_prompt.context_for(prompt, cwd, cfg, env, already, deep=True, place=place, session=own)
    sem = info.get("semantic") or {"state": "off"}
    # why: the similarity bar's reasons for those it did not compare (rank.why); None when it did not run
    compared = set(sem.get("compared") or ()) if sem["state"] == "scored" else None
    shown = info["ranked"][:SHOWN]
    for c in shown:
        c["why"] = rank.why(c, settings, info["project"], compared)
    left_out(shown, info, already, bool(session), settings)
    return {**said, "text": text, "why": header(info, settings), "none": None if text else nothing_because(info),
            "ranked": shown, "indexed": info["indexed"]}


def left_out(shown: list[dict[str, Any]], info: Mapping[str, Any], already: Collection[str], session: bool,
             settings: RecallConfig) -> None:
    """Each passing candidate not in the text gets ``left`` (``shown``, ``no room``) and why, in ``why``."""
    kept = {c["id"] for c in info["kept"]}
    admitted = {c["id"] for c in info["admitted"]}  # within recall.max_items
    for c in shown:
        if not c["passes"] or c["id"] in kept:
            continue
        if c["id"] in already:
            c["left"], why = "shown", ("already shown to this session (at its start or by an earlier prompt), "
                                       "never repeated" if session else
                                       "SessionStart's digest shows it to a new session first, never repeated")
        elif c["id"] in admitted:
            c["left"], why = "no room", (f"no room within recall.max_chars {info['max_chars']}"
                                         + (" after the entries before it" if kept else ""))
        else:
            most = max(0, int(settings["max_items"]))
            c["left"], why = "no room", f"no room: recall.max_items is {most}" + (
                ", taken by the entries before it" if most else "")
        c["why"] = f"{why}; it passes the bar: {c['why']}"


def header(info: Mapping[str, Any], settings: RecallConfig) -> str:
    """The ``==== why`` line: the prompt's terms, which entries the search scored, and the bar."""
    extra = int(settings["min_terms"]) + rank.OTHER_PROJECT
    weight = f", {settings['min_coverage']}% of their weight" if settings["min_coverage"] else ""
    lexical = (f"{settings['min_terms']} terms, {extra} for a general learning of another project, strength "
               f"{settings['min_score']:g}" + weight)
    sem = info.get("semantic") or {"state": "off"}
    terms = ", ".join(info.get("terms") or []) or "none"
    if info.get("search"):  # which entries the words' search scored (ADR 0049)
        terms += f"; search: {info['search']} ({SEARCH[info['search']]})"
    if info.get("own_session"):  # why: the table never lists them (hooks.log: own_session=)
        terms += f"; {info['own_session']} of this session's own entries left out before the bar"
    if sem["state"] != "scored":
        said = "" if sem["state"] == "off" else f"{recall_prompt.semantic_word(sem)}, so "
        return f"==== why (terms: {terms}; {said}bar: {lexical}) ===="
    asked, scored = sem["asked"], sem["scored"]
    others = f"; the {asked - scored} not embedded yet: {lexical}" if asked > scored else ""
    return (f"==== why (terms: {terms}; distinctive: {', '.join(info.get('distinct') or []) or 'none'}; "
            f"bar: similarity {settings['min_similarity']:g} "
            f"and 1 term, {1 + rank.OTHER_PROJECT} for a general learning of another project, with "
            f"{rank.BLEND:g} x strength and {rank.COVER:g} x coverage added; two distinctive words among "
            f"them or one with similarity {rank.ALONE:g}; of {rank.CROWD} or more entries holding the "
            f"same distinctive words, one {rank.STANDOUT:g} above the others' similarity; it compared {asked} "
            f"of the {len(info.get('ranked') or [])} candidates (those matching enough terms, one of them "
            f"distinctive), {scored} of them embedded{others}) ====")


def nothing_because(info: Mapping[str, Any]) -> str:
    """Why a prompt that was searched gets nothing, in one sentence ("when unsure, show less and say why")."""
    if info.get("index"):  # missing, or damaged and removed: nothing was searched
        return (f"there is no search index to search ({info['index']}); the worker writes it, or "
                "`lh memory reindex` does")
    if not info.get("terms"):
        return "no word of the prompt is worth searching for (all are stopwords)"
    if not info["ranked"]:
        if info.get("own_session"):  # why: they were there, and left out as this session's own
            return (f"the {info['own_session']} entries holding its words are this session's own, never "
                    "told back to it")
        if info.get("not_here"):  # why: "no entry holds its words" was untrue of a learning of no project
            return (f"the {info['not_here']} learning(s) holding its words are project learnings of another "
                    "project, or of none until assigned (`lh memory unassigned` names those)")
        return "no entry holds any of its words"
    if info.get("budget"):
        return f"{info['budget']}, so none of the entries that pass the bar is added"
    if info.get("passed"):
        return "what passes the bar was already shown to this session, or held back"
    if all(not c["anchors"] for c in info["ranked"]):
        shared = dict.fromkeys(t for c in info["ranked"] for t in c["matched"])
        return f"the entries it reaches share only everyday words with it ({', '.join(shared)}), which never pass alone"
    if out := recall_prompt.out_because(info):  # why: only what passed the bar is held, waits or is damaged
        return out
    best = info["ranked"][0]
    return f"no entry passes the bar; the first, {best['id']}: {best.get('why') or 'under the bar'}"
