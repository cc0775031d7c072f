// Words the client shows: titles, error sentences, status lines, results, notices.
// Ported from client/views/ (the terminal and Tk clients say the same things).

export const GAME_TITLES = { gomoku: "Gomoku", minesweeper: "Minesweeper", linkmatch: "Link-match" };

const ERROR_HINTS = {
  "bad-message": "The server could not understand that request.",
  "unknown-type": "The server does not know that request (is it an older version?).",
  "not-welcomed": "Still connecting; try again in a moment.",
  "version-mismatch": "This page and the server speak different protocol versions; reload the page.",
  "no-such-room": "There is no room with that code; check it and try again.",
  "room-full": "That room is full; join as a spectator instead.",
  "wrong-password": "Wrong password for that private room.",
  "not-in-room": "You are not in a room.",
  "already-in-room": "Leave your current room first.",
  "not-a-player": "Spectators cannot play; join a seat to play.",
  "not-your-turn": "It is not your turn yet.",
  "illegal-move": "That move is not allowed.",
  "not-playing": "The game is not running right now.",
  "no-pending-request": "There is nothing to answer.",
  "rate-limited": "Slow down a little; the server is limiting requests.",
  "server-busy": "The server is busy; try again shortly.",
  offline: "Not connected; reconnecting.",
};

const REQUEST_TITLES = {
  hello: "Could not connect", "list-rooms": "Room list not loaded", "create-room": "Room not created",
  "join-room": "Could not join", "leave-room": "Could not leave", sync: "Could not catch up with the room",
  "player-info": "Name or colour not changed", move: "Move not made", chat: "Chat line not sent",
  resign: "Could not resign", "play-again": "No new game", "agree-again": "No new game",
  "decline-again": "No new game", offer: "Offer not made", answer: "Not answered", start: "Race not started",
};

/** The heading of a refusal in words, by the refused request's type (never the type). */
export function errorTitle(msg) {
  if (msg.code === "internal-error") return "Server error";
  if (!msg.request) return "";
  return REQUEST_TITLES[msg.request] || "Not done";
}

/** The sentence for an `error`: the server's own, else a hint by code. */
export function errorText(msg) {
  const text = String(msg.message || "").trim();
  const code = String(msg.code || "error");
  return text || ERROR_HINTS[code] || `The server refused that (${code}).`;
}

