// The profile screen (#profile or #profile/PLAYER_ID): a player's rating per game with
// its history as a small line, their recent games (each opens its replay) and their
// team records.

import { $, el, svg } from "./dom.js";
import { t } from "./i18n.js";
import { gameTitle } from "./describe.js";
import { failureText, navBar, recordGames, summaryLine } from "./browse.js";
import { ratingText, recordsTable } from "./leaderboard.js";
import { routeHash } from "./routes.js";

const W = 240;
const H = 60;

/** A rating history ([[ended_at, rating, game_id]...], oldest first) as an inline SVG
 * line; null with fewer than two points. */
export function ratingLine(history) {
  const points = (Array.isArray(history) ? history : [])
    .filter((h) => Array.isArray(h) && Number.isFinite(Number(h[1])))
    .map((h) => [Number(h[0]), Number(h[1])])
    .sort((a, b) => a[0] - b[0]);
  if (points.length < 2) return null;
  const ys = points.map((p) => p[1]);
  const lo = Math.min(...ys);
  const hi = Math.max(...ys);
  const span = hi - lo || 1;
  const coords = points.map((p, i) => [
    (i * (W - 4)) / (points.length - 1) + 2,
    H - 2 - ((p[1] - lo) * (H - 4)) / span,
  ]);
  const label = t("Rating from {first} to {last}, lowest {low}, highest {high}",
    { first: ys[0], last: ys[ys.length - 1], low: lo, high: hi });
  return svg("svg", { class: "rating-line", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label },
    svg("polyline", { points: coords.map((c) => c.map((v) => v.toFixed(1)).join(",")).join(" ") }));
}

export class ProfileView {
  constructor(app) {
    this.app = app;
    this.section = $("#profile");
    this.player = null;
    this.profile = null;
    this.asking = 0;
  }

  open(arg) {
    const player = arg || (this.app.session ? this.app.session.player : null);
    if (player !== this.player) this.profile = null;
    this.player = player;
    this.build();
    this.load();
  }

  relabel() {
    this.build();
  }

  async load() {
    if (!this.app.connected) return;
    if (!this.player) this.player = this.app.session.player;
    const asking = ++this.asking;
    try {
      const answer = await this.app.queries.ask("get-profile", { player: this.player });
      if (asking !== this.asking) return;
      this.profile = answer;
      this.build();
    } catch (err) {
      if (asking === this.asking) this.error.textContent = failureText(err);
    }
  }

  build() {
    this.error = el("p", { class: "view-error", role: "status" });
    const p = this.profile;
    const card = el("div", { class: "card profile", "data-profile": this.player || "" },
      el("h2", {}, p ? String(p.name || "?") : t("Profile")), this.error);
    this.section.replaceChildren(navBar(this.app), card);
    if (!p) return;
    const me = this.app.session ? this.app.session.player : null;
    const ratings = Object.entries(p.ratings || {});
    card.append(el("h3", {}, t("Ratings")));
    if (!ratings.length) card.append(el("p", { class: "dim" }, t("No rated games yet.")));
    for (const [game, r] of ratings) {
      const history = (Array.isArray(r.history) ? r.history : []).map((h) => [h[0], h[1], h[2]]);
      card.append(el("div", { class: "rating", "data-rating": game },
        el("a", { href: routeHash("leaderboard", game) }, gameTitle(game)), " ",
        el("strong", {}, ratingText(r)), " ",
        el("span", { class: "dim" }, t("{games} rated games, {wins} won", { games: Number(r.games || 0), wins: Number(r.wins || 0) })),
        ratingLine(history)));
    }
    const recent = Array.isArray(p.recent) ? p.recent : [];
    card.append(el("h3", {}, t("Recent games")));
    card.append(recent.length
      ? el("ol", { class: "game-list" }, recent.filter((g) => Number.isInteger(g.game_id)).map((g) => el("li", { "data-game-id": g.game_id },
        el("a", { href: routeHash("replay", g.game_id), class: "game-link" }, ...summaryLine(g, me)))))
      : el("p", { class: "dim" }, t("No finished games yet.")));
    for (const game of recordGames()) {
      const records = (p.records || {})[game];
      if (Array.isArray(records) && records.length) {
        card.append(el("h3", {}, t("{game} records", { game: gameTitle(game) })), recordsTable(records));
      }
    }
  }
}
