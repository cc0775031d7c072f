"""The interpreter of game descriptions: facts, conditions and templates -> sentences.

The browser runs the same rules in ``client/web/js/describe.js``; shared fixtures
(``tests/fixtures/views``) hold both to the same output. A state here is a plain
map with the wire's ``state`` fields (``game``, ``status``, ``players``, ``view``,
``options``, ``result``, ``turn``, ``creator``); nothing here does I/O.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from gridhall.protocol.cells import cell_name
from gridhall.protocol.i18n import SOURCE, gettext, language, ngettext
from gridhall.protocol.players import shown_name

from .describe import Action, Each, Game, Text

Ctx = dict[str, Any]
SEP = " · "


# ---- values ------------------------------------------------------------------------------


def lookup(ctx: Ctx, path: str) -> Any:
    """The value a path names in ``ctx`` (None when any step is missing)."""
    if path.startswith("'"):
        return path[1:]
    head, *rest = path.split(".")
    if head.startswith("$"):
        value: Any = ctx.get("$", {}).get(head[1:])
    elif head.startswith("@"):
        value = ctx.get("@", {}).get(head[1:])
    else:
        value = ctx.get(head)
    for step in rest:
        if isinstance(value, Mapping):
            value = value.get(step)
        elif isinstance(value, list | tuple) and step.isdigit() and int(step) < len(value):
            value = value[int(step)]
        else:
            return None
    return value


def number(value: Any) -> float:
    """A finite number, else 0 (the server's view is data: it may hold anything)."""
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return 0.0


def clock(seconds: Any) -> str:
    """``m:ss`` for a number of seconds (blank for anything else)."""
    if (
        not isinstance(seconds, int | float)
        or isinstance(seconds, bool)
        or not math.isfinite(seconds)
    ):
        return ""
    total = max(0, int(seconds))
    return f"{total // 60}:{total % 60:02d}"


def point(value: Any) -> tuple[int, int] | None:
    """``[x, y]`` or ``{"x", "y"}`` as a pair of non-negative ints, else None."""
    if isinstance(value, Mapping):
        value = [value.get("x"), value.get("y")]
    if isinstance(value, list | tuple) and len(value) >= 2:
        x, y = value[0], value[1]
        if (
            isinstance(x, int)
            and isinstance(y, int)
            and not isinstance(x, bool)
            and not isinstance(y, bool)
            and x >= 0
            and y >= 0
        ):
            return x, y
    return None


def names(ctx: Ctx) -> dict[str, str]:
    """Player id -> the name to show (a computer's in the reader's language)."""
    return {
        str(pl.get("player")): shown_name(pl.get("name"), pl.get("bot"))
        for pl in ctx.get("players") or []
        if isinstance(pl, Mapping)
    }


def word(ctx: Ctx, table: str, value: Any) -> str:
    """A value's word from the game's (else the common) tables, translated; "" if none."""
    for game in (ctx["game_desc"], ctx["common"]):
        found = game.words.get(table, {}).get(str(value))
        if found is not None:
            return gettext(found)
    return ""


def _name(ctx: Ctx, pid: Any, fallback: Any = "") -> str:
    found = names(ctx).get(str(pid)) if pid is not None else None
    return found if found is not None else (gettext(fallback) if fallback else "")


def _you(ctx: Ctx, pid: Any, fallback: Any = "") -> str:
    return gettext("you") if pid is not None and pid == ctx.get("me") else _name(ctx, pid, fallback)


def _count(value: Any) -> int:
    return len(value) if isinstance(value, list | tuple | Mapping) else 0


def _first(*values: Any) -> Any:
    return next((v for v in values if v is not None and v != ""), None)


def _last(value: Any) -> Any:
    return value[-1] if isinstance(value, list | tuple) and value else None


def _has(items: Any, where: Any) -> bool:
    pt = point(where)
    return (
        pt is not None
        and isinstance(items, list | tuple)
        and any(point(item) == pt for item in items)
    )


def _at(items: Any, key: Any) -> Any:
    """``items[key]`` of a map (key as text) or a list (key a whole number)."""
    if isinstance(items, Mapping):
        return items.get(str(key))
    if (
        isinstance(items, list | tuple)
        and isinstance(key, int | float)
        and 0 <= int(key) < len(items)
    ):
        return items[int(key)]
    return None


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "count": _count,
    "add": lambda a, b: number(a) + number(b),
    "sub": lambda a, b: number(a) - number(b),
    "mul": lambda a, b: number(a) * number(b),
    "ceil": lambda a: math.ceil(number(a) - 1e-9),
    "int": lambda a: int(number(a)),
    "first": _first,
    "last": _last,
    "at": _at,
    "has": _has,
    "cell": lambda v: cell_name(*pt) if (pt := point(v)) else "",
    "clock": clock,
    "shown": lambda name, bot=None: "" if name is None or name == "" else shown_name(name, bot),
}
"""Functions of evaluated arguments; ``name``, ``you`` and ``word`` also read the context."""