/** `m:ss` for a number of seconds. */
export function clock(seconds) {
  if (seconds === null || seconds === undefined || Number.isNaN(seconds)) return "";
  const total = Math.max(0, Math.floor(seconds));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

/** Player id -> display name for everyone seated. */
export function names(state) {
  const out = {};
  for (const p of state.players || []) out[String(p.player)] = String(p.name);
  return out;
}

// Okabe-Ito's colour-blind-safe hues, lightened to read on the dark page (WCAG AA)
export const PLAYER_COLORS = ["#56b4e9", "#e69f00", "#3fbf9a", "#e3a6c9", "#f0e442", "#f28e5c", "#d0d0d0"];

/** A player's chosen colour if it is a plain #rgb/#rrggbb, else one by seat. */
export function playerColor(player) {
  const c = player.color;
  if (typeof c === "string" && /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(c)) return c;
  const seat = Number.isInteger(player.seat) ? player.seat : 0;
  return PLAYER_COLORS[seat % PLAYER_COLORS.length];
}

// ---- lobby ------------------------------------------------------------------------------

export function optionsText(game, o = {}) {
  if (game === "gomoku") {
    let text = `${o.size || 15}×${o.size || 15} ${o.rule || "freestyle"}`;
    if (o.ai) text += `, computer (${o.ai})`;
    if (o.clock) {
      const c = typeof o.clock === "string" ? o.clock : `${o.clock.minutes}+${o.clock.increment}`;
      text += `, clock ${c}`;
    }
    return text;
  }
  if (game === "minesweeper") {
    if (o.preset && !o.width) return String(o.preset);
    const lives = o.lives > 1 ? `, ${o.lives} lives` : "";
    return `${o.width || 16}×${o.height || 16}, ${o.mines || 40} mines${lives}`;
  }
  if (game === "linkmatch") {
    const grav = o.gravity === "down" ? ", gravity" : "";
    return `${o.width || 16}×${o.height || 9}, ${o.kinds || 36} kinds${grav}`;
  }
  return Object.entries(o).map(([k, v]) => `${k}=${v}`).join(", ");
}

// ---- results ----------------------------------------------------------------------------

const REASONS = {
  five: "five in a row", resign: "resignation", draw: "the board is full",
  "agreed-draw": "agreement", timeout: "time", time: "time", forbidden: "a forbidden move",
  disconnect: "disconnection", cleared: "board cleared", mine: "a mine",
};

/** The game-over headline. */
export function resultText(state, me) {
  const result = state.result || {};
  const reason = String(result.reason || "over");
  const who = names(state);
  const winner = result.winner;
  const why = REASONS[reason] || reason;
  if (state.game === "minesweeper") {
    if (reason === "cleared") return "Board cleared — everyone wins!";
    if (reason === "resign") return "Everyone left the game.";
    return result.by ? `Boom! ${who[result.by] || "Someone"} hit a mine.` : "Boom! A mine.";
  }
  if (state.game === "linkmatch" && reason === "time" && winner) return raceOnTime(result, who, me);
  if (winner === null || winner === undefined) return `Draw by ${why}.`;
  if (winner === me) return `You win by ${why}!`;
  return `${who[winner] || "The opponent"} wins by ${why}.`;
}

/** A race lost to the clock: what put the winner ahead (the result's `decided_by`). */
function raceOnTime(result, who, me) {
  const winner = result.winner;
  const runner = (result.ranking || []).find((p) => p !== winner);
  const left = result.remaining || {};
  const name = (p) => (p === me ? "you" : who[p] || "the opponent");
  const head = winner === me ? "Time is up: you win" : `Time is up: ${name(winner)} wins`;
  const decided = result.decided_by;
  if (decided === "tiles" && runner) {
    return `${head} with the fewest tiles left (${left[winner] ?? "?"}; ${name(runner)} ${left[runner] ?? "?"}).`;
  }
  if (decided === "first" && runner) {
    return `${head}: both ${name(winner)} and ${name(runner)} had ${left[winner] ?? "?"} tiles left, `
      + `and ${name(winner)} got there first.`;
  }
  if (decided === "seat") return `${head}: nobody linked a pair, so the first seat wins.`;
  return `${head} with ${left[winner] ?? "?"} tiles left.`;
}

/** Link-match's ranking lines after a race: "Ann: cleared in 0:41". */
export function rankingLines(state) {
  const result = state.result || {};
  const who = names(state);
  const times = result.times || {};
  const remaining = result.remaining || {};
  return (result.ranking || []).map((p) => {
    const left = remaining[p];
    const how = left === 0 ? `cleared in ${clock(times[p])}` : `${left ?? "?"} tiles left`;
    return `${who[p] || "?"}: ${how}`;
  });
}

// ---- status lines -----------------------------------------------------------------------

// Cell names as the server's sentences and every client's labels write them
// (protocol/cells.py): letters for columns, skipping I (A..H, J..Z, AA, AB ...), and
// numbers for rows, 1 at the top. So x=7, y=7 is H8.
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

export const gomokuCoord = cellName;

function gomokuStatus(state, me) {
  const view = state.view || {};
  const moves = view.moves || [];
  const who = names(state);
  const parts = [];
  if (state.status === "waiting") parts.push("Waiting for an opponent to join…");
  else if (state.status === "playing") {
    if (state.turn === me) parts.push(`Your move (${view.next})`);
    else parts.push(`${who[state.turn] || "Opponent"} to move (${view.next})`);
  } else parts.push("Game over");
  parts.push(`move ${moves.length + (state.status === "playing" ? 1 : 0)}`);
  if (Array.isArray(view.last)) parts.push(`last ${gomokuCoord(view.last[0], view.last[1])}`);
  const rule = view.rule || (state.options || {}).rule;
  if (rule) parts.push(String(rule));
  return parts.join(" · ");
}

function minesStatus(state, me, lastActions) {
  const view = state.view || {};
  const w = view.width || 0;
  const h = view.height || 0;
  const mines = view.mines || 0;
  const parts = [
    `${mines - (view.flags || 0)} mines left`,
    `time ${clock(view.elapsed || 0)}`,
    `${view.revealed || 0}/${w * h - mines} open`,
  ];
  if ((view.lives || 1) > 1) parts.push(`lives ${view.lives_left ?? view.lives}/${view.lives}`);
  const hint = view.hint;
  if (hint && Number.isInteger(hint.x)) {
    parts.push(`hint: ${cellName(hint.x, hint.y)} ${hint.safe ? "is safe" : "is the best guess"}`);
  }
  const who = names(state);
  const last = view.last && Object.keys(view.last).length ? view.last : lastActions;
  const verbs = { reveal: "opened", chord: "chorded", mark: "marked", "flag-around": "flagged around" };
  for (const [player, move] of Object.entries(last || {}).slice(-3)) {
    if (player === me || !Number.isInteger(move.x)) continue;
    parts.push(`${who[player] || "?"} ${verbs[move.action] || "played"} ${cellName(move.x, move.y)}`);
  }
  return parts.join(" · ");
}

const STANDING = { cleared: "cleared", time: "out of time", resigned: "resigned" };

/** " (out of time)" for a racer who is out of the race, "" for one still racing. */
function standingNote(how) {
  return how && how !== "racing" ? ` (${STANDING[how] || how})` : "";
}

function linkStatus(state, me) {
  const view = state.view || {};
  const limit = view.time_limit || (state.options || {}).time_limit;
  const parts = "remaining" in view ? [`${view.remaining} tiles left`] : [];
  const who = names(state);
  if (state.status === "waiting") {
    parts.unshift(state.creator === me ? "Press Start when everyone is in"
      : `Waiting for ${who[state.creator] || "the room's creator"} to start the race`);
  }
  if (view.starts_in > 0) parts.unshift(`Starting in ${Math.ceil(view.starts_in)}…`);
  let timer = `time ${clock(view.elapsed || 0)}`;
  if (limit) timer += ` / ${clock(limit)}`;
  if (view.penalty) timer += ` (+${Math.floor(view.penalty)}s hints)`;
  parts.push(timer);
  const standing = view.standing || {};
  const others = [];
  for (const [player, left] of Object.entries(view.progress || {})) {
    if (player === me) continue;
    others.push(`${who[player] || "?"} ${left}${standingNote(standing[player])}`);
  }
  if (others.length) parts.push(`others: ${others.join(", ")}`);
  return parts.join(" · ");
}

/** The line under the board, as the Tk client words it. */
export function statusLine(copy, me, connected, seated) {
  const state = copy.state;
  let line;
  if (state.game === "gomoku") {
    line = gomokuStatus(state, me);
    const remaining = ((state.view || {}).clock || {}).remaining || {};
    const who = names(state);
    const clocks = Object.entries(remaining).map(([p, s]) => `${who[p] || "?"} ${clock(s)}`);
    if (clocks.length) line += ` · ${clocks.join(", ")}`;
  } else if (state.game === "minesweeper") line = minesStatus(state, me, copy.lastActions);
  else if (state.game === "linkmatch") line = linkStatus(state, me);
  else line = String(state.status || "");
  if (!seated) line = `Watching · ${line}`;
  if (!connected) line = `Reconnecting… · ${line}`;
  return line;
}

/** A pending Gomoku offer, worded for us. */
export function offerText(state, me) {
  const pending = (state.view || {}).pending;
  if (!pending) return null;
  const draw = pending.kind === "draw";
  if (pending.from === me) {
    return `You ${draw ? "offered a draw" : "asked to take back your last move"}; waiting for an answer.`;
  }
  const who = names(state)[pending.from] || "Your opponent";
  return draw ? `${who} offers a draw.` : `${who} asks to take back the last move.`;
}

const NOTICES = {
  "race-start": "Go! The race is on.",
  "time-up": "{name} ran out of time.",
  shuffled: "No moves were left: {name}'s board was shuffled.",
  cleared: "{name} cleared the board!",
};

/** What an answered offer was, in words: "draw", "take-back". */
export const OFFER_NAMES = { draw: "draw", takeback: "take-back" };

export function noticeText(event, data, who) {
  const name = who[String((data || {}).player)] || "Someone";
  const template = NOTICES[event];
  if (template) return template.replace("{name}", name);
  const words = String(event).replace(/-/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The note next to each player: colour, cells opened, tiles left. */
export function playerRoles(state) {
  const view = state.view || {};
  const roles = {};
  if (state.game === "gomoku") {
    for (const [p, c] of Object.entries(view.colors || {})) roles[p] = String(c);
  } else if (state.game === "linkmatch") {
    const standing = view.standing || {};
    for (const [p, n] of Object.entries(view.progress || {})) roles[p] = `${n} left${standingNote(standing[p])}`;
  } else if (state.game === "minesweeper") {
    for (const [p, s] of Object.entries(view.stats || {})) {
      roles[p] = `${s.revealed || 0} opened${s.mines_hit ? `, ${s.mines_hit} hit` : ""}`;
    }
    for (const p of view.left || []) roles[p] = "left the game";
  }
  return roles;
}
