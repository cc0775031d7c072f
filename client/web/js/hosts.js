// Room hosts and the server operator's messages, as the browser shows them: folding
// `host` events into our copy of the room, and their sentences (event lines, the
// removed player's note, announcements). Pure functions: room.js and main.js draw them,
// tests/web/test_web_hosts.py runs them in the browser engine.
//
// Everything here is data from the network: it goes into the page as text, never markup.

import { SOURCE, dateLocale, language, t, tn } from "./i18n.js";

/** The removal times the host picks from, in minutes (the server takes 1..1440). */
export const KICK_MINUTES = [5, 10, 30, 60];
export const KICK_DEFAULT = 10;

/** The game has computer opponents (its description offers an `ai` option). */
export function hasComputer(description) {
  return (description.form || []).some((field) => field.key === "ai");
}

/** True when `me` is the room's host (an older server sends no `host`: nobody is). */
export function isHost(state, me) {
  return typeof state.host === "string" && state.host === me;
}

export function isMuted(state, player) {
  return Array.isArray(state.muted) && state.muted.includes(player);
}

/** Fold one `host` event into a room's state. Returns true when the event does not say
 * enough to do so (a computer seat changed: the roster comes with a fresh `state`). */
export function foldHost(state, msg) {
  const muted = Array.isArray(state.muted) ? state.muted.filter((p) => p !== msg.player) : [];
  switch (msg.action) {
    case "hand-over":
      if (typeof msg.player === "string") state.host = msg.player;
      return false;
    case "lock":
    case "unlock":
      state.locked = msg.action === "lock";
      return false;
    case "mute":
      if (typeof msg.player === "string") muted.push(msg.player);
      state.muted = muted;
      return false;
    case "unmute":
      state.muted = muted;
      return false;
    case "kick": // the `left` that follows takes them off the roster
      return false;
    default:
      return true;
  }
}

/** Spectators' ids, which a `state` does not carry (it names them only): learned from
 * their `joined` events and chat lines, so the host's tools can reach them. */
export function noteWatcher(watchers, msg, state) {
  if (msg.type === "joined" && msg.role === "spectator" && typeof msg.player === "string") {
    watchers.set(msg.player, String(msg.name));
  } else if (msg.type === "left" && typeof msg.player === "string") {
    watchers.delete(msg.player);
  } else if (msg.type === "player-info" && watchers.has(msg.player) && typeof msg.name === "string") {
    watchers.set(msg.player, msg.name);
  } else if (msg.type === "chat" && typeof msg.from === "string"
             && !(state.players || []).some((p) => p.player === msg.from)
             && (state.spectators || []).includes(msg.name)) {
    watchers.set(msg.from, String(msg.name));
  }
}

/** Spectators' ids from a `state` that carries them (`spectator_ids`, in the order of
 * `spectators`; older servers send none). */
export function noteWatchers(watchers, state) {
  const ids = state.spectator_ids;
  const names = state.spectators;
  if (!Array.isArray(ids) || !Array.isArray(names) || ids.length !== names.length) return;
  ids.forEach((player, n) => {
    if (typeof player === "string") watchers.set(player, String(names[n]));
  });
}

/** Spectators with an id we know: [{player, name}], in the state's order. */
export function knownWatchers(state, watchers) {
  const byName = new Map();
  for (const [player, name] of watchers) if (!byName.has(name)) byName.set(name, player);
  const seen = new Set();
  const out = [];
  for (const name of (state.spectators || []).map(String)) {
    const player = byName.get(name);
    if (player !== undefined && !seen.has(player)) {
      seen.add(player);
      out.push({ player, name });
    }
  }
  return out;
}

