// What the history, replay, leaderboard and profile screens share: the bar of links
// between them, summaries of finished games in words, and errors said in place.

import { el } from "./dom.js";
import { dateLocale, t, tn } from "./i18n.js";
import { describe, errorText, gameNames, gameTitle, resultText, shownName } from "./describe.js";
import { retryText } from "./hosts.js";
import { routeHash } from "./routes.js";
import { playerColor } from "./text.js";

/** The games with a leaderboard (their descriptions' `ratings`). */
export function ratedGames() {
  return gameNames().filter((g) => describe(g).ratings === "rated");
}

/** The co-op games that keep team records instead. */
export function recordGames() {
  return gameNames().filter((g) => describe(g).ratings === "records");
}

/** The links between the screens; `back` returns to the lobby or the room. */
export function navBar(app) {
  const back = el("button", { type: "button", class: "small", "data-browse-back": "" },
    app.session && app.session.room ? t("Back to the room") : t("Back to the lobby"));
  back.addEventListener("click", () => app.leaveBrowse());
  const links = [el("a", { href: routeHash("history"), "data-nav": "history" }, t("History"))];
  if (app.features.has("ratings")) {
    links.push(el("a", { href: routeHash("leaderboard"), "data-nav": "leaderboard" }, t("Leaderboards")),
      el("a", { href: routeHash("profile"), "data-nav": "profile" }, t("My profile")));
  }
  return el("nav", { class: "browse-nav", "aria-label": t("Games played") }, back, ...links);
}

/** A refusal or a lost connection, in words. */
export function failureText(err) {
  const msg = err && err.msg ? err.msg : { code: "offline" };
  if (msg.code === "offline") return t("Not connected to the server right now; reconnecting, try again in a moment.");
  if (msg.code === "no-such-game") return t("There is no finished game with that number.");
  return errorText(msg) + retryText(msg);
}

/** A finished game's result from the viewer's side ("You win by five in a row!"). */
export function summaryResult(summary, me) {
  const state = {
    game: String(summary.game), status: "over", options: summary.options || {},
    players: Array.isArray(summary.players) ? summary.players : [], result: summary.result || {}, view: {},
  };
  return resultText(state, me);
}

const dateFormat = () => new Intl.DateTimeFormat(dateLocale(),
  { dateStyle: "medium", timeStyle: "short" });

/** Seconds since 1970 as a date and time in the page's language. */
export function when(seconds) {
  return typeof seconds === "number" && Number.isFinite(seconds) ? dateFormat().format(new Date(seconds * 1000)) : "";
}

/** The players as coloured names (text only). */
export function playerList(players) {
  return el("span", { class: "who" }, ...(players || []).flatMap((p, i) => {
    const dot = el("span", { class: "dot" });
    dot.style.setProperty("--c", playerColor(p));
    return [i ? t(", ") : null, dot, " ", el("span", { class: "name" }, shownName(p.name || "?", p.bot))];
  }));
}

/** One finished game as a line: when, game, players, result, moves, rated. */
export function summaryLine(summary, me) {
  return [
    el("span", { class: "when dim" }, when(summary.ended_at)),
    el("span", { class: "what" }, gameTitle(String(summary.game))),
    playerList(summary.players),
    el("span", { class: "result" }, summaryResult(summary, me)),
    el("span", { class: "dim" }, tn("{n} move", "{n} moves", Number(summary.moves || 0))),
    summary.rated ? el("span", { class: "tag" }, t("rated")) : null,
    summary.source === "import" ? el("span", { class: "tag" }, t("imported")) : null,
  ];
}
