"""memory/ and worker/ are annotated throughout, and mypy holds them to it: every function says the
type of each parameter and of what it returns (``disallow_untyped_defs``, ``disallow_incomplete_defs``
in their own ``[[tool.mypy.overrides]]`` block). The names the annotations use cost the hooks nothing:
a memory module imports ``typing`` and ``memory.shapes`` only under ``if TYPE_CHECKING:``. So are the
packages above the store and the top-level modules (a block of their own; of recall/, the modules
named below, in a third), and
nothing loads the typed view of the config (config/typed.py) at run time (ADR 0048)."""

import ast
import os
import tomllib

import pytest


# why: the repository's files, not the installed package's: CI installs lazy-harness into a venv (no
# pyproject.toml beside it there), and these tests read the source and the mypy settings
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "src", "lazy_harness")
ANNOTATED = ("memory", "worker")


def _modules(package: str) -> list[str]:
    folder = os.path.join(SRC, package)
    return sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".py"))


def _tree(path: str) -> ast.Module:
    with open(path, encoding="utf-8") as fh:
        return ast.parse(fh.read(), path)


def _unannotated(tree: ast.Module) -> list[str]:
    """``name:line`` of each function (nested ones too) missing a parameter's or the return's type."""
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        a = node.args
        params = a.posonlyargs + a.args + a.kwonlyargs + [p for p in (a.vararg, a.kwarg) if p is not None]
        # why: mypy lets the first parameter of a method (self, cls) go without a type, as this does
        if params and params[0].arg in ("self", "cls") and params[0].annotation is None:
            params = params[1:]
        if node.returns is None or any(p.annotation is None for p in params):
            out.append(f"{node.name}:{node.lineno}")
    return out


def _checking_only(tree: ast.Module) -> set[int]:
    """Line numbers of the statements inside ``if TYPE_CHECKING:`` blocks."""
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for inner in node.body:
                lines.update(range(inner.lineno, (inner.end_lineno or inner.lineno) + 1))
    return lines


@pytest.mark.parametrize("package", ANNOTATED)
def test_every_function_says_its_types(package):
    missing = {os.path.basename(p): names for p in _modules(package) if (names := _unannotated(_tree(p)))}
    assert not missing, missing


def test_mypy_requires_the_annotations_of_memory_and_the_worker():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as fh:
        overrides = tomllib.load(fh)["tool"]["mypy"].get("overrides", [])
    ours = [o for o in overrides if "lazy_harness.memory.*" in o["module"]]
    assert len(ours) == 1, overrides
    assert sorted(ours[0]["module"]) == ["lazy_harness.memory.*", "lazy_harness.worker.*"]
    assert ours[0].get("disallow_untyped_defs") is True and ours[0].get("disallow_incomplete_defs") is True


