// The leaderboard screen (#leaderboard/GAME): a rated game's players best first, a
// page at a time, and "My rank" (the rows around ours); a co-op game, played as a
// team, shows its records instead (best times per board, games, win rate). Which is
// which, the descriptions say (`ratings`); without a game, the first listed.
// Hook: `[data-leaderboard]` holds one `[data-player-name]` row per player.

import { $, el } from "./dom.js";
import { t } from "./i18n.js";
import { clock, gameTitle, shownName } from "./describe.js";
import { failureText, navBar, ratedGames, recordGames } from "./browse.js";
import { routeHash } from "./routes.js";

const PAGE = 20;

/** A rating with its provisional mark ("1500?"): provisional until 10 rated games. */
export function ratingText(row) {
  const value = Math.round(Number(row.rating || 0));
  return row.provisional ? t("{rating}?", { rating: value }) : String(value);
}

/** A team record's board in words: "expert, no guessing, 3 lives". */
export function recordBoard(record) {
  const words = [String(record.board || record.preset || "?")];
  if (record.no_guess) words.push(t("no guessing"));
  if (Number.isInteger(record.lives) && record.lives > 1) words.push(t("{n} lives", { n: record.lives }));
  return words.join(t(", "));
}

/** Records as a table: board, games, wins, win rate, best times (each a replay link). */
export function recordsTable(records) {
  const rows = (Array.isArray(records) ? records : []).map((r) => {
    const games = Number(r.games || 0);
    const wins = Number(r.wins || 0);
    const best = (Array.isArray(r.best) ? r.best : Array.isArray(r.times) ? r.times : []).slice(0, 3);
    return el("tr", { "data-record": recordBoard(r) },
      el("td", {}, recordBoard(r)),
      el("td", {}, String(games)),
      el("td", {}, String(wins)),
      el("td", {}, games ? `${Math.round((100 * wins) / games)} %` : "—"),
      el("td", {}, ...best.flatMap((b, i) => {
        const names = Array.isArray(b.names) ? b.names.map(String).join(t(", ")) : "";
        const time = clock(Number(b.time || 0));
        const text = names ? t("{time} by {names}", { time, names }) : time;
        return [i ? el("br") : null, Number.isInteger(b.game_id)
          ? el("a", { href: routeHash("replay", b.game_id) }, text) : text];
      })));
  });
  if (!rows.length) return el("p", { class: "dim" }, t("No records yet."));
  return el("div", { class: "table-wrap" }, el("table", { class: "list-table records" },
    el("thead", {}, el("tr", {}, el("th", {}, t("Board")), el("th", {}, t("Games")), el("th", {}, t("Wins")),
      el("th", {}, t("Win rate")), el("th", {}, t("Best times")))),
    el("tbody", {}, rows)));
}

export class LeaderboardView {
  constructor(app) {
    this.app = app;
    this.section = $("#leaderboard");
    this.game = "";
    this.rows = [];
    this.total = 0;
    this.records = null;
    this.asking = 0;
  }

  open(arg) {
    const game = arg || [...ratedGames(), ...recordGames()][0] || "";
    if (game !== this.game) {
      this.rows = [];
      this.records = null;
    }
    this.game = game;
    this.build();
    this.load({});
  }

  relabel() {
    this.build();
    this.render();
  }

  build() {
    const tabs = [...ratedGames(), ...recordGames()].map((g) => el("a", {
      href: routeHash("leaderboard", g), class: g === this.game ? "tab current" : "tab",
      "aria-current": g === this.game ? "page" : null,
    }, gameTitle(g)));
    this.error = el("p", { class: "view-error", role: "status" });
    this.body = el("div", { class: "leaderboard-body" });
    const mine = el("button", { type: "button", "data-my-rank": "" }, t("My rank"));
    mine.addEventListener("click", () => this.load({ around: this.app.session.player }));
    const top = el("button", { type: "button" }, t("Top"));
    top.addEventListener("click", () => this.load({}));
    this.more = el("button", { type: "button", "data-more": "", hidden: true }, t("More"));
    this.more.addEventListener("click", () => this.load({ offset: this.offset + this.rows.length }, true));
    const rated = ratedGames().includes(this.game);
    this.section.replaceChildren(navBar(this.app), el("div", { class: "card" },
      el("h2", {}, rated ? t("Leaderboard") : t("Team records")),
      el("nav", { class: "tabs", "aria-label": t("Games") }, tabs),
      this.error, this.body, rated ? el("div", { class: "row" }, top, mine, this.more) : null));
  }

  async load(fields, append = false) {
    if (!this.app.connected) return;
    const asking = ++this.asking;
    this.error.textContent = "";
    const game = this.game;
    this.body.setAttribute("aria-busy", "true"); // tests and screen readers: an answer is due
    try {
      if (!ratedGames().includes(game)) {
        const answer = await this.app.queries.ask("records", { game });
        if (asking !== this.asking) return;
        this.records = Array.isArray(answer.records) ? answer.records : [];
      } else {
        const answer = await this.app.queries.ask("leaderboard", { game, limit: PAGE, ...fields });
        if (asking !== this.asking) return;
        const rows = Array.isArray(answer.rows) ? answer.rows : [];
        this.rows = append ? this.rows.concat(rows) : rows;
        this.offset = append ? this.offset : Number(answer.offset || 0);
        this.total = Number(answer.total || 0);
      }
      this.render();
    } catch (err) {
      if (asking === this.asking) this.error.textContent = failureText(err);
    } finally {
      if (asking === this.asking) this.body.removeAttribute("aria-busy");
    }
  }

  render() {
    if (!this.body) return;
    if (!ratedGames().includes(this.game)) {
      this.body.replaceChildren(this.records === null ? "" : recordsTable(this.records));
      return;
    }
    const me = this.app.session ? this.app.session.player : null;
    const rows = this.rows.map((r) => el("tr", {
      "data-player-name": String(r.name || ""), "data-player": String(r.player || ""), class: r.player === me ? "me" : null,
    },
    el("td", {}, String(r.rank ?? "")),
    el("td", {}, r.bot ? shownName(r.name || "?", r.bot) : el("a", { href: routeHash("profile", r.player) }, String(r.name || "?")),
      r.bot ? el("span", { class: "tag" }, t("computer")) : null),
    el("td", { title: r.provisional ? t("provisional: fewer than 10 rated games") : null }, ratingText(r)),
    el("td", {}, String(Number(r.games || 0)))));
    this.body.replaceChildren(rows.length
      ? el("div", { class: "table-wrap" }, el("table", { class: "list-table leaderboard" },
        el("thead", {}, el("tr", {}, el("th", {}, t("Rank")), el("th", {}, t("Player")), el("th", {}, t("Rating")),
          el("th", {}, t("Games")))),
        el("tbody", { "data-leaderboard": "" }, rows)))
      : el("p", { class: "dim", "data-leaderboard": "" }, t("No rated games yet.")));
    this.more.hidden = this.offset + this.rows.length >= this.total;
  }
}
