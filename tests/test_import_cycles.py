"""No import cycle among the modules of src/lazy_harness, not even through an import inside a
function: a lazy import is still a dependency, and a cycle through one only waits for the day the
import moves to the top. The graph is read with ``ast``; ``from . import x`` and ``from .pkg import
y`` are resolved like the interpreter does, and ``from a import b`` counts as ``a.b`` when b is a
module, else as ``a``."""

import ast
import os

import lazy_harness

SRC = os.path.dirname(os.path.abspath(lazy_harness.__file__))


def _module_name(root: str, path: str) -> str:
    rel = os.path.relpath(path, os.path.dirname(root))[:-3].replace(os.sep, ".")
    return rel[: -len(".__init__")] if rel.endswith(".__init__") else rel


def modules_under(root: str) -> dict[str, str]:
    """Dotted module name -> file, for every ``.py`` under the package folder ``root``."""
    found = {}
    for folder, _, names in os.walk(root):
        for name in names:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                found[_module_name(root, path)] = path
    return found


def _base_of(module: str, path: str, level: int) -> str:
    """The package a relative import of ``level`` dots starts from."""
    package = module if os.path.basename(path) == "__init__.py" else module.rpartition(".")[0]
    for _ in range(level - 1):
        package = package.rpartition(".")[0]
    return package


def imports_of(module: str, path: str, modules: dict[str, str]) -> set[str]:
    """The modules of ``modules`` that ``module`` (at ``path``) imports, anywhere in its body."""
    with open(path, encoding="utf-8") as fh:
        tree = ast.parse(fh.read(), path)
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = _base_of(module, path, node.level)
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            for a in node.names:
                full = f"{source}.{a.name}"
                out.add(full if full in modules else source)
    return {n for n in out if n in modules and n != module}


def graph_of(root: str) -> dict[str, set[str]]:
    modules = modules_under(root)
    return {m: imports_of(m, p, modules) for m, p in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (as a path that comes back to its start) per strongly connected component that
    has more than one module (Tarjan's algorithm, iterative so deep graphs do not hit the limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.add(top)
                    if top == node:
                        break
                if len(component) > 1:
                    components.append(component)
    return [_a_cycle_in(graph, c) for c in components]


def _a_cycle_in(graph: dict[str, set[str]], component: set[str]) -> list[str]:
    """A shortest path from the component's first module back to itself, inside the component."""
    start = min(component)
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph[node] & component):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [*reversed(path), start]
                if child not in previous:
                    previous[child] = node
                    following.append(child)
        frontier = following
    raise AssertionError(f"no cycle in {sorted(component)}")  # a component always has one


def _write(root, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_the_reader_resolves_relative_lazy_and_submodule_imports(tmp_path):
    pkg = tmp_path / "pkg"
    _write(pkg, {"__init__.py": "from .a import f\n", "a.py": "def f():\n    from . import b\n",
                 "b.py": "", "sub/__init__.py": "", "sub/c.py": "from .. import a\nfrom ..sub import d\n",
                 "sub/d.py": "import pkg.b\n"})
    graph = graph_of(str(pkg))
    assert graph == {"pkg": {"pkg.a"}, "pkg.a": {"pkg.b"}, "pkg.b": set(), "pkg.sub": set(),
                     "pkg.sub.c": {"pkg.a", "pkg.sub.d"}, "pkg.sub.d": {"pkg.b"}}


def test_a_cycle_through_a_package_init_and_a_lazy_import_is_named(tmp_path):
    pkg = tmp_path / "pkg"
    _write(pkg, {"__init__.py": "", "q/__init__.py": "from .produce import put\n",
                 "q/produce.py": "from pkg import retain\n",
                 "retain.py": "def keep():\n    from pkg.q import put\n", "free.py": "import pkg.retain\n"})
    assert cycles(graph_of(str(pkg))) == [["pkg.q", "pkg.q.produce", "pkg.retain", "pkg.q"]]


def test_no_import_cycle_among_src_modules():
    found = cycles(graph_of(SRC))
    assert not found, "import cycles: " + "; ".join(" -> ".join(c) for c in found)
