"""The UTS #39 skeleton of a string: what it looks like, whatever script it is in.

Two strings are confusable when their skeletons are equal (Unicode Technical
Standard #39, section 4): ``skeleton(X)`` is NFD(X), each character replaced by
its prototype from Unicode's ``confusables.txt``, then NFD again. So ``Alice``
and ``Аlice`` (a Cyrillic А) have one skeleton.

The data is Unicode's own ``confusables.txt`` (UTS #39 version 13.0), trimmed to its
mapping lines and shipped as ``server/data/confusables.txt`` (about 6,300 lines, 80 kB;
parsed once, on first use). No PyPI package fits: PyICU needs a compiler, the
``confusables`` wheel installs a top-level ``tests`` package over this project's,
``confusable_homoglyphs`` keeps the pairs without their direction (no prototypes).
"""

from __future__ import annotations

import functools
import unicodedata
from pathlib import Path

DATA = Path(__file__).parent.parent / "data" / "confusables.txt"


def parse(text: str) -> dict[str, str]:
    """The mappings of a ``confusables.txt``: ``source ; target [; type] [# comment]``,
    code points in hex; comments and blank lines skipped."""
    table: dict[str, str] = {}
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2:
            continue
        source, target = fields[0].split(), fields[1].split()
        if len(source) != 1 or not target:
            continue
        table[chr(int(source[0], 16))] = "".join(chr(int(c, 16)) for c in target)
    return table


@functools.cache
def prototypes() -> dict[int, str]:
    """Character -> prototype, as a ``str.translate`` table."""
    text = DATA.read_text(encoding="utf-8-sig")
    return {ord(k): v for k, v in parse(text).items()}


def skeleton(text: str) -> str:
    """``text``'s UTS #39 skeleton (equal skeletons: confusable strings)."""
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", text).translate(prototypes()))
