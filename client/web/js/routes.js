// The page's own addresses beside invite links (which are room codes):
//   #history                 the finished games          (history.js)
//   #replay/GAME_ID          one game, step by step       (replay.js)
//   #leaderboard[/GAME]      a game's leaderboard, the first game's without one (leaderboard.js)
//   #profile[/PLAYER_ID]     a player's profile, ours without an id (profile.js)
// Room codes are upper case letters and digits, so the lower-case words never clash.

const ROUTES = {
  history: /^$/,
  replay: /^[0-9]{1,15}$/,
  leaderboard: /^(|[a-z][a-z0-9_-]{0,31})$/,
  profile: /^(|[A-Za-z0-9_-]{1,64})$/,
};

/** {view, arg} for one of the page's own addresses, else null. */
export function parseRoute(hash) {
  const text = decodeURIComponent(String(hash || "").replace(/^#\/?/, "")).split("?")[0];
  const slash = text.indexOf("/");
  const view = slash < 0 ? text : text.slice(0, slash);
  const arg = slash < 0 ? "" : text.slice(slash + 1);
  if (!Object.prototype.hasOwnProperty.call(ROUTES, view) || !ROUTES[view].test(arg)) return null;
  return { view, arg };
}

/** The address of a view: routeHash("replay", 42) -> "#replay/42". */
export function routeHash(view, arg = "") {
  return arg === "" || arg === null || arg === undefined ? `#${view}` : `#${view}/${encodeURIComponent(String(arg))}`;
}
