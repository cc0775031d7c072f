"""No class in the product (``protocol/``, ``server/``, ``client/``) is longer than
:data:`MAX_CLASS_LINES` lines, from its ``class`` line to its last, docstrings, comments
and blank lines included: a class past that does more than one thing, and is split
into parts named for what they do (issue 38: the room's parts, the hub's request
groups, the server's carrier, front door and upkeep)."""

from __future__ import annotations

import ast
from pathlib import Path

TOP = Path(__file__).resolve().parents[1]
PRODUCT = ("protocol", "server", "client")
MAX_CLASS_LINES = 400


def class_lengths(source: str) -> list[tuple[str, int, int]]:
    """Every class in ``source`` (nested ones too) as (name, first line, length)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            end = node.end_lineno if node.end_lineno is not None else node.lineno
            found.append((node.name, node.lineno, end - node.lineno + 1))
    return found


def test_no_product_class_is_longer_than_400_lines() -> None:
    too_long, seen = [], 0
    for folder in PRODUCT:
        for path in sorted((TOP / folder).rglob("*.py")):
            for name, line, length in class_lengths(path.read_text(encoding="utf-8")):
                seen += 1
                if length > MAX_CLASS_LINES:
                    too_long.append(f"{path.relative_to(TOP)}:{line} {name}: {length} lines")
    assert seen > 100  # the walk found the product's classes
    assert too_long == []


def test_the_measure_sees_a_long_class_and_a_nested_one() -> None:
    body = "".join(f"    x{n} = {n}\n" for n in range(MAX_CLASS_LINES))
    nested = "class Outer:\n    class Inner:\n        pass\n"
    lengths = {name: length for name, _, length in class_lengths(f"class Big:\n{body}" + nested)}
    assert lengths == {"Big": MAX_CLASS_LINES + 1, "Outer": 3, "Inner": 2}