def fact(ctx: Ctx, spec: Any) -> Any:
    """Evaluate a fact: a path, a number, or ``[function, *args]``."""
    if isinstance(spec, str):
        return lookup(ctx, spec)
    if not isinstance(spec, list | tuple):
        return spec
    fn, *args = spec
    if fn == "word":
        return word(ctx, str(args[0]), fact(ctx, args[1]))
    if fn in ("name", "you"):  # [fn, player, fallback text]: the text is no path
        reader = _name if fn == "name" else _you
        return reader(ctx, fact(ctx, args[0]), *args[1:2])
    return FUNCTIONS[fn](*[fact(ctx, a) for a in args])


def shown(value: Any) -> str:
    """How a fact reads inside a sentence: whole numbers without ``.0``."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "" if value is None else str(value)


# ---- conditions --------------------------------------------------------------------------


def _seated(ctx: Ctx) -> bool:
    me = ctx.get("me")
    return me is not None and any(
        isinstance(pl, Mapping) and pl.get("player") == me for pl in ctx.get("players") or []
    )


def _pending(ctx: Ctx) -> bool:
    return isinstance(lookup(ctx, "view.pending"), Mapping)


RULES: dict[str, Callable[[Ctx], bool]] = {
    "always": lambda c: True,
    "seated": _seated,
    "playing": lambda c: c.get("status") == "playing",
    "waiting": lambda c: c.get("status") == "waiting",
    "over": lambda c: c.get("status") == "over",
    "my_turn": lambda c: (
        c.get("status") == "playing" and c.get("turn") is not None and c.get("turn") == c.get("me")
    ),
    "creator": lambda c: c.get("creator") is not None and c.get("creator") == c.get("me"),
    "host": lambda c: c.get("host") is not None and c.get("host") == c.get("me"),
    "racing": lambda c: c.get("status") == "playing" and not lookup(c, "view.starts_in"),
    "in_race": lambda c: _at(lookup(c, "view.standing"), c.get("me")) in (None, "racing"),
    "pending": _pending,
    "pending_mine": lambda c: _pending(c) and lookup(c, "view.pending.from") == c.get("me"),
}


def holds(ctx: Ctx, cond: str) -> bool:
    """Whether one condition holds (see :mod:`.describe`)."""
    if cond.startswith("!"):
        return not holds(ctx, cond[1:])
    if cond in RULES:
        return RULES[cond](ctx)
    if cond.startswith("?"):
        return lookup(ctx, cond[1:]) is not None
    if "=" in cond:
        path, want = cond.split("=", 1)
        value = lookup(ctx, path)
        if want == "@me":
            return value is not None and value == ctx.get("me")
        return value is not None and shown(value) == want
    return bool(lookup(ctx, cond))


# ---- texts -------------------------------------------------------------------------------


def render(ctx: Ctx, text: Text) -> str | None:
    """``text`` in the player's language, or None when its conditions do not hold
    (or its list is empty)."""
    facts = {name: fact(ctx, spec) for name, spec in text.facts.items()}
    local = {**ctx, "$": {**ctx.get("$", {}), **facts}}
    if not all(holds(local, c) for c in text.when):
        return None
    params = {k: shown(v) for k, v in facts.items()}
    if text.each is not None:
        items = each(local, text.each)
        if not items:
            return None
        params["items"] = text.each.sep.join(items)
    if text.plural is not None:
        params.pop("n", None)
        return ngettext(text.msgid, text.plural, int(number(facts.get("n"))), **params)
    return gettext(text.msgid, **params)


def first(ctx: Ctx, texts: tuple[Text, ...]) -> str | None:
    """The first of ``texts`` that applies."""
    for text in texts:
        out = render(ctx, text)
        if out is not None:
            return out
    return None


def entries(ctx: Ctx, spec: Each) -> list[tuple[Any, Any]]:
    """(key, value) of the map or list at ``spec.over``, as :class:`Each` picks them."""
    found = lookup(ctx, spec.over)
    if isinstance(found, Mapping):
        pairs = [(k, v) for k, v in found.items()]
    elif isinstance(found, list | tuple):
        pairs = [(v, v) if isinstance(v, str) else (i, v) for i, v in enumerate(found)]
    else:
        return []
    if spec.skip_me:
        pairs = [(k, v) for k, v in pairs if k != ctx.get("me")]
    return pairs[-spec.last :] if spec.last else pairs


def each(ctx: Ctx, spec: Each) -> list[str]:
    out = []
    for key, value in entries(ctx, spec):
        line = first({**ctx, "@": {"key": key, "value": value}}, spec.texts)
        if line is not None:
            out.append(line)
    return out


# ---- what the clients ask ----------------------------------------------------------------


def context(
    game: Game,
    common: Game,
    state: Mapping[str, Any],
    me: str | None,
    view: Mapping[str, Any] | None = None,
    **extra: Any,
) -> Ctx:
    """Everything paths may name, for ``state`` seen by ``me``."""
    ctx: Ctx = {
        "game_desc": game,
        "common": common,
        "me": me,
        "game": state.get("game"),
        "status": state.get("status"),
        "turn": state.get("turn"),
        "creator": state.get("creator"),
        "players": state.get("players") or [],
        # a server from before room hosts names no host: its creator starts the race
        "host": state.get("host") or state.get("creator"),
        "view": view if view is not None else (state.get("view") or {}),
        "options": state.get("options") or {},
        "result": state.get("result"),
        "round": state.get("round"),
        **extra,
    }
    ctx["outcome"] = outcome_for(game, ctx)
    return ctx


def outcome_for(game: Game, ctx: Ctx) -> str:
    """The finished game for the viewer: ``win``, ``loss``, ``draw``, or ``none``
    (a spectator, or no result)."""
    result = ctx.get("result")
    if ctx.get("status") != "over" or not isinstance(result, Mapping) or not _seated(ctx):
        return "none"
    if game.coop:
        return "win" if result.get("reason") == "cleared" else "loss"
    winner = result.get("winner")
    if winner is None:
        return "draw"
    return "win" if winner == ctx.get("me") else "loss"


def live_view(
    game: Game, state: Mapping[str, Any], me: str | None, now: float, since: float
) -> dict[str, Any]:
    """The view with its clocks run on: ``since`` seconds after it arrived, at wall
    time ``now``. Never changes ``state``."""
    view = dict(state.get("view") or {})
    if state.get("status") != "playing":
        return view
    ctx = context(game, game, state, me, view=view)
    left = max(0.0, since)
    for live in game.live:
        if not all(holds(ctx, c) for c in live.when):
            continue
        value = view.get(live.path)
        if not isinstance(value, Mapping) and number(value) != value:
            continue  # not a finite number: shown as it came
        if live.kind == "countdown" and isinstance(value, int | float) and value > 0:
            view[live.path] = max(0.0, value - left)
            left = max(0.0, left - value)
        elif live.kind == "elapsed" and isinstance(value, int | float):
            view[live.path] = float(value) + left
        elif live.kind == "chess" and isinstance(value, Mapping):
            running, start = value.get("running"), value.get("since")
            remaining = value.get("remaining")
            if (
                isinstance(remaining, Mapping)
                and running in remaining
                and number(start) == start
                and start is not None
            ):
                used = max(0.0, now - float(start))
                run = {**remaining, running: max(0.0, number(remaining[running]) - used)}
                view[live.path] = {**value, "remaining": run}
    return view


def status(
    game: Game, common: Game, state: Mapping[str, Any], me: str | None, view: Mapping[str, Any]
) -> str:
    """The game's part of the status line (``view``: the live view)."""
    ctx = context(game, common, state, me, view=view)
    return SEP.join(t for t in (render(ctx, text) for text in game.status) if t)


