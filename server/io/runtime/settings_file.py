"""A settings file for ``gridhall-server``: TOML, one key per long option.

An operator keeps a server's configuration in one place (``--config FILE``). The keys
are not a second list: they are read off the command line's parser, ``--max-rooms``
becoming ``max_rooms``, and each value goes through the option's own check (its type
function and choices), so the file accepts exactly what the command line accepts. An
option given on the command line wins over the file. A bad file stops the server at
start with one line naming the file, the key and what is allowed.
"""

from __future__ import annotations

import argparse
import difflib
import json
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gridhall.protocol.i18n import N_
from gridhall.protocol.i18n import gettext as _

NOT_KEYS = frozenset({"help", "config"})
"""Long options that are not settings: they act on this one run."""


class SettingsError(Exception):
    """The settings file cannot be used; ``str()`` is the one line to show."""


@dataclass
class Settings:
    """The effective settings and where each came from."""

    args: argparse.Namespace
    file: Path | None = None
    from_file: set[str] = field(default_factory=set)
    """Keys whose value is the file's."""
    from_command_line: set[str] = field(default_factory=set)
    """Keys given on the command line (they win over the file)."""
    keys: dict[str, str] = field(default_factory=dict)
    """Every setting's key and its ``dest`` in ``args``."""

    def source(self) -> str:
        """One phrase for the start-up output, e.g. ``gridhall.toml + command line``."""
        parts = [str(self.file)] if self.file is not None else []
        if self.from_command_line:
            parts.append(_("command line"))
        return " + ".join(parts) or _("defaults")

    def effective(self) -> dict[str, tuple[object, str]]:
        """Every setting's value and where it came from (``default``, ``file`` or
        ``command line``), by key: what an operator's page shows."""

        def source(dest: str) -> str:
            if dest in self.from_command_line:
                return "command line"
            return "file" if dest in self.from_file else "default"

        return {
            key: (getattr(self.args, dest, None), source(dest)) for key, dest in self.keys.items()
        }


def key_of(option: str) -> str:
    """``--max-rooms`` -> ``max_rooms``."""
    return option.removeprefix("--").replace("-", "_")


def options(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """The settings a file may hold, by key: the parser's long options, less NOT_KEYS."""
    found: dict[str, argparse.Action] = {}
    for action in parser._actions:
        for option in action.option_strings:
            if option.startswith("--") and key_of(option) not in NOT_KEYS:
                found[key_of(option)] = action
    return found


def _kind(action: argparse.Action) -> str:
    """What TOML value an option takes: ``bool``, ``int``, ``number`` or ``string``."""
    if action.nargs == 0:
        return "bool"
    if action.type is int or type(action.default) is int:
        return "int"
    if action.type is float or type(action.default) is float:
        return "number"
    return "string"


_KIND_TEXT = {
    "bool": N_("{true} or {false}"),
    "int": N_("a whole number"),
    "number": N_("a number"),
    "string": N_("a string"),
}


def _allowed(action: argparse.Action) -> str:
    """What an option accepts, in words."""
    if action.choices is not None:
        return _("one of {choices}", choices=", ".join(f'"{c}"' for c in action.choices))
    what = _(_KIND_TEXT[_kind(action)], true="true", false="false")
    if isinstance(action, argparse._AppendAction):
        return _("a list, each item {what}", what=what)
    return what


def _is(value: object, kind: str) -> bool:
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, str)


def _convert(action: argparse.Action, value: object) -> object:
    """One item through the option's own check; raises ValueError with the reason."""
    if not _is(value, _kind(action)):
        raise ValueError("")
    if action.type is not None:
        convert: Any = action.type
        try:
            value = convert(str(value))
        except argparse.ArgumentTypeError as exc:
            raise ValueError(str(exc)) from None
        except (TypeError, ValueError):
            raise ValueError("") from None
    if action.choices is not None and value not in action.choices:
        raise ValueError("")
    return value


def check(action: argparse.Action, value: object) -> object:
    """The file's value as the command line would have parsed it."""
    if action.nargs == 0:  # a switch: --durable-commits, --no-discovery
        if not isinstance(value, bool):
            raise ValueError("")
        return value if action.const is True else not value
    if isinstance(action, argparse._AppendAction):
        if not isinstance(value, list):
            raise ValueError("")
        return [_convert(action, item) for item in value]
    return _convert(action, value)


def read(path: Path, parser: argparse.ArgumentParser) -> dict[str, object]:
    """The file's settings by ``dest``, checked; raises SettingsError on the first fault."""
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as exc:
        raise SettingsError(
            _(
                "settings file {file}: cannot read it: {reason}",
                file=path,
                reason=exc.strerror or exc,
            )
        ) from None
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(
            _("settings file {file}: cannot parse it: {reason}", file=path, reason=exc)
        ) from None
    known = options(parser)
    values: dict[str, object] = {}
    for key, value in data.items():
        action = known.get(key)
        if action is None:
            near = difflib.get_close_matches(key, known, n=1)
            hint = _(" (did you mean {key}?)", key=near[0]) if near else ""
            raise SettingsError(
                _(
                    "settings file {file}: unknown key {key}{hint}; the keys are: {keys}",
                    file=path,
                    key=_bare(key),
                    hint=hint,
                    keys=", ".join(known),
                )
            )
        try:
            values[action.dest] = check(action, value)
        except ValueError as exc:
            reason = f" ({exc})" if str(exc) else ""
            raise SettingsError(
                _(
                    "settings file {file}: {key} = {value} is refused{reason}; allowed: {allowed}",
                    file=path,
                    key=_bare(key),
                    value=_toml(value),
                    reason=reason,
                    allowed=_allowed(action),
                )
            ) from None
    return values


def _bare(key: str) -> str:
    """A key as written in the file: bare, or quoted when it is not a plain name."""
    return key if key.replace("-", "_").isidentifier() else json.dumps(key)


def _toml(value: object) -> str:
    """A value as it reads in the file (short, on one line)."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, str):
        text = json.dumps(value, ensure_ascii=not value.isprintable())  # stays one line
    elif isinstance(value, list):
        text = "[" + ", ".join(_toml(v) for v in value) + "]"
    elif isinstance(value, dict):
        text = "{...}"
    else:
        text = str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def given(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> set[str]:
    """The dests the command line sets: parsed again with every default suppressed."""
    saved = [(action, action.default) for action in parser._actions]
    try:
        for action, _default in saved:
            action.default = argparse.SUPPRESS
        found = vars(parser.parse_args(argv))
    finally:
        for action, default in saved:
            action.default = default
    return set(found)


def parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None = None) -> Settings:
    """Parse the command line, and the ``--config`` file under it.

    A bad file exits with status 2 and one line on stderr, as argparse does for a bad
    option."""
    args = parser.parse_args(argv)
    path = getattr(args, "config", None)
    keys = {key: action.dest for key, action in options(parser).items()}
    if path is None:
        return Settings(args, from_command_line=given(parser, argv) & _dests(parser), keys=keys)
    try:
        values = read(Path(path), parser)
    except SettingsError as exc:
        parser.exit(2, f"{parser.prog}: {exc}\n")
    on_command_line = given(parser, argv) & _dests(parser)
    for dest, value in values.items():
        if dest not in on_command_line:
            setattr(args, dest, value)
    return Settings(args, Path(path), set(values) - on_command_line, on_command_line, keys)


def _dests(parser: argparse.ArgumentParser) -> set[str]:
    return {action.dest for action in options(parser).values()}
