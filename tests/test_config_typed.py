"""lazy_harness.config.typed: the TypedDicts and the schema say the same thing, so they cannot drift.

mypy checks every ``cfg["table"]["key"]`` against the TypedDicts; these tests check the TypedDicts
against :data:`~lazy_harness.config.schema.SCHEMA`: each table and key of the schema has its field,
with the type the schema names, and no field is extra.
"""

import typing

import pytest

from lazy_harness import config
from lazy_harness.config import typed
from lazy_harness.config.schema import SCHEMA

# the Python type of each schema type: "num" is an int or a float, which mypy reads as float
PYTHON_TYPE = {"bool": bool, "int": int, "str": str, "num": float, "list": list[str]}


def tables() -> dict[str, type]:
    hints = typing.get_type_hints(typed.Config)
    return {name: hint for name, hint in hints.items() if name != config.INVALID}


def test_every_table_of_the_schema_has_its_typed_table_and_no_other():
    assert sorted(tables()) == sorted(SCHEMA)
    assert all(typing.is_typeddict(t) for t in tables().values())


def test_the_one_field_beside_the_tables_is_load_fasts_problem_and_optional():
    assert typing.get_type_hints(typed.Config)[config.INVALID] is str
    assert typed.Config.__optional_keys__ == frozenset({config.INVALID})
    assert typed.Config.__required_keys__ == frozenset(SCHEMA)


@pytest.mark.parametrize("section", sorted(SCHEMA))
def test_each_key_has_its_field_with_the_schemas_type_and_no_field_is_extra(section):
    table = tables()[section]
    fields = typing.get_type_hints(table)
    assert sorted(fields) == sorted(SCHEMA[section]), section
    wrong = {key: (fields[key], kind) for key, (kind, _, _) in SCHEMA[section].items()
             if fields[key] != PYTHON_TYPE[kind]}
    assert not wrong, f"{section}: typed field vs schema type: {wrong}"
    assert table.__required_keys__ == frozenset(SCHEMA[section])  # defaults fill every key in


def test_the_defaults_have_the_typed_fields_types():
    values = config.defaults()
    for section, table in tables().items():
        for key, hint in typing.get_type_hints(table).items():
            origin = typing.get_origin(hint) or hint
            allowed = (int, float) if hint is float else origin
            value = values[section][key]
            assert isinstance(value, allowed) and (hint is bool or not isinstance(value, bool)), (section, key)


def test_the_loaders_are_annotated_with_the_typed_view():
    # why: with ``from __future__ import annotations`` the annotation is the name as written; the
    # module imports the type only for mypy, so the hooks never import typing
    for loader in (config.load, config.load_fast, config.defaults):
        assert loader.__annotations__["return"] == "Config", loader.__name__
    assert config.invalid.__annotations__["cfg"] == "Config"


def test_the_typed_view_imports_nothing_of_ours():
    # why: tests/test_layering.py lets every room name it (a store function takes the config)
    import ast

    with open(typed.__file__, encoding="utf-8") as fh:
        tree = ast.parse(fh.read())
    ours = [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
            and any("lazy_harness" in (getattr(node, "module", None) or a.name) for a in node.names)]
    assert not ours