def board(
    game: Game, common: Game, state: Mapping[str, Any], me: str | None, view: Mapping[str, Any]
) -> str | None:
    """The line over the board (``view``: the live view), if any."""
    return first(context(game, common, state, me, view=view), game.board)


def result(game: Game, common: Game, state: Mapping[str, Any], me: str | None) -> str:
    """The game-over headline, worded for the viewer."""
    ctx = context(game, common, state, me)
    return first(ctx, (*game.results, *common.results)) or gettext("Game over.")


def ranking(game: Game, common: Game, state: Mapping[str, Any], me: str | None) -> list[str]:
    """A finished race's standings, one line each."""
    if game.ranking is None or game.ranking.each is None:
        return []
    ctx = context(game, common, state, me)
    return each(ctx, game.ranking.each)


def offer(game: Game, common: Game, state: Mapping[str, Any], me: str | None) -> str | None:
    """A line about a pending offer, or None."""
    ctx = context(game, common, state, me)
    return first(ctx, common.notices.get("offer", ())) if _pending(ctx) else None


def roles(game: Game, common: Game, state: Mapping[str, Any]) -> dict[str, str]:
    """The note next to each player (later lists win)."""
    ctx = context(game, common, state, None)
    out: dict[str, str] = {}
    for text in game.roles:
        if text.each is None:
            continue
        for key, value in entries(ctx, text.each):
            line = first({**ctx, "@": {"key": key, "value": value}}, text.each.texts)
            if line is not None:
                out[str(key)] = line
    return out


