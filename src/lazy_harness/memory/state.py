"""One state per entry, worked out from the files, the same in every view (ADR 0032).

    active      shown to sessions
    approved    the person approved it (``lh memory approve``), on this machine or with their key
                (ADR 0052): shown, the hold check passed over, and a learning shown in every project
    waiting     a general learning the person has not approved: shown in the project that wrote it,
                and in no other until they approve it (``[trust] cross_projects = "ask"``, the default).
                A session's, and also one whose frontmatter says ``via: hand`` or names no writer: a
                file's word is no proof (a clone of the sync remote writes any), this person's signed
                approval is (ADR 0032 as amended, ADR 0052)
    held        the hold check caught it (memory/trust.py): shown nowhere until approved
    forgotten   the person forgot it (``lh memory forget``): shown nowhere, found by ``lh memory search``
    superseded, merged, deprecated   consolidation replaced it
    damaged     a learning file empty, or with no frontmatter (a hand edit): it names no project, scope
                or status, so it is shown nowhere (one with text is shown everywhere with
                ``cross_projects = "auto"``), and an approval has no frontmatter to be written into;
                ``lh memory check`` names it and says what to do

Where each comes from: a decision, failure or open item from the marks naming it (marks.jsonl: forget,
supersede, merge, hold, approve); a learning from its frontmatter (``status``, ``deprecated_by``,
``deprecated_reason``, ``scope``; ``via`` and ``origin_session`` only say why one waits). The
person's word wins: a forget over a hold, an approval over the check, though not over a secret: one
the redactor finds in an entry's text holds it whatever else holds or approved it (ADR 0056). A
learning the check catches at read time and nobody recorded held yet (a hand edit, one older than the
check) is held too (:func:`with_verdict`); so is any entry the index's kept verdict holds (``lh memory
search``).

An approval counts only when this person made it (memory/approval.py, ADR 0052): an ``approve`` mark
or a learning's ``approved by hand`` without this person's MAC of the entry's text is not an approval.
A decision's, failure's or open item's marks are read here without their texts, so :func:`of_marks`
names one so marked ``approved``; the views (``lh memory held | show | search``, the page) and the
readers that let an entry past the hold check take its state from memory/held_review.py's ``States``, which
checks the MAC against the text (one that is not this person's: held, when the check holds the text).

Used by ``lh memory held | show | search``, the page, the SessionStart read-back and prompt recall.
Hot path: nothing imported at import time; memory/approval.py when a learning claims an approval.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from lazy_harness.config.typed import Config

ACTIVE, APPROVED, WAITING, HELD, FORGOTTEN = "active", "approved", "waiting", "held", "forgotten"
SUPERSEDED, MERGED, DEPRECATED, DAMAGED = "superseded", "merged", "deprecated", "damaged"
STATUSES = (ACTIVE, DEPRECATED, FORGOTTEN, HELD)  # what a learning's ``status`` holds: what the writers write
NO_FRONTMATTER, EMPTY = "no frontmatter", "empty"
ASK, AUTO = "ask", "auto"  # [trust] cross_projects
APPROVED_BY_HAND = "approved by hand"  # a learning's deprecated_reason once approved
HELD_PREFIX = "held: "  # a held learning's deprecated_reason: "held: <why>"
WAITS = "waits for your approval to be used in other projects"
CLAIMS_HAND = "claims to be written by hand, not signed by this person"  # ``via: hand`` without an approval
NAMES_NOBODY = "names neither a session nor the person that wrote it, not signed by this person"
SHOWN = (ACTIVE, APPROVED)  # shown in every project where the entry belongs


def policy(cfg: Config) -> str:
    """``[trust] cross_projects`` of a config: ``ask`` (the default) or ``auto``."""
    return AUTO if cfg.get("trust", {}).get("cross_projects") == AUTO else ASK


def of_marks(named: list[dict] | None) -> tuple[str, str]:
    """(state, detail) of a decision, failure or open item from the marks naming it, in file order."""
    ops: dict[str, dict] = {}
    for m in named or ():
        ops.setdefault(str(m.get("op")), m)
    if "forget" in ops:
        return FORGOTTEN, str(ops["forget"].get("reason") or "")
    if "supersede" in ops:
        return SUPERSEDED, f"by {ops['supersede'].get('by')}"
    if "merge" in ops:
        return MERGED, f"into {ops['merge'].get('by')}"
    if "hold" in ops:
        return HELD, str(ops["hold"].get("reason") or "?")
    if "approve" in ops:
        return APPROVED, ""
    return ACTIVE, ""


def _given(value: object) -> str:
    """A frontmatter value as text; YAML's null ('null', '~', as ``read_frontmatter_values`` leaves
    it) as ''."""
    text = "" if value is None else str(value).strip()
    return "" if text in ("null", "Null", "NULL", "~") else text


def claims_approval(meta: dict) -> bool:
    """Whether a learning's frontmatter says it was approved (by anyone: see :func:`approved_learning`)."""
    return _given(meta.get("deprecated_reason")).startswith(APPROVED_BY_HAND)