# memory/shapes.py names the shapes with ``typing``: it is the module imported only for the checker
@pytest.mark.parametrize("path", [p for p in _modules("memory") if not p.endswith("shapes.py")], ids=os.path.basename)
def test_a_memory_module_imports_typing_only_for_the_checker(path):
    """The hooks load the store's read side (tests/hooks/test_entry_imports.py names the modules);
    ``typing`` would add milliseconds to every hook run, so no memory module imports it at run time."""
    tree = _tree(path)
    checking = _checking_only(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            continue
        if any(n == "typing" or n == "lazy_harness.memory.shapes" for n in names) and node.lineno not in checking:
            found.append(f"line {node.lineno}")
    assert not found, found


def test_the_shapes_module_is_never_loaded_at_run_time():
    """Every module of memory/ and worker/ imported: none of them loads memory/shapes.py (nor, for
    memory, ``typing``) outside the checker."""
    import subprocess
    import sys

    names = [f"lazy_harness.{pkg}.{os.path.basename(p)[:-3]}" for pkg in ANNOTATED for p in _modules(pkg)
             if not p.endswith(("__init__.py", "__main__.py", "shapes.py"))]
    code = (f"import importlib, sys\nfor n in {names!r}:\n    importlib.import_module(n)\n"
            "print('shapes' if 'lazy_harness.memory.shapes' in sys.modules else 'clean')")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    assert p.stdout.strip() == "clean"


# --- the packages above the store and the top-level modules (ADR 0048) ----------------------------------

ABOVE = ("cli", "ui", "hooks", "sync", "config", "cost", "queue", "redact")
TOP_LEVEL = ("paths", "notice", "jsonload", "codex_trust", "codex_trust_listing", "codex_trust_server", "private",
             "plugin", "settings", "settings_read", "settings_splice",
             "settings_splice_value", "settings_write", "logfile", "detach", "atomic",
             "proc", "errors", "project_identity", "remote_spelling", "hotload", "sha", "__main__", "private_fix",
             "regular_file", "hook_command", "part_check", "scratch", "read_record")


@pytest.mark.parametrize("package", ABOVE)
def test_every_function_above_the_store_says_its_types(package):
    missing = {os.path.basename(p): names for p in _modules(package) if (names := _unannotated(_tree(p)))}
    assert not missing, missing


def test_every_function_of_the_top_level_modules_says_its_types():
    missing = {m: names for m in TOP_LEVEL if (names := _unannotated(_tree(os.path.join(SRC, f"{m}.py"))))}
    assert not missing, missing


def test_mypy_requires_the_annotations_above_the_store():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as fh:
        overrides = tomllib.load(fh)["tool"]["mypy"].get("overrides", [])
    ours = [o for o in overrides if "lazy_harness.cli.*" in o["module"]]
    assert len(ours) == 1, overrides
    wanted = [f"lazy_harness.{p}.*" for p in ABOVE] + [f"lazy_harness.{m}" for m in TOP_LEVEL]
    assert sorted(ours[0]["module"]) == sorted(wanted)
    assert ours[0].get("disallow_untyped_defs") is True and ours[0].get("disallow_incomplete_defs") is True


def test_every_top_level_module_is_annotated_or_named_here():
    # why: a new top-level module joins the list above (and the overrides block) or says why not here
    found = sorted(n[:-3] for n in os.listdir(SRC) if n.endswith(".py") and n != "__init__.py")
    assert found == sorted(TOP_LEVEL)


def test_the_typed_config_is_never_loaded_at_run_time():
    """Every module of src but the CLI imported: none loads config/typed.py (the readers name its
    types for the checker only), so the hooks, the worker and the answerer never pay for it."""
    import subprocess
    import sys

    names = []
    for folder, _, files in os.walk(SRC):
        for n in files:
            rel = os.path.relpath(os.path.join(folder, n), os.path.dirname(SRC))[:-3].replace(os.sep, ".")
            if n.endswith(".py") and n != "__main__.py" and ".cli" not in rel and not rel.endswith("config.typed"):
                names.append(rel[: -len(".__init__")] if rel.endswith(".__init__") else rel)
    code = (f"import importlib, sys\nfor n in {sorted(names)!r}:\n    importlib.import_module(n)\n"
            "print('typed' if 'lazy_harness.config.typed' in sys.modules else 'clean')")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    assert p.stdout.strip() == "clean"


# --- recall/, module by module: these are annotated; the rest of recall/ is not yet --------------------

RECALL_ANNOTATED = ("recall/__init__.py", "recall/readback/__init__.py", "recall/readback/digest.py",
                    "recall/readback/learnings.py", "recall/resident/__init__.py", "recall/resident/client.py",
                    "recall/resident/answerer.py", "recall/embed/__init__.py", "recall/embed/static_model.py",
                    "recall/prompt/__init__.py", "recall/prompt/worth_searching.py", "recall/prompt/already_shown.py",
                    "recall/prompt/admit.py")
# the ones a hook loads (SessionStart, the prompt hook): tests/hooks/test_entry_imports.py names them
RECALL_HOT = tuple(p for p in RECALL_ANNOTATED if p != "recall/resident/answerer.py")


def _dotted(rel: str) -> str:
    name = "lazy_harness." + rel[:-3].replace("/", ".")
    return name[: -len(".__init__")] if name.endswith(".__init__") else name


@pytest.mark.parametrize("rel", RECALL_ANNOTATED)
def test_every_function_of_the_annotated_recall_modules_says_its_types(rel):
    assert not _unannotated(_tree(os.path.join(SRC, rel)))


def test_a_function_without_its_types_is_found():
    """The check above, on a function that lost a parameter's type, a return type, or both (nested
    and in a class too), and on one that kept them all."""
    tree = ast.parse("def a(x: int) -> int:\n    def b(y):\n        return y\n    return b(x)\n"
                     "class C:\n    def m(self, z) -> None: ...\n    def n(self) -> int: ...\n"
                     "def d(*args: int, **kw) -> None: ...\n")
    assert sorted(_unannotated(tree)) == ["b:2", "d:8", "m:6"]


@pytest.mark.parametrize("rel", RECALL_ANNOTATED)
def test_mypy_holds_the_annotated_recall_modules_to_their_annotations(rel):
    """Each is in an overrides block (by its own name, or a package's ``.*``, which names the package
    too) that turns on ``disallow_untyped_defs`` and ``disallow_incomplete_defs``."""
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as fh:
        overrides = tomllib.load(fh)["tool"]["mypy"].get("overrides", [])
    name = _dotted(rel)
    wanted = {name, name + ".*"} | {name.rsplit(".", k)[0] + ".*" for k in range(1, name.count("."))}
    blocks = [o for o in overrides if wanted & set([o["module"]] if isinstance(o["module"], str) else o["module"])]
    assert any(o.get("disallow_untyped_defs") is True and o.get("disallow_incomplete_defs") is True
               for o in blocks), (name, blocks)


def _imports_outside_the_checker(tree: ast.Module, banned: tuple[str, ...]) -> list[str]:
    checking = _checking_only(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            continue
        if any(n in banned for n in names) and node.lineno not in checking:
            found.append(f"line {node.lineno}")
    return found


def test_an_import_for_the_checker_is_told_from_one_at_run_time():
    tree = ast.parse("import os\nfrom typing import Any\nTYPE_CHECKING = False\nif TYPE_CHECKING:\n"
                     "    import typing\n    from lazy_harness.memory.shapes import Env\n"
                     "def f() -> None:\n    import sqlite3\n")
    assert _imports_outside_the_checker(tree, ("typing", "lazy_harness.memory.shapes", "sqlite3")) == [
        "line 2", "line 8"]


@pytest.mark.parametrize("rel", RECALL_HOT)
def test_a_hot_recall_module_names_its_types_for_the_checker_only(rel):
    """``typing``, the shapes and the typed config, ``sqlite3`` and ``socket`` are imported only under
    ``if TYPE_CHECKING:`` (where they are imported at all): the hooks load these modules."""
    banned = ("typing", "lazy_harness.memory.shapes", "lazy_harness.config.typed", "sqlite3", "socket")
    assert not _imports_outside_the_checker(_tree(os.path.join(SRC, rel)), banned)


def test_the_hot_recall_modules_load_no_type_names_at_run_time():
    """Imported without site (nothing a .pth file loads hides a module): no ``typing``, no shapes, no
    typed config, no ``sqlite3`` nor ``socket`` (house style section 3)."""
    import subprocess
    import sys

    names = [_dotted(rel) for rel in RECALL_HOT]
    code = (f"import importlib, sys\nfor n in {names!r}:\n    importlib.import_module(n)\n"
            "print(sorted(m for m in ('typing', 'lazy_harness.memory.shapes', 'lazy_harness.config.typed', "
            "'sqlite3', 'socket') if m in sys.modules))")
    env = dict(os.environ, PYTHONPATH=os.path.dirname(SRC))
    p = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 0, p.stderr[-2000:]
    assert p.stdout.strip() == "[]"