/** A wall-clock time in the page's language: "14:05", with the date when not today. */
export function clockTime(epochSeconds, now = new Date()) {
  const when = new Date(Number(epochSeconds) * 1000);
  if (Number.isNaN(when.getTime())) return "?";
  const lang = dateLocale();
  const sameDay = when.toDateString() === now.toDateString();
  const opts = sameDay ? { hour: "2-digit", minute: "2-digit" }
    : { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" };
  try { return when.toLocaleString(lang, opts); } catch { return when.toLocaleString(undefined, opts); }
}

function nameOf(player, state, watchers, me, fallback) {
  if (player === null || player === undefined) return fallback;
  if (player === me) return t("You");
  const seat = (state.players || []).find((p) => p.player === player);
  if (seat) return String(seat.name);
  if (watchers && watchers.has(player)) return watchers.get(player);
  return fallback;
}

/** The room log's line for a `host` event. */
export function hostEventText(msg, state, me, watchers = null) {
  const by = nameOf(msg.by, state, watchers, me, t("The host"));
  const name = msg.player === me ? t("you")
    : typeof msg.name === "string" ? msg.name : nameOf(msg.player, state, watchers, null, t("someone"));
  const minutes = Number.isInteger(msg.minutes) ? msg.minutes : null;
  switch (msg.action) {
    case "kick":
      return minutes === null ? t("{by} removed {name} from the room.", { by, name })
        : tn("{by} removed {name} for {n} minute.", "{by} removed {name} for {n} minutes.", minutes, { by, name });
    case "mute":
      return minutes === null ? t("{by} muted {name}.", { by, name })
        : tn("{by} muted {name} for {n} minute.", "{by} muted {name} for {n} minutes.", minutes, { by, name });
    case "unmute": // by nobody: the mute's time ended; by the member itself: it hosts now
      if (msg.by === null) return t("{name} can chat again.", { name });
      if (msg.by === msg.player) {
        return msg.player === me ? t("You host the room now, so you may chat again.")
          : t("{name} hosts the room now, so they may chat again.", { name });
      }
      return t("{by} unmuted {name}.", { by, name });
    case "lock":
      return t("{by} locked the room: nobody new can join.", { by });
    case "unlock":
      return t("{by} unlocked the room.", { by });
    case "hand-over":
      return msg.player === me ? t("You are the host now.") : t("{name} is the host now.", { name });
    case "computer":
      return msg.level === "hard" ? t("{by} set the computer opponent to hard.", { by })
        : t("{by} set the computer opponent to easy.", { by });
    default:
      return null;
  }
}

const UNTIL = new Set(["kicked", "muted", "banned"]);

/** " Again from 14:05." after a refusal that lasts a while, when the page shows the
 * code's own words (not English): the server's English sentence says how long, the
 * translated hint does not. "" otherwise. */
export function retryText(msg, now = Date.now() / 1000) {
  const wait = msg.retry_after;
  if (language() === SOURCE || !UNTIL.has(msg.code) || typeof wait !== "number" || !(wait > 0)) return "";
  return " " + t("Again from {time}.", { time: clockTime(now + wait) });
}

/** What the removed player reads in the lobby, from the `left` event about them. */
export function removedText(room, until) {
  if (typeof until === "number") {
    return t("The host removed you from room {room}. You can join it again after {time}.",
      { room, time: clockTime(until) });
  }
  return t("The host removed you from room {room}.", { room });
}

/** The room's members are told why the operator closed it. */
export function closedText(room, reason) {
  const why = String(reason || "").trim();
  return why ? t("The server's operator closed room {room}: {reason}", { room, reason: why })
    : t("The server's operator closed room {room}.", { room });
}

/** Our room could not be restored after the server restarted (error `room-lost`). */
export function lostText(room, reason) {
  const code = String(room || "?");
  const why = String(reason || "").trim();
  if (why) {
    return t("Your room {code} could not be restored after the server restarted, so you are back in the lobby. The server says: {reason}", { code, reason: why });
  }
  return t("Your room {code} could not be restored after the server restarted, so you are back in the lobby.", { code });
}

/** An announcement to everyone on the server. */
export function announcementText(msg) {
  const text = String(msg.text || "");
  return typeof msg.ts === "number"
    ? t("Announcement ({time}): {text}", { time: clockTime(msg.ts), text })
    : t("Announcement: {text}", { text });
}

const OPERATOR = "removed by the server's operator";

/** A close reason that says the server's operator removed us (not a flood or a slow
 * link, after which the page reconnects by itself). */
export function isOperatorRemoval(reason) {
  return String(reason || "").startsWith(OPERATOR);
}

/** A connection closed with 1008: the operator removed us (and maybe said why). */
export function removedFromServerText(reason) {
  let why = String(reason || "").trim();
  if (why.startsWith(OPERATOR)) why = why.slice(OPERATOR.length).replace(/^\s*:\s*/, "");
  return why ? t("The server's operator removed you from the server: {reason}", { reason: why })
    : t("The server's operator removed you from the server.");
}