def approved_learning(meta: dict, text: str | None = None, path: str | None = None,
                      env: Mapping[str, str] | None = None) -> bool:
    """Whether the person approved this learning, here (ADR 0052): its frontmatter says approved and
    carries this person's MAC of its text as it is now (``text`` with ``meta`` its whole frontmatter,
    else read from ``path`` or ``meta["path"]``); an approval written by another machine or a synced
    file is not theirs. A head without a file or text to check is not approved."""
    if not claims_approval(meta):
        return False
    from lazy_harness.memory import approval

    where = path or meta.get("path")
    return approval.learning_counts(_given(meta.get("deprecated_reason")), where if isinstance(where, str) else None,
                                    meta if text is not None else None, text, env)


def why_waiting(meta: dict) -> str:
    """Why a learning meant for other projects and not approved by this person waits (ADR 0032, as
    amended): a session's waits for consent; one that says it was written by hand, or names neither a
    session nor the person, proves nothing by saying so (any clone of the sync remote can write it),
    and says why it waits."""
    via = _given(meta.get("via"))
    if via == "hand":
        return f"{CLAIMS_HAND}; {WAITS}"
    if not via and not _given(meta.get("origin_session")):
        return f"{NAMES_NOBODY}; {WAITS}"
    return WAITS


def crosses(meta: dict) -> bool:
    """Whether a learning is meant for other projects too (any scope but ``project``)."""
    return str(meta.get("scope") or "").strip().lower() != "project"


def of_learning(meta: dict, cross: str = ASK, text: str | None = None,
                env: Mapping[str, str] | None = None) -> tuple[str, str]:
    """(state, detail) of a learning from its frontmatter (or a head read from it, with its ``path``).
    ``cross``: the ``[trust] cross_projects`` policy; with ``auto`` nothing waits. ``text``: what the
    hold check reads of it, when at hand (else an approval is checked against its file). ``env``: whose
    approval key counts (None: this process's environment)."""
    given = _given(meta.get("status"))
    status = given or "active"
    why = _given(meta.get("deprecated_reason"))
    by = _given(meta.get("deprecated_by"))
    if status == FORGOTTEN:
        return FORGOTTEN, why
    if status == HELD:
        return HELD, why.removeprefix(HELD_PREFIX) or "?"
    if status != "active" or by:
        return DEPRECATED, (f"{status if status != 'active' else DEPRECATED} for {by}" if by else status)
    if approved_learning(meta, text, env=env):
        return APPROVED, ""
    damage = "" if given else no_frontmatter(meta)  # why: a status is a frontmatter's (every start, each head)
    # why auto apart: the person lets every learning cross unasked; one without frontmatter is shown there
    # as before, titled and dated by its file name. An empty one has nothing to show in any project
    if damage == EMPTY or (damage and cross != AUTO):
        return DAMAGED, damage
    if cross != AUTO and crosses(meta):
        return WAITING, why_waiting(meta)
    return ACTIVE, ""


