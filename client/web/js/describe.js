// The interpreter of game descriptions: the same rules as protocol/games/render.py,
// run on the descriptions the server serves at /games.json. The page keeps no
// game-specific words of its own: titles, forms, actions, status lines, results,
// notices and the lobby's summaries all come from the descriptions.
// tests/fixtures/views/*.json hold this file and the Python one to the same output.

import { SOURCE, language, t, tn } from "./i18n.js";

let DATA = { common: { actions: [], results: [], notices: {}, words: {} }, games: {} };

/** Use descriptions as served at /games.json (tests pass them directly). */
export function useDescriptions(data) {
  DATA = data;
}

/** Fetch and use /games.json. */
export async function loadDescriptions() {
  const reply = await fetch("/games.json");
  if (!reply.ok) throw new Error(`no game descriptions (${reply.status})`);
  useDescriptions(await reply.json());
}

/** Every described game's name, in the server's order. */
export function gameNames() {
  return Object.keys(DATA.games);
}

/** The description of `name`; a bare one for a game this page does not know. */
export function describe(name) {
  const found = DATA.games[name];
  if (found) return found;
  const words = String(name || "").replace(/-/g, " ");
  return { name, title: words.charAt(0).toUpperCase() + words.slice(1), coop: false, form: [],
    presets: [], actions: [], live: [], status: [], results: [], notices: {}, roles: [], summary: [],
    ranking: null, board: [], gesture: "", words: {} };
}

export function common() {
  return DATA.common;
}

// ---- values -----------------------------------------------------------------------------

const isMap = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const isNum = (v) => typeof v === "number" && Number.isFinite(v);
const num = (v) => (isNum(v) ? v : 0);

function lookup(ctx, path) {
  if (path.startsWith("'")) return path.slice(1);
  const [head, ...rest] = path.split(".");
  let value;
  if (head.startsWith("$")) value = (ctx.$ || {})[head.slice(1)];
  else if (head.startsWith("@")) value = (ctx["@"] || {})[head.slice(1)];
  else value = ctx[head];
  for (const step of rest) {
    if (isMap(value)) value = Object.prototype.hasOwnProperty.call(value, step) ? value[step] : undefined;
    else if (Array.isArray(value) && /^\d+$/.test(step) && Number(step) < value.length) value = value[Number(step)];
    else return null;
  }
  return value === undefined ? null : value;
}

