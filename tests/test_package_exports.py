"""A package's ``__init__`` that re-exports (imports a name it does not use itself, so callers read
it as ``package.X``) says so in ``__all__``, and never re-exports a private name: a caller of a
private name imports it from the module that defines it."""

import ast
import os

import lazy_harness

SRC = os.path.dirname(os.path.abspath(lazy_harness.__file__))


def _declared_all(tree: ast.Module) -> list[str] | None:
    for node in tree.body:
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AnnAssign) else [])
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            return list(ast.literal_eval(node.value))
    return None


def _imported(tree: ast.Module) -> dict[str, int]:
    """Names bound by the module's top-level imports -> line (``from __future__`` aside)."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module != "__future__":
            out |= {(a.asname or a.name): node.lineno for a in node.names if a.name != "*"}
        elif isinstance(node, ast.Import):
            out |= {(a.asname or a.name.split(".")[0]): node.lineno for a in node.names}
    return out


def _used(tree: ast.Module) -> set[str]:
    """Names the module itself reads (a bare name, or the head of ``name.attr``)."""
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def problems(path: str) -> list[str]:
    with open(path, encoding="utf-8") as fh:
        tree = ast.parse(fh.read(), path)
    declared = _declared_all(tree)
    imported, used = _imported(tree), _used(tree)
    reexported = {name: line for name, line in imported.items() if name not in used}
    out = []
    if reexported and declared is None:
        out.append(f"re-exports {sorted(reexported)} without __all__")
    for name in sorted(set(declared or ()) | set(reexported)):
        if name.startswith("_") and name not in ("__version__",):
            out.append(f"re-exports the private name {name}")
    for name in sorted(set(reexported) - set(declared or ())):
        if declared is not None:
            out.append(f"imports {name} (line {reexported[name]}) unused and not in __all__")
    lazy = any(isinstance(n, ast.FunctionDef) and n.name == "__getattr__" for n in tree.body)
    for name in sorted(set(declared or ()) - set(imported)):
        if not lazy and not any(name in _bound_by(n) for n in tree.body):
            out.append(f"__all__ names {name}, which the module does not bind")
    return out


def _bound_by(node: ast.stmt) -> set[str]:
    if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        return {node.name}
    return {t.id for t in getattr(node, "targets", []) if isinstance(t, ast.Name)}


def package_inits() -> list[str]:
    return sorted(os.path.join(folder, "__init__.py") for folder, _, names in os.walk(SRC) if "__init__.py" in names)


def test_the_reader_flags_a_re_export_without_all_and_a_private_one(tmp_path):
    bare = tmp_path / "bare.py"
    bare.write_text("import os\nfrom pkg.task import folder, _tmp_path\n\ndef here():\n    return os.sep\n")
    assert problems(str(bare)) == ["re-exports ['_tmp_path', 'folder'] without __all__",
                                   "re-exports the private name _tmp_path"]
    declared = tmp_path / "declared.py"
    declared.write_text("from pkg.task import folder, read\n__all__ = ['folder', '_x', 'gone']\n_x = 1\n")
    assert problems(str(declared)) == ["re-exports the private name _x",
                                       "imports read (line 1) unused and not in __all__",
                                       "__all__ names gone, which the module does not bind"]
    used = tmp_path / "used.py"
    used.write_text("from pkg.task import _tmp_path\n\ndef f():\n    return _tmp_path\n")
    assert problems(str(used)) == []
    lazy = tmp_path / "lazy.py"
    lazy.write_text("__all__ = ['check']\n\ndef __getattr__(name):\n"
                    "    from pkg import validate\n    return getattr(validate, name)\n")
    assert problems(str(lazy)) == []  # a name the module serves at first use (PEP 562)


def test_every_package_init_declares_what_it_re_exports_and_nothing_private():
    found = {os.path.relpath(p, SRC): problems(p) for p in package_inits()}
    assert not {k: v for k, v in found.items() if v}