# the keys of which a learning's frontmatter (or a head read from it) gives one at least, also one written by hand
_ANY_KEY = ("status", "scope", "origin", "project_folder", "okey", "via", "origin_session", "deprecated_by",
            "deprecated_reason")


def no_frontmatter(meta: dict) -> str:
    """``EMPTY`` or ``NO_FRONTMATTER`` when a learning's file (``meta["path"]``) holds no text, or no
    frontmatter; '' when it has one, or cannot be read. Only a head that gives none of the keys a
    frontmatter names is looked at (its file's first bytes): the others cost nothing.
    why: such a file names no project, so it waited in every project for an approval that has no
    frontmatter to be written into (``lh memory approve`` refused it, SessionStart kept asking)."""
    path = meta.get("path")
    if not isinstance(path, str) or any(_given(meta.get(k)) for k in _ANY_KEY):
        return ""
    from lazy_harness.memory import frontmatter
    from lazy_harness.regular_file import open_regular

    try:
        # why open_regular: a FIFO in the learning's place held the session start in open() for good
        with open(open_regular(path)[0], encoding="utf-8-sig", errors="replace") as fh:
            text = fh.read(256)
            # why the rest: blanks first are no empty file yet; text after them opens no frontmatter
            rest = "" if text.strip() else fh.read(1 << 20)
    except OSError:
        return ""
    if not text.strip():
        return NO_FRONTMATTER if rest.strip() else EMPTY
    return "" if frontmatter.opens(text) else NO_FRONTMATTER


def with_verdict(state: tuple[str, str], verdict: str | None, secret: str | None = None) -> tuple[str, str]:
    """The state once the hold check's ``verdict`` on the entry's text is known: an entry shown (or
    waiting) that the check holds is held; the person's word (approved, forgotten) stands. ``secret``:
    the redactor's finding in the text (``trust.secret``), which holds the entry whatever else holds or
    approved it (ADR 0056): an approval does not stand over it, and a held entry's reason names it too."""
    if verdict and state[0] in (ACTIVE, WAITING):
        state = HELD, verdict
    if not secret or state[0] not in (ACTIVE, APPROVED, WAITING, HELD) or secret in state[1]:
        return state
    return HELD, (f"{state[1]}; {secret}" if state[0] == HELD and state[1] else secret)


def written_in(meta: dict, key: str | frozenset[str] | None, project: str) -> bool:
    """Whether a learning was written in this project: by the memory key recorded with it (``key``: one
    memory key, or a project's keys, its own and its aliases: memory/aliases.py), else (one written
    before keys were recorded) by its origin's name."""
    recorded = meta.get("project_folder") if "project_folder" in meta else meta.get("okey")
    if isinstance(recorded, str) and recorded and key is not None:
        from lazy_harness.memory import provenance

        return provenance.is_key(recorded, key)
    return str(meta.get("origin") or "") == project


def reaches(state: str, own: bool) -> bool:
    """Whether an entry in ``state`` is shown to a session: approved or active ones, a waiting one only
    in the project that wrote it (``own``)."""
    return state in SHOWN or (state == WAITING and own)


def label(state: tuple[str, str], own: bool = False) -> str:
    """How a view tags an entry (``lh memory show`` and ``search``, the page): '' when shown as it is;
    a waiting learning only where it is not used (``own`` False)."""
    name, detail = state
    if name in (ACTIVE, APPROVED) or (name == WAITING and own):
        return ""
    if name == WAITING:
        return "waiting: approve for other projects"
    if name in (SUPERSEDED, MERGED):
        return f"{name} {detail}"
    if name == HELD:
        return f"held: {detail}" if detail else HELD
    if name == DAMAGED:
        return f"{detail or name}: shown to no session, lh memory check"
    return (detail or name) if name == DEPRECATED else name
