"""The folders read as the data flow (hooks -> queue -> worker -> memory; cli -> everything but the
hooks): a room imports only the rooms below it. Every package and every module of src is in a room
or in the base; every import of every module is read with ``ast``, those inside functions too,
since a lazy import is still a dependency."""

import ast
import functools
import os

import pytest

import lazy_harness

SRC = os.path.dirname(os.path.abspath(lazy_harness.__file__))
# the lowest modules: anyone may import them
BASE = {"lazy_harness", "lazy_harness.paths", "lazy_harness.atomic", "lazy_harness.jsonload",
        "lazy_harness.logfile", "lazy_harness.errors", "lazy_harness.detach", "lazy_harness.project_identity",
        "lazy_harness.private", "lazy_harness.sha",
        # why: the one way a file is opened without waiting and refused unless regular (os only)
        "lazy_harness.regular_file",
        # why: what a run read and whether it still reads the same (os, sys): the start's kept read-back
        "lazy_harness.read_record",
        # why: the check of a transcript's bytes up to an offset, kept by the cursor and by a learning (hashlib, os)
        "lazy_harness.part_check",
        # why: how a remote's spellings are read as one, for project_identity (text in, text out)
        "lazy_harness.remote_spelling",
        # why: what to run for a folder private.py refuses, loaded by private.fix only once one is refused
        "lazy_harness.private_fix",
        # why: where a scratch folder handed to another program is made (private's rule on TMPDIR): the worker's
        # codex call and the hooks' install share it (paths, private, errors, tempfile)
        "lazy_harness.scratch",
        # why: which command of a hooks file is ours, one rule for settings.is_ours and the hooks' rare
        # path (hooks.settings_commands); it imports nothing
        "lazy_harness.hook_command",
        # why: the hooks' modules compiled into one file (ADR 0050): imports nothing of ours at run time;
        # the hook's launcher installs it, lh hooks install and the worker write it
        "lazy_harness.hotload",
        # why: config.toml's shape for mypy (ADR 0048), imported only under TYPE_CHECKING; it imports
        # nothing of ours, so a store function that takes the config (memory.state, cost.budget) names it
        "lazy_harness.config.typed"}
# what each room may import besides itself and BASE
RULES = {
    # why redact (a leaf: it imports nothing of ours): the store keeps no secret it can see, a
    # journal's undo copies are stored redacted (ADR 0015) and the hold check holds an entry the
    # redactor would change (ADR 0056)
    "lazy_harness.memory": {"lazy_harness.redact"},
    "lazy_harness.config": set(),
    "lazy_harness.redact": set(),
    "lazy_harness.proc": set(),
    # the spend ledger and the cap read from it: written by the worker, read by the page and the CLI
    # why notice: the pause the page and the CLI tell (cost.paused) honours the worker's paused notice, the
    # cap its next call would pass, which only the worker can price; the notice imports nothing of cost
    "lazy_harness.cost": {"lazy_harness.notice"},
    # a settings file: read, its new text (only "hooks" changes), written; our entries and install above them
    "lazy_harness.settings_read": set(),
    "lazy_harness.settings_splice_value": set(),
    "lazy_harness.settings_splice": {"lazy_harness.settings_splice_value"},
    "lazy_harness.settings_write": {"lazy_harness.settings_read"},
    "lazy_harness.settings": {"lazy_harness.settings_read", "lazy_harness.settings_splice",
                              "lazy_harness.settings_write"},
    "lazy_harness.plugin": {"lazy_harness.settings", "lazy_harness.settings_read"},
    # Codex's hooks.json is merged as settings.json is; trust through its app-server (ADR 0045)
    "lazy_harness.codex_trust": {"lazy_harness.settings", "lazy_harness.settings_write",
                                 "lazy_harness.codex_trust_listing", "lazy_harness.codex_trust_server"},
    # our hooks as its hooks/list lists them and why none, over the app-server's conversation
    "lazy_harness.codex_trust_listing": {"lazy_harness.settings", "lazy_harness.codex_trust_server"},
    "lazy_harness.codex_trust_server": set(),
    "lazy_harness.notice": {"lazy_harness.config"},
    "lazy_harness.queue": {"lazy_harness.config"},
    "lazy_harness.sync": {"lazy_harness.memory", "lazy_harness.redact", "lazy_harness.config", "lazy_harness.proc"},
    # the read side: what a session and a prompt get, the index, the resident answerer
    "lazy_harness.recall": {"lazy_harness.memory", "lazy_harness.config", "lazy_harness.proc"},
    # the worker starts its sync as a process (detach.spawn_sync), never imports it
    "lazy_harness.worker": {"lazy_harness.queue", "lazy_harness.memory", "lazy_harness.config",
                            "lazy_harness.proc", "lazy_harness.redact", "lazy_harness.notice", "lazy_harness.cost",
                            # why: the worker keeps the search index current, vectors included, so
                            # the next prompt finds the entries it just wrote embedded (recall.writer)
                            "lazy_harness.recall.index.writer",
                            # why: after a distillation the worker reads the memory as the next
                            # SessionStart will, so that start finds the hold check's verdicts kept,
                            # and keeps what it read for that start (prepared)
                            "lazy_harness.recall.readback.digest", "lazy_harness.recall.readback.prepared",
                            # why: the learned check (ADR 0046) reads a note through the static model
                            "lazy_harness.recall.embed.static_model"},
    "lazy_harness.hooks": {"lazy_harness.queue", "lazy_harness.memory", "lazy_harness.config",
                           "lazy_harness.notice", "lazy_harness.recall"},
    # the page of lh ui reads what the CLI reads and changes memory through the same functions
    "lazy_harness.ui": {"lazy_harness.memory", "lazy_harness.recall", "lazy_harness.queue", "lazy_harness.config",
                        "lazy_harness.cost"},
}
# the CLI (and ``python -m lazy_harness``) sits on top: every room but the hooks, which only Claude Code runs
TOP = {room for room in RULES if room != "lazy_harness.hooks"}
RULES["lazy_harness.cli"] = set(TOP)
RULES["lazy_harness.__main__"] = TOP | {"lazy_harness.cli"}


