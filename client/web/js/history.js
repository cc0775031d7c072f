// The history screen (#history): finished games, newest first, filtered by game and
// player name, a page at a time ("More" asks for the next with the `before` cursor).
// Each game is one `[data-game-id]` item of `[data-history]`; opening it shows its
// replay (#replay/ID).

import { $, el } from "./dom.js";
import { t } from "./i18n.js";
import { gameNames, gameTitle } from "./describe.js";
import { failureText, navBar, summaryLine } from "./browse.js";
import { routeHash } from "./routes.js";

const PAGE = 20;

export class HistoryView {
  constructor(app) {
    this.app = app;
    this.section = $("#history");
    this.games = [];
    this.next = null;
    this.filter = { game: "", name: "" };
    this.asking = 0; // the latest query: answers to older ones are dropped
  }

  /** Show the screen and ask for the first page. */
  open() {
    this.build();
    this.load(false);
  }

  relabel() {
    this.build();
    this.renderList();
  }

  build() {
    const games = el("select", { name: "game", "aria-label": t("Game") },
      el("option", { value: "" }, t("All games")),
      ...gameNames().map((name) => el("option", { value: name }, gameTitle(name))));
    games.value = this.filter.game;
    const name = el("input", {
      name: "name", maxlength: 32, placeholder: t("Player name"), "aria-label": t("Player name"), autocomplete: "off",
    });
    name.value = this.filter.name;
    const form = el("form", { class: "row history-filter" }, games, name,
      el("button", { type: "submit", class: "primary" }, t("Show")));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.filter = { game: games.value, name: name.value.trim() };
      this.load(false);
    });
    this.list = el("ol", { class: "game-list", "data-history": "" });
    this.empty = el("p", { class: "dim", hidden: true }, t("No finished games yet."));
    this.error = el("p", { class: "view-error", role: "status" });
    this.more = el("button", { type: "button", hidden: true, "data-more": "" }, t("More"));
    this.more.addEventListener("click", () => this.load(true));
    this.section.replaceChildren(navBar(this.app), el("div", { class: "card" },
      el("h2", {}, t("Finished games")), form, this.error, this.list, this.empty, this.more));
  }

  /** Ask for the first page (or, with `more`, the page after the ones shown). */
  async load(more) {
    if (!this.app.connected) return; // asked again when the connection is back
    const fields = { limit: PAGE };
    if (this.filter.game) fields.game = this.filter.game;
    if (this.filter.name) fields.name = this.filter.name;
    if (more && this.next !== null) fields.before = this.next;
    const asking = ++this.asking;
    this.error.textContent = "";
    this.more.disabled = true;
    this.list.setAttribute("aria-busy", "true"); // tests and screen readers: an answer is due
    try {
      const answer = await this.app.queries.ask("list-games", fields);
      if (asking !== this.asking) return;
      const page = Array.isArray(answer.games) ? answer.games : [];
      this.games = more ? this.games.concat(page) : page;
      this.next = answer.next === null || answer.next === undefined ? null : answer.next;
      this.renderList();
    } catch (err) {
      if (asking === this.asking) this.error.textContent = failureText(err);
    } finally {
      if (asking === this.asking) {
        this.more.disabled = false;
        this.list.removeAttribute("aria-busy");
      }
    }
  }

  renderList() {
    if (!this.list) return;
    const me = this.app.session ? this.app.session.player : null;
    this.list.replaceChildren(...this.games.filter((g) => Number.isInteger(g.game_id)).map((g) => {
      const link = el("a", { href: routeHash("replay", g.game_id), class: "game-link" }, ...summaryLine(g, me));
      return el("li", { "data-game-id": g.game_id }, link);
    }));
    this.empty.hidden = this.games.length > 0;
    this.more.hidden = this.next === null;
  }
}