def summary(game: Game, common: Game, options: Mapping[str, Any]) -> str:
    """A room's options in a few words (the lobby)."""
    ctx = context(game, common, {"options": options}, None)
    return ", ".join(t for t in (render(ctx, text) for text in game.summary) if t)


QUIET = {"game-over", "notice"}
"""Events announced even when they are our own."""


def event(
    game: Game, common: Game, msg: Mapping[str, Any], state: Mapping[str, Any], me: str | None
) -> str | None:
    """The sentence for one room event (wire fields) already folded into ``state``, or
    None for events the screen shows by itself or that we caused."""
    kind = str(msg.get("type"))
    sender = msg.get("from") or msg.get("player")
    if sender is not None and sender == me and kind not in QUIET:
        return None
    if kind == "game-over":
        return result(game, common, state, me)
    if kind == "offer":
        said = offer(game, common, state, me)
        if said:
            return said
    ctx = context(game, common, state, me, data=msg)
    if kind == "notice":
        data = msg.get("data")
        ctx["data"] = data if isinstance(data, Mapping) else {}
        said = first(ctx, game.notices.get(str(msg.get("event")), ()))
        if said is not None:
            return said
        words = str(msg.get("event")).replace("-", " ")
        return words[:1].upper() + words[1:] + "."
    if kind in ("joined", "left") and sender is None:
        return None
    return first(ctx, common.notices.get(kind, ()))


def action_states(
    game: Game, common: Game, state: Mapping[str, Any], me: str | None
) -> list[tuple[Action, bool, bool]]:
    """Each action (the game's, then the common ones): shown? enabled?"""
    ctx = context(game, common, state, me)
    return [
        (a, all(holds(ctx, c) for c in a.shown), all(holds(ctx, c) for c in a.enabled))
        for a in (*game.actions, *common.actions)
    ]


def room_status(common: Game, status: object) -> str:
    """A room's ``status`` (``waiting``, ``playing``, ``over``) in words; an unknown one
    (a newer server's) as it came."""
    found = common.words.get("status", {}).get(str(status))
    return gettext(found) if found is not None else str(status or "?")


def error_text(common: Game, code: str, message: str = "") -> str:
    """A refusal's sentence: the server's own, else a hint by code (a server fault
    always gets ours). The server writes English: in another language the hint for
    the code, in the player's words, says it better."""
    hints = common.words.get("errors", {})
    if code == "internal-error" or (language() != SOURCE and code in hints):
        return gettext(hints[code])
    text = message.strip()
    if text:
        return text
    found = hints.get(code)
    return gettext(found) if found else gettext("The server refused that ({code}).", code=code)