def _module_name(path: str) -> str:
    rel = os.path.relpath(path, os.path.dirname(SRC))[:-3].replace(os.sep, ".")
    return rel[: -len(".__init__")] if rel.endswith(".__init__") else rel


@functools.cache
def _modules() -> dict[str, str]:
    """Every module of src by name (walked once per run: every import looked up reads it)."""
    found = {}
    for folder, _, names in os.walk(SRC):
        for name in names:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                found[_module_name(path)] = path
    return found


def imports_of(path: str) -> set[str]:
    """Every ``lazy_harness`` module ``path`` imports (``from a import b`` counts as ``a.b`` when b
    is a module, else as ``a``)."""
    with open(path, encoding="utf-8") as fh:
        return imports_of_tree(ast.parse(fh.read(), path))


def _within(name: str, room: str) -> bool:
    return name == room or name.startswith(room + ".")


def _room_of(module: str) -> str | None:
    return next((room for room in RULES if _within(module, room)), None)


def _allowed(module: str, imported: str) -> bool:
    room = _room_of(module)
    allowed = BASE | RULES[room] | {room}
    return any(_within(imported, a) if a != "lazy_harness" else imported == a for a in allowed)


def test_the_reader_sees_lazy_imports_and_submodules(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("import os\nfrom lazy_harness import paths, queue\n\n"
                     "def f():\n    from lazy_harness.worker import loop\n    from lazy_harness.config import load\n")
    assert imports_of(str(probe)) == {"lazy_harness.paths", "lazy_harness.queue", "lazy_harness.worker.loop",
                                      "lazy_harness.config"}


def test_every_module_of_src_is_in_a_room_or_in_the_base():
    assert sorted(m for m in _modules() if m not in BASE and _room_of(m) is None) == []


def test_the_arrows_against_the_flow_would_be_caught():
    assert not _allowed("lazy_harness.recall.prompt.already_shown", "lazy_harness.queue")  # paths.safe_session_id
    assert not _allowed("lazy_harness.ui.reading", "lazy_harness.worker.ledger")  # cost.ledger
    assert not _allowed("lazy_harness.cli.memory", "lazy_harness.hooks.session_start")  # recall.digest
    assert not _allowed("lazy_harness.worker.loop", "lazy_harness.sync")  # detach.spawn_sync
    assert not _allowed("lazy_harness.queue.produce", "lazy_harness.worker")
    assert not _allowed("lazy_harness.memory.files", "lazy_harness.config")
    assert not _allowed("lazy_harness.config", "lazy_harness.memory")
    assert _allowed("lazy_harness.cli.memory", "lazy_harness.recall.readback.digest")


def test_a_worker_importing_a_hook_would_be_caught():
    assert not _allowed("lazy_harness.worker.llm", "lazy_harness.hooks.entry")
    assert not _allowed("lazy_harness.memory.store", "lazy_harness.queue")
    assert not _allowed("lazy_harness.hooks.stop", "lazy_harness.worker.loop")
    assert not _allowed("lazy_harness.hooks.stop", "lazy_harness.worker.spawn")  # enqueueing is the queue's
    assert _allowed("lazy_harness.hooks.stop", "lazy_harness.queue.submit")


@pytest.mark.parametrize("module", sorted(m for m in _modules() if _room_of(m)))
def test_a_room_imports_only_rooms_below_it(module):
    wrong = sorted(n for n in imports_of(_modules()[module]) if not _allowed(module, n))
    assert not wrong, f"{module} imports {wrong}"


# Inside recall (ADR 0047): each subpackage imports only those below it. The prompt decides what a
# typed prompt gets from the index and the vectors; the index is written and read without the prompt;
# SessionStart's read-back needs neither the prompt's ranking nor the index; the answerer runs the
# prompt's function (imported inside its functions: the hook's side of resident/ is on the hot path).
RECALL = "lazy_harness.recall"
RECALL_RULES = {
    f"{RECALL}.embed": set(),
    f"{RECALL}.index": {f"{RECALL}.embed"},
    f"{RECALL}.prompt": {f"{RECALL}.index", f"{RECALL}.embed"},
    f"{RECALL}.readback": {f"{RECALL}.embed"},
    f"{RECALL}.resident": {f"{RECALL}.prompt", f"{RECALL}.index", f"{RECALL}.embed"},
    # ``lh memory search``: the prompt's ranking without its bar, over the index as commands read it
    f"{RECALL}.search": {f"{RECALL}.prompt", f"{RECALL}.index"},
    RECALL: set(),  # the package's __init__: a docstring
}
# imports of another part of recall allowed only inside a function (not on the hook's import path)
RECALL_LAZY = {(f"{RECALL}.resident", f"{RECALL}.prompt")}


def _recall_part(module: str) -> str:
    return next((p for p in RECALL_RULES if p != RECALL and _within(module, p)), RECALL)


def _recall_allowed(module: str, imported: str, top_level: bool) -> bool:
    part, other = _recall_part(module), _recall_part(imported)
    if not _within(imported, RECALL) or other == part:
        return True
    return other in RECALL_RULES[part] and not (top_level and (part, other) in RECALL_LAZY)


def top_level_imports_of(path: str) -> set[str]:
    """The ``lazy_harness`` modules ``path`` imports at module level (what importing it costs)."""
    with open(path, encoding="utf-8") as fh:
        tree = ast.parse(fh.read(), path)
    probe = ast.Module(body=[n for n in tree.body if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                        ast.ClassDef))], type_ignores=[])
    return imports_of_tree(probe)


