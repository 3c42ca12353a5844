"""memory/ and worker/ are annotated throughout, and mypy holds them to it: every function says the
type of each parameter and of what it returns (``disallow_untyped_defs``, ``disallow_incomplete_defs``
in their own ``[[tool.mypy.overrides]]`` block). The names the annotations use cost the hooks nothing:
a memory module imports ``typing`` and ``memory.shapes`` only under ``if TYPE_CHECKING:``."""

import ast
import os
import tomllib

import pytest

import lazy_harness

SRC = os.path.dirname(os.path.abspath(lazy_harness.__file__))
ROOT = os.path.dirname(os.path.dirname(SRC))
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
