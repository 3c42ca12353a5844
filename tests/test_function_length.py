"""No function in src is longer than 60 lines (house style: a function past ~60 lines is split along
what it does). Every function and method is read with ``ast``, nested ones too; its length runs from
its ``def`` line to its last line, decorators excluded (a decorator says how it is called, not what it
does). There is no list of exceptions."""

import ast
import os

import lazy_harness

SRC = os.path.dirname(os.path.abspath(lazy_harness.__file__))
LIMIT = 60


def long_functions(source: str, path: str = "<src>") -> list[str]:
    """``path:line name (N lines)`` for each function of ``source`` longer than :data:`LIMIT`."""
    found = []
    for node in ast.walk(ast.parse(source, path)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            if length > LIMIT:
                found.append(f"{path}:{node.lineno} {node.name} ({length} lines)")
    return found


def _sources():
    for folder, dirs, names in os.walk(SRC):
        dirs.sort()
        for name in sorted(names):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as fh:
                    yield os.path.relpath(path, os.path.dirname(SRC)), fh.read()


def test_no_function_in_src_is_longer_than_60_lines():
    found = [line for path, text in _sources() for line in long_functions(text, path)]
    assert not found, "split these along what they do:\n" + "\n".join(found)


def _function(name: str, lines: int, decorators: int = 0, indent: str = "") -> str:
    body = "".join(f"{indent}    x{i} = {i}\n" for i in range(lines - 1))
    return "".join(f"{indent}@staticmethod\n" for _ in range(decorators)) + f"{indent}def {name}():\n" + body


def test_the_length_counts_from_def_to_the_last_line_without_decorators():
    assert long_functions(_function("fits", LIMIT, decorators=3)) == []
    assert long_functions(_function("over", LIMIT + 1)) == ["<src>:1 over (61 lines)"]


def test_methods_and_nested_functions_are_counted_too():
    method = "class A:\n" + _function("method", LIMIT + 1, indent="    ")
    nested = "def outer():\n" + _function("inner", LIMIT + 1, indent="    ") + "    return inner\n"
    assert long_functions(method) == ["<src>:2 method (61 lines)"]
    assert [f.split()[1] for f in long_functions(nested)] == ["outer", "inner"]