/** `m:ss` for a number of seconds (blank for anything else). */
export function clock(seconds) {
  if (!isNum(seconds)) return "";
  const total = Math.max(0, Math.trunc(seconds));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

// Cell names as protocol/cells.py writes them: letters for columns without I, rows from 1.
const LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

export function columnName(x) {
  let n = x + 1;
  let out = "";
  while (n > 0) {
    const digit = (n - 1) % LETTERS.length;
    out = LETTERS[digit] + out;
    n = Math.floor((n - 1) / LETTERS.length);
  }
  return out;
}

export function cellName(x, y) {
  return `${columnName(x)}${y + 1}`;
}

function point(value) {
  let v = value;
  if (isMap(v)) v = [v.x, v.y];
  if (Array.isArray(v) && v.length >= 2 && Number.isInteger(v[0]) && Number.isInteger(v[1])
      && v[0] >= 0 && v[1] >= 0) return [v[0], v[1]];
  return null;
}

// A computer player's name as the server makes it (protocol/players.py): shown translated.
const COMPUTER_NAME = /^Computer \(([^()]{1,40})\)$/;
const ENGINE = "engine:";

/** A computer level in words: easy and hard translated, an engine by its name. */
export function levelWord(level) {
  if (typeof level !== "string" || !level) return "?";
  const words = (DATA.common.words || {}).levels || {};
  if (Object.prototype.hasOwnProperty.call(words, level)) return t(words[level]);
  return level.startsWith(ENGINE) ? level.slice(ENGINE.length) : level;
}

/** The name to show for a player: a computer's (by `bot`, else by its reserved name) in
 * the page's language, anyone else's as written. */
export function shownName(name, bot = null) {
  const text = String(name);
  let level = typeof bot === "string" && bot ? bot : null;
  if (level === null) {
    const found = COMPUTER_NAME.exec(text);
    if (!found) return text;
    const words = (DATA.common.words || {}).levels || {};
    level = Object.prototype.hasOwnProperty.call(words, found[1]) ? found[1] : ENGINE + found[1];
  }
  return t("Computer ({level})", { level: levelWord(level) });
}

function names(ctx) {
  const out = {};
  for (const p of ctx.players || []) if (isMap(p)) out[String(p.player)] = shownName(p.name, p.bot);
  return out;
}

function word(ctx, table, value) {
  for (const game of [ctx.gameDesc, ctx.common]) {
    const found = ((game.words || {})[table] || {})[String(value)];
    if (found !== undefined) return t(found);
  }
  return "";
}

function playerName(ctx, pid, fallback = "") {
  const found = pid === null || pid === undefined ? undefined : names(ctx)[String(pid)];
  if (found !== undefined) return found;
  return fallback ? t(fallback) : "";
}

const present = (v) => v !== null && v !== undefined && v !== "";

function at(items, key) {
  if (isMap(items)) {
    const k = String(key);
    return Object.prototype.hasOwnProperty.call(items, k) ? items[k] : null;
  }
  if (Array.isArray(items) && isNum(key) && key >= 0 && Math.trunc(key) < items.length) return items[Math.trunc(key)];
  return null;
}

const FUNCTIONS = {
  count: (v) => (Array.isArray(v) ? v.length : isMap(v) ? Object.keys(v).length : 0),
  add: (a, b) => num(a) + num(b),
  sub: (a, b) => num(a) - num(b),
  mul: (a, b) => num(a) * num(b),
  ceil: (a) => Math.ceil(num(a) - 1e-9),
  int: (a) => Math.trunc(num(a)),
  first: (...values) => { const v = values.find(present); return v === undefined ? null : v; },
  last: (v) => (Array.isArray(v) && v.length ? v[v.length - 1] : null),
  at,
  has: (items, where) => {
    const pt = point(where);
    return pt !== null && Array.isArray(items) && items.some((i) => { const q = point(i); return q && q[0] === pt[0] && q[1] === pt[1]; });
  },
  cell: (v) => { const pt = point(v); return pt ? cellName(pt[0], pt[1]) : ""; },
  clock,
  shown: (name, bot = null) => (name === null || name === undefined || name === "" ? "" : shownName(name, bot)),
};

function fact(ctx, spec) {
  if (typeof spec === "string") return lookup(ctx, spec);
  if (!Array.isArray(spec)) return spec;
  const [fn, ...args] = spec;
  if (fn === "word") return word(ctx, String(args[0]), fact(ctx, args[1]));
  if (fn === "name" || fn === "you") { // [fn, player, fallback text]: the text is no path
    const pid = fact(ctx, args[0]);
    const fallback = args.length > 1 ? args[1] : "";
    if (fn === "you" && pid !== null && pid !== undefined && pid === ctx.me) return t("you");
    return playerName(ctx, pid, fallback);
  }
  return FUNCTIONS[fn](...args.map((a) => fact(ctx, a)));
}

function shown(value) {
  if (value === true) return "yes";
  if (value === false) return "no";
  if (value === null || value === undefined) return "";
  return String(value);
}

// ---- conditions -------------------------------------------------------------------------

function seated(ctx) {
  return ctx.me !== null && ctx.me !== undefined && (ctx.players || []).some((p) => isMap(p) && p.player === ctx.me);
}

const pending = (c) => isMap(lookup(c, "view.pending"));

const RULES = {
  always: () => true,
  seated,
  playing: (c) => c.status === "playing",
  waiting: (c) => c.status === "waiting",
  over: (c) => c.status === "over",
  my_turn: (c) => c.status === "playing" && present(c.turn) && c.turn === c.me,
  creator: (c) => present(c.creator) && c.creator === c.me,
  host: (c) => present(c.host) && c.host === c.me,
  racing: (c) => c.status === "playing" && !lookup(c, "view.starts_in"),
  in_race: (c) => [null, "racing"].includes(at(lookup(c, "view.standing"), c.me)),
  pending,
  pending_mine: (c) => pending(c) && lookup(c, "view.pending.from") === c.me,
};

function truthy(v) {
  if (Array.isArray(v)) return v.length > 0;
  if (isMap(v)) return Object.keys(v).length > 0;
  return Boolean(v);
}

function holds(ctx, cond) {
  if (cond.startsWith("!")) return !holds(ctx, cond.slice(1));
  if (Object.prototype.hasOwnProperty.call(RULES, cond)) return RULES[cond](ctx);
  if (cond.startsWith("?")) return lookup(ctx, cond.slice(1)) !== null;
  const eq = cond.indexOf("=");
  if (eq >= 0) {
    const value = lookup(ctx, cond.slice(0, eq));
    const want = cond.slice(eq + 1);
    if (want === "@me") return value !== null && value === ctx.me;
    return value !== null && shown(value) === want;
  }
  return truthy(lookup(ctx, cond));
}

// ---- texts ------------------------------------------------------------------------------

function render(ctx, text) {
  const facts = {};
  for (const [name, spec] of Object.entries(text.facts || {})) facts[name] = fact(ctx, spec);
  const local = { ...ctx, $: { ...(ctx.$ || {}), ...facts } };
  if (!(text.when || []).every((c) => holds(local, c))) return null;
  const params = {};
  for (const [k, v] of Object.entries(facts)) params[k] = shown(v);
  if (text.each) {
    const items = each(local, text.each);
    if (!items.length) return null;
    params.items = items.join(text.each.sep);
  }
  if (text.plural !== undefined && text.plural !== null) {
    delete params.n;
    return tn(text.msgid, text.plural, Math.trunc(num(facts.n)), params);
  }
  return t(text.msgid, params);
}

function first(ctx, texts) {
  for (const text of texts || []) {
    const out = render(ctx, text);
    if (out !== null) return out;
  }
  return null;
}

function entries(ctx, spec) {
  const found = lookup(ctx, spec.over);
  let pairs;
  if (isMap(found)) pairs = Object.entries(found);
  else if (Array.isArray(found)) pairs = found.map((v, i) => (typeof v === "string" ? [v, v] : [i, v]));
  else return [];
  if (spec.skip_me) pairs = pairs.filter(([k]) => k !== ctx.me);
  return spec.last ? pairs.slice(-spec.last) : pairs;
}

function each(ctx, spec) {
  const out = [];
  for (const [key, value] of entries(ctx, spec)) {
    const line = first({ ...ctx, "@": { key, value } }, spec.texts);
    if (line !== null) out.push(line);
  }
  return out;
}

// ---- what the page asks -----------------------------------------------------------------

function context(game, state, me, view = null, extra = {}) {
  const ctx = {
    gameDesc: game, common: DATA.common, me,
    game: state.game, status: state.status, turn: state.turn ?? null, creator: state.creator ?? null,
    // a server from before room hosts names no host: its creator starts the race
    host: state.host ?? state.creator ?? null,
    players: state.players || [], view: view !== null ? view : state.view || {},
    options: state.options || {}, result: state.result ?? null, round: state.round, ...extra,
  };
  ctx.outcome = outcomeOf(game, ctx);
  return ctx;
}

function outcomeOf(game, ctx) {
  const result = ctx.result;
  if (ctx.status !== "over" || !isMap(result) || !seated(ctx)) return "none";
  if (game.coop) return result.reason === "cleared" ? "win" : "loss";
  const winner = result.winner;
  if (winner === null || winner === undefined) return "draw";
  return winner === ctx.me ? "win" : "loss";
}

/** Every fact and condition of `texts` (a description's, as served) on one state, as each
 * text sees them (inside an `each`, once per entry): the values the Python interpreter
 * must give too (tests/web/test_web_description_facts.py). */
export function evaluate(state, me, texts) {
  const walk = (ctx, list) => list.map((text) => {
    const facts = {};
    for (const [name, spec] of Object.entries(text.facts || {})) facts[name] = fact(ctx, spec);
    const local = { ...ctx, $: { ...(ctx.$ || {}), ...facts } };
    const out = { facts, when: (text.when || []).map((c) => holds(local, c)), items: [] };
    if (text.each) {
      out.items = entries(local, text.each).map(([key, value]) => walk({ ...local, "@": { key, value } }, text.each.texts));
    }
    return out;
  });
  return walk(context(describe(state.game), state, me), texts);
}

/** The finished game for the viewer: "win", "loss", "draw" or "none". */
export function outcomeFor(state, me) {
  return context(describe(state.game), state, me).outcome;
}

/** The view with its clocks run on: `since` seconds after it arrived, at wall time `now`. */
export function liveView(state, me, now, since) {
  const game = describe(state.game);
  const view = { ...(state.view || {}) };
  if (state.status !== "playing") return view;
  const ctx = context(game, state, me, view);
  let left = Math.max(0, since);
  for (const live of game.live || []) {
    if (!(live.when || []).every((c) => holds(ctx, c))) continue;
    const value = view[live.path];
    if (live.kind === "countdown" && isNum(value) && value > 0) {
      view[live.path] = Math.max(0, value - left);
      left = Math.max(0, left - value);
    } else if (live.kind === "elapsed" && isNum(value)) {
      view[live.path] = value + left;
    } else if (live.kind === "chess" && isMap(value)) {
      const { running, since: start, remaining } = value;
      if (isMap(remaining) && Object.prototype.hasOwnProperty.call(remaining, running) && isNum(start)) {
        const used = Math.max(0, now - start);
        view[live.path] = { ...value, remaining: { ...remaining, [running]: Math.max(0, num(remaining[running]) - used) } };
      }
    }
  }
  return view;
}

/** The game's part of the status line (`view`: the live view). */
export function statusText(state, me, view) {
  const game = describe(state.game);
  const ctx = context(game, state, me, view);
  return (game.status || []).map((text) => render(ctx, text)).filter(Boolean).join(" · ");
}

/** The line under the board: the game's status, plus watching / offline notes. */
export function statusLine(state, me, view, connected) {
  let line = statusText(state, me, view);
  if (!seated(context(describe(state.game), state, me))) line = t("Watching · {line}", { line });
  if (!connected) line = t("Reconnecting… · {line}", { line });
  return line;
}

/** The line a board shows over itself (`view`: the live view), or "". */
export function boardText(state, me, view) {
  const game = describe(state.game);
  return first(context(game, state, me, view), game.board || []) || "";
}

export function resultText(state, me) {
  const game = describe(state.game);
  const ctx = context(game, state, me);
  return first(ctx, [...(game.results || []), ...DATA.common.results]) || t("Game over.");
}

export function rankingLines(state, me) {
  const game = describe(state.game);
  if (!game.ranking || !game.ranking.each) return [];
  return each(context(game, state, me), game.ranking.each);
}

export function offerText(state, me) {
  const game = describe(state.game);
  const ctx = context(game, state, me);
  return pending(ctx) ? first(ctx, DATA.common.notices.offer) : null;
}

export function playerRoles(state) {
  const game = describe(state.game);
  const ctx = context(game, state, null);
  const out = {};
  for (const text of game.roles || []) {
    if (!text.each) continue;
    for (const [key, value] of entries(ctx, text.each)) {
      const line = first({ ...ctx, "@": { key, value } }, text.each.texts);
      if (line !== null) out[String(key)] = line;
    }
  }
  return out;
}

export function optionsText(gameName, options = {}) {
  const game = describe(gameName);
  if (!(game.summary || []).length) {
    return Object.entries(options).filter(([, v]) => v !== null).map(([k, v]) => `${k}=${v}`).join(", ");
  }
  const ctx = context(game, { options }, null);
  return game.summary.map((text) => render(ctx, text)).filter(Boolean).join(", ");
}

const LOUD = new Set(["game-over", "notice"]);

/** The sentence for one room event (wire fields) already folded into `state`, or null. */
export function eventText(msg, state, me) {
  const game = describe(state.game);
  const kind = String(msg.type);
  const sender = msg.from || msg.player || null;
  if (sender !== null && sender === me && !LOUD.has(kind)) return null;
  if (kind === "game-over") return resultText(state, me);
  if (kind === "offer") {
    const said = offerText(state, me);
    if (said) return said;
  }
  const ctx = context(game, state, me, null, { data: msg });
  if (kind === "notice") {
    ctx.data = isMap(msg.data) ? msg.data : {};
    const said = first(ctx, (game.notices || {})[String(msg.event)]);
    if (said !== null) return said;
    const words = String(msg.event).replace(/-/g, " ");
    return `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
  }
  if ((kind === "joined" || kind === "left") && sender === null) return null;
  return first(ctx, DATA.common.notices[kind]);
}

/** Each action (the game's, then the common ones) with whether it shows and works now. */
export function actionStates(state, me) {
  const game = describe(state.game);
  const ctx = context(game, state, me);
  return [...(game.actions || []), ...DATA.common.actions].map((action) => ({
    action,
    shown: action.shown.every((c) => holds(ctx, c)),
    enabled: action.enabled.every((c) => holds(ctx, c)),
  }));
}

/** How to play with a pointer: told to players only. */
export function gestureText(state, me) {
  const game = describe(state.game);
  return game.gesture && seated(context(game, state, me)) ? t(game.gesture) : "";
}

/** A room's status (waiting, playing, over) in words; an unknown one as it came. */
export function roomStatus(status) {
  const words = (DATA.common.words || {}).status || {};
  return Object.prototype.hasOwnProperty.call(words, String(status)) ? t(words[String(status)]) : String(status || "?");
}

export function gameTitle(name) {
  return t(describe(name).title);
}

/** The sentence for an `error`: the server's own, else a hint by code. */
export function errorText(msg) {
  const hints = DATA.common.words.errors || {};
  const code = String(msg.code || "error");
  // the server writes English: in another language the code's hint says it in the player's words
  if ((code === "internal-error" || language() !== SOURCE) && hints[code]) return t(hints[code]);
  const text = String(msg.message || "").trim();
  if (text) return text;
  return hints[code] ? t(hints[code]) : t("The server refused that ({code}).", { code });
}

/** The heading of a refusal in words, by the refused request's type (never the type). */
export function errorTitle(msg) {
  if (msg.code === "internal-error") return t("Server error");
  if (!msg.request) return "";
  const titles = DATA.common.words.requests || {};
  return t(titles[msg.request] || "Not done");
}
