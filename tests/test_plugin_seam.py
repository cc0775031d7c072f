"""A game is one plug-in (docs/adding-a-game.md): outside its own places no product
file names it, so adding a game is its own files and one line in the one list.

A game's places: ``server/games/<g>/``, ``protocol/games/<g>.py``,
``client/views/<g>.py``, ``client/tui/boards/<g>.py``, ``client/tk/boards/<g>.py``,
``client/web/js/boards/<g>.js`` and ``.css`` (and the translations). The one list is
``NAMES`` in ``protocol/games/__init__.py``; every registry is built from it.

"Names a game" is read in the code, not in prose: in Python an identifier, attribute,
import or string (docstrings and comments may use a game as an example); in
JavaScript, CSS and HTML any text outside comments. A name matches in any case and
spelling (``Link-match``, ``link_match``, ``LinkMatch``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from gridhall.protocol.games import GAMES, NAMES

TOP = Path(__file__).resolve().parents[1]
PRODUCT = ("protocol", "server", "client")
SUFFIXES = (".py", ".js", ".css", ".html")
ONE_LIST = TOP / "protocol" / "games" / "__init__.py"


def places(game: str) -> set[Path]:
    """The files that are ``game``'s own."""
    own = {
        TOP / "protocol" / "games" / f"{game}.py",
        TOP / "client" / "views" / f"{game}.py",
        TOP / "client" / "tui" / "boards" / f"{game}.py",
        TOP / "client" / "tk" / "boards" / f"{game}.py",
        TOP / "client" / "web" / "js" / "boards" / f"{game}.js",
        TOP / "client" / "web" / "js" / "boards" / f"{game}.css",
    }
    return own | set((TOP / "server" / "games" / game).rglob("*"))


def product_files() -> Iterator[Path]:
    for folder in PRODUCT:
        for path in sorted((TOP / folder).rglob("*")):
            if path.suffix in SUFFIXES and "vendor" not in path.parts and path.is_file():
                yield path


def _key(text: str) -> str:
    """``Link-match`` -> ``linkmatch``: how names compare."""
    return re.sub(r"[-_\s]", "", text).lower()


def words(game: str) -> set[str]:
    """What names ``game``: its protocol name and its title."""
    return {_key(game), _key(GAMES[game].title)}


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes (and bare string statements: prose)."""
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        for stmt in body if isinstance(body, list) else ():
            if (
                isinstance(stmt, ast.Expr)
                and isinstance(stmt.value, ast.Constant)
                and isinstance(stmt.value.value, str)
            ):
                found.add(id(stmt.value))
    return found


def python_code(path: Path) -> Iterator[tuple[int, str]]:
    """Every name and string of the code, with its line (not docstrings, not comments;
    not the one list itself)."""
    tree = ast.parse(path.read_text("utf-8"))
    prose = _docstrings(tree)
    skip: set[int] = set()
    if path == ONE_LIST:
        for node in ast.walk(tree):
            if isinstance(node, ast.AnnAssign | ast.Assign) and "NAMES" in ast.dump(node):
                skip |= {id(n) for n in ast.walk(node)}
    for node in ast.walk(tree):
        if id(node) in skip or id(node) in prose:
            continue
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Name):
            yield line, node.id
        elif isinstance(node, ast.Attribute):
            yield line, node.attr
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield line, node.name
        elif isinstance(node, ast.arg):
            yield line, node.arg
        elif isinstance(node, ast.keyword) and node.arg:
            yield line, node.arg
        elif isinstance(node, ast.alias):
            yield line, f"{node.name} {node.asname or ''}"
        elif isinstance(node, ast.ImportFrom):
            yield line, node.module or ""
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield line, node.value


def _uncommented(text: str, line_comments: bool) -> str:
    """``text`` with ``/* */`` (and ``//`` in JavaScript) comments blanked, strings kept."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "'\"`":
            j = i + 1
            while j < n and text[j] != ch:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif line_comments and text.startswith("//", i) and (i == 0 or text[i - 1] != ":"):
            j = text.find("\n", i)
            i = n if j < 0 else j
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def other_code(path: Path) -> Iterator[tuple[int, str]]:
    text = path.read_text("utf-8")
    if path.suffix == ".html":
        text = re.sub(r"<!--.*?-->", lambda m: "\n" * m.group().count("\n"), text, flags=re.S)
    else:
        text = _uncommented(text, line_comments=path.suffix == ".js")
    yield from enumerate(text.splitlines(), 1)


def leaks(game: str) -> list[str]:
    """``path:line: text`` for every piece of code outside ``game``'s places naming it."""
    own, names, found = places(game), words(game), []
    for path in product_files():
        if path in own:
            continue
        code = python_code(path) if path.suffix == ".py" else other_code(path)
        for line, text in code:
            if any(name in _key(text) for name in names):
                found.append(f"{path.relative_to(TOP)}:{line}: {text.strip()[:80]}")
    return found


@pytest.mark.parametrize("game", NAMES)
def test_no_product_file_outside_a_games_places_names_it(game: str) -> None:
    assert leaks(game) == []


def test_the_check_finds_a_game_named_outside_its_places(tmp_path: Path) -> None:
    """The check itself can fail: code naming a game, in each language, is found;
    the same words in comments and docstrings are not."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""Gomoku, as an example."""\n# gomoku\nfrom x.games.gomoku import SPEC\n'
        'GAME = "Link-match"\ndef minesweeper_clicks(): ...\n'
    )
    found = [text for _line, text in python_code(sample)]
    assert any("gomoku" in t for t in found) and "Link-match" in found
    assert "minesweeper_clicks" in found and "Gomoku, as an example." not in found
    script = tmp_path / "sample.js"
    script.write_text(
        '// gomoku\nconst a = "x"; /* minesweeper */\nconst url = "http://linkmatch";\n'
    )
    lines = [text for _line, text in other_code(script)]
    assert "gomoku" not in "".join(lines) and "minesweeper" not in "".join(lines)
    assert any("linkmatch" in text for text in lines)