def imports_of_tree(tree: ast.AST) -> set[str]:
    modules = _modules()
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for a in node.names:
                full = f"{node.module}.{a.name}"
                out.add(full if full in modules else node.module)
    return {n for n in out if n == "lazy_harness" or n.startswith("lazy_harness.")}


def test_the_parts_of_recall_against_their_order_would_be_caught():
    assert not _recall_allowed(f"{RECALL}.embed.vectors", f"{RECALL}.index.store", False)
    assert not _recall_allowed(f"{RECALL}.index.store", f"{RECALL}.prompt.rank", False)  # prompt imports index
    assert not _recall_allowed(f"{RECALL}.readback.digest", f"{RECALL}.index.lookup", False)
    assert not _recall_allowed(f"{RECALL}.readback.digest", f"{RECALL}.prompt.admit", False)
    assert not _recall_allowed(f"{RECALL}.prompt.recall", f"{RECALL}.resident.client", False)
    assert not _recall_allowed(f"{RECALL}.resident.answerer", f"{RECALL}.prompt.recall", True)  # at top level
    assert _recall_allowed(f"{RECALL}.resident.answerer", f"{RECALL}.prompt.recall", False)  # in a function
    assert _recall_allowed(f"{RECALL}.prompt.rank", f"{RECALL}.index.lookup", True)
    assert _recall_allowed(f"{RECALL}.index.store", "lazy_harness.memory.trust", True)  # the room's rule


@pytest.mark.parametrize("module", sorted(m for m in _modules() if _within(m, RECALL)))
def test_a_part_of_recall_imports_only_the_parts_below_it(module):
    path = _modules()[module]
    top = top_level_imports_of(path)
    wrong = sorted(n for n in imports_of(path) if not _recall_allowed(module, n, n in top))
    assert not wrong, f"{module} imports {wrong}"


def test_the_init_of_recall_and_its_parts_hold_only_a_docstring():
    """Each is on the prompt hook's import path: an import there would cost every prompt."""
    inits = sorted(m for m in _modules() if _within(m, RECALL) and _modules()[m].endswith("__init__.py"))
    assert len(inits) == 6
    for module in inits:
        with open(_modules()[module], encoding="utf-8") as fh:
            body = ast.parse(fh.read()).body
        assert len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant), module


def test_nothing_imports_the_cli_or_click_but_the_cli():
    for module, path in sorted(_modules().items()):
        if _within(module, "lazy_harness.cli") or module == "lazy_harness.__main__":
            continue
        names = imports_of(path)
        assert not [n for n in names if _within(n, "lazy_harness.cli")], module
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read())
        plain = {a.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
        plain |= {node.module.split(".")[0] for node in ast.walk(tree)
                  if isinstance(node, ast.ImportFrom) and node.module and node.level == 0}
        assert "click" not in plain, module
