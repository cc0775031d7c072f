// Small helpers every screen shares: player names and colours. The games' words
// (titles, status lines, results, notices, errors) come from the descriptions the
// server serves (describe.js), not from this page.

import { shownName } from "./describe.js";

export { cellName, clock, columnName, errorText, errorTitle, shownName } from "./describe.js";

/** Player id -> display name for everyone seated (a computer's in the page's language). */
export function names(state) {
  const out = {};
  for (const p of state.players || []) out[String(p.player)] = shownName(p.name, p.bot);
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
