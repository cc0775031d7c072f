// The replay screen (#replay/GAME_ID): a finished game step by step on the same board
// as a live game (boards.js: the game's own board), fed with each frame's view
// (replay-model.js). Controls: start / previous / next / end (`[data-replay=...]`), a
// slider, autoplay with a speed, the step counter (`[data-replay-step]` = moves shown),
// and the link to share. What a replay adds to the board is the game's board's own
// (its `replayBoards`, `replayView`, `replayCaption`, `replayTracker` and `decorate`,
// boards/grid.js): move numbers and the analysis' marks, each player's cells in their
// colour, every racer's board with the step's path. A game the server analyses offers
// the analysis: the moves that lost a won position or missed a forced win with the
// engine's best move, and the blunders with the move that would have stopped them.

import { $, el } from "./dom.js";
import { N_, t, tn } from "./i18n.js";
import { cellName, clock, describe, gameTitle, optionsText, resultText, shownName } from "./describe.js";
import { boardFor } from "./boards.js";
import { Replay } from "./replay-model.js";
import { failureText, navBar, playerList, when } from "./browse.js";
import { routeHash } from "./routes.js";

const SPEEDS = [0.5, 1, 2, 4, 8]; // steps a second
const MARKS = {
  "lost-win": N_("This move lost a won position."),
  "missed-vcf": N_("This move missed a forced win."),
  blunder: N_("This move let the opponent force a win."),
};

function point(v) {
  return Array.isArray(v) && Number.isInteger(v[0]) && Number.isInteger(v[1]) ? v : null;
}

/** A replay's step in words: "12. Ann: H8" (the label is data, e.g. "H8"). */
function stepText(step, k, who) {
  if (!step) return t("The start: no moves yet.");
  const name = who[step.by] || t("Someone");
  const label = typeof step.label === "string" && step.label ? step.label : "";
  const at = typeof step.t === "number" ? clock(step.t) : "";
  return label ? t("Move {n}: {name}, {move} ({time})", { n: k, name, move: label, time: at })
    : t("Move {n}: {name} ({time})", { n: k, name, time: at });
}

export class ReplayView {
  constructor(app) {
    this.app = app;
    this.section = $("#replay");
    this.replay = null;
    this.gameId = null;
    this.boards = [];
    this.timer = null;
    this.speed = 2;
    this.analysis = null;
    this.asking = 0;
    document.addEventListener("keydown", (event) => this.onKey(event));
    window.addEventListener("resize", () => this.fit());
  }

  /** Show game `arg` (its id as text). */
  open(arg) {
    const id = Number(arg);
    if (this.replay && this.gameId === id) {
      this.build();
      this.draw();
      return;
    }
    this.stop();
    this.gameId = id;
    this.replay = null;
    this.analysis = null;
    this.build();
    this.load();
  }

  /** Leaving the screen: autoplay stops. */
  close() { this.stop(); }

  relabel() {
    this.build();
    this.draw();
  }

  async load() {
    if (!this.app.connected) return;
    const asking = ++this.asking;
    this.error.textContent = "";
    try {
      const answer = await this.app.queries.ask("get-replay", { game_id: this.gameId });
      if (asking !== this.asking) return;
      this.replay = new Replay(answer, boardFor(String(answer.game || "")).replayTracker());
      this.replay.jump(0);
      this.build();
      this.draw();
      this.loadRest(asking);
    } catch (err) {
      if (asking === this.asking) this.error.textContent = failureText(err);
    }
  }

  /** Steps past the first page (over 2,000 steps) come a page at a time. */
  async loadRest(asking) {
    while (this.replay && this.replay.next !== null && asking === this.asking) {
      try {
        const page = await this.app.queries.ask("get-replay", { game_id: this.gameId, from: this.replay.next });
        if (asking !== this.asking) return;
        this.replay.extend(page.steps, page.next);
        this.draw();
      } catch (err) {
        this.error.textContent = failureText(err);
        return;
      }
    }
  }

  // ---- building the screen ------------------------------------------------------------

  build() {
    this.error = el("p", { class: "view-error", role: "status" });
    const head = el("div", { class: "card replay-head" }, el("h2", {}, t("Replay of game {id}", { id: this.gameId })), this.error);
    this.section.replaceChildren(navBar(this.app), head);
    const r = this.replay;
    if (!r) return;
    head.firstChild.textContent = t("{game} · game {id}", { game: gameTitle(r.game), id: this.gameId });
    head.append(
      el("p", { class: "dim" }, optionsText(r.game, r.options), " · ", when(r.endedAt),
        r.rated ? el("span", { class: "tag" }, t("rated")) : null),
      el("p", {}, playerList(r.players)),
      this.resultLine = el("p", { class: "replay-result" }),
    );
    const Board = boardFor(r.game);
    const owners = Board.replayBoards(r); // whose each board is (null: the one everyone sees)
    this.boardsBox = el("div", { class: `replay-boards${owners.length > 1 ? "" : " single"}` });
    this.boards = [];
    for (const who of owners) {
      const board = new Board(() => undefined); // a replay takes no moves
      const wrap = el("div", { class: "board-wrap" }, board.el);
      const caption = who === null ? null : el("figcaption", {}, this.racerName(who));
      this.boardsBox.append(el("figure", { class: "replay-board" }, caption, wrap));
      this.boards.push({ board, wrap, who, caption });
    }
    this.stepBox = el("span", { "data-replay-step": "" }, "0");
    this.total = el("span", { class: "dim" });
    const button = (what, glyph, label, key) => {
      const b = el("button", { type: "button", "data-replay": what, "aria-label": label, title: label, "aria-keyshortcuts": key }, glyph);
      b.addEventListener("click", () => this.control(what));
      return b;
    };
    this.playButton = el("button", { type: "button", class: "primary", "data-replay": "play" });
    this.playButton.addEventListener("click", () => (this.timer ? this.stop() : this.play()));
    const speed = el("select", { class: "small", "aria-label": t("Speed") },
      SPEEDS.map((s) => el("option", { value: String(s) }, t("{n}× speed", { n: s }))));
    speed.value = String(this.speed);
    speed.addEventListener("change", () => {
      this.speed = Number(speed.value);
      if (this.timer) this.play();
    });
    this.slider = el("input", { type: "range", min: 0, max: r.length, value: r.position, "aria-label": t("Move shown") });
    this.slider.addEventListener("input", () => this.show(Number(this.slider.value)));
    const controls = el("div", { class: "replay-controls", role: "group", "aria-label": t("Replay controls") },
      button("start", "«", t("To the start"), "Home"), button("prev", "‹", t("Previous move"), "ArrowLeft"),
      el("span", { class: "counter" }, this.stepBox, this.total),
      button("next", "›", t("Next move"), "ArrowRight"), button("end", "»", t("To the end"), "End"),
      this.playButton, speed);
    this.stepLine = el("p", { class: "replay-step dim", "aria-live": "polite" });
    this.marks = el("div", { class: "replay-analysis" });
    this.legend = el("p", { class: "replay-legend dim" });
    const link = el("input", { readonly: true, class: "replay-link", "aria-label": t("Link to this replay"),
      value: `${location.origin}/${routeHash("replay", this.gameId)}` });
    const copy = el("button", { type: "button", class: "small" }, t("Copy link"));
    copy.addEventListener("click", () => this.copyLink(link));
    this.section.append(el("div", { class: "card replay-card" },
      this.boardsBox, controls, this.slider, this.stepLine, this.legend, this.marks,
      el("div", { class: "invite" }, link, copy)));
    this.renderAnalysis();
  }

  racerName(pid) {
    const p = (this.replay ? this.replay.players : []).find((q) => q.player === pid);
    return p ? shownName(p.name, p.bot) : String(pid);
  }

  // ---- stepping -----------------------------------------------------------------------

  control(what) {
    const r = this.replay;
    if (!r) return;
    if (what !== "play") this.stop();
    if (what === "start") this.show(0);
    else if (what === "prev") this.show(r.position - 1);
    else if (what === "next") this.show(r.position + 1);
    else if (what === "end") this.show(r.length);
  }

  show(k) {
    if (!this.replay) return;
    this.replay.jump(k);
    this.draw();
  }

  play() {
    const r = this.replay;
    if (!r) return;
    clearInterval(this.timer);
    if (r.atEnd) r.jump(0);
    this.timer = setInterval(() => {
      if (!this.replay || this.replay.atEnd) {
        this.stop();
        return;
      }
      this.replay.forward();
      this.draw();
    }, 1000 / this.speed);
    this.renderPlay();
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
    this.renderPlay();
  }

  renderPlay() {
    if (!this.playButton || !this.playButton.isConnected) return;
    this.playButton.textContent = this.timer ? t("Pause") : t("Play");
    this.playButton.setAttribute("aria-pressed", this.timer ? "true" : "false");
  }

  /** Arrow keys step, Home / End jump; not while typing or on the board's own cursor. */
  onKey(event) {
    if (this.app.screen !== "replay" || !this.replay || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement
        || target instanceof HTMLTextAreaElement || (target.closest && target.closest("[data-board]"))) return;
    const what = { ArrowLeft: "prev", ArrowRight: "next", Home: "start", End: "end" }[event.key];
    if (!what) return;
    event.preventDefault();
    this.control(what);
  }

  // ---- drawing ------------------------------------------------------------------------

  draw() {
    const r = this.replay;
    if (!r || !this.stepBox) return;
    const k = r.position;
    const { view, tracked } = r.frame(k);
    const over = k === r.length && r.complete;
    const state = {
      game: r.game, options: r.options, players: r.players, status: over ? "over" : "playing",
      result: over ? r.result : null, view: { ...view },
    };
    delete state.view.starts_in;
    delete state.view.last; // the outlines of players' last actions belong to a live game
    const step = r.step(k);
    const legend = [];
    for (const { board, who, caption } of this.boards) {
      const Board = board.constructor;
      board.render({ state: { ...state, view: Board.replayView(state.view, who) }, me: who,
        copy: { lastActions: {} }, seated: false });
      if (caption) caption.textContent = Board.replayCaption(view, who, this.racerName(who));
      const added = board.decorate({ view, step, k, tracked, who, note: this.note(k), players: r.players });
      if (Array.isArray(added)) legend.push(...added);
    }
    this.legend.replaceChildren(...legend);
    this.stepBox.textContent = String(k);
    this.total.textContent = ` / ${r.length}${r.complete ? "" : "…"}`;
    this.slider.max = String(r.length);
    this.slider.value = String(k);
    const who = Object.fromEntries(r.players.map((p) => [p.player, shownName(p.name, p.bot)]));
    this.stepLine.textContent = stepText(step, k, who);
    this.resultLine.textContent = over ? resultText(state, this.app.session ? this.app.session.player : null) : "";
    for (const b of this.section.querySelectorAll("[data-replay=start], [data-replay=prev]")) b.disabled = k === 0;
    for (const b of this.section.querySelectorAll("[data-replay=next], [data-replay=end]")) b.disabled = k >= r.length;
    this.renderPlay();
    this.renderNote(k);
    this.fit();
  }

  fit() {
    const coarse = window.matchMedia("(pointer: coarse)").matches;
    for (const { board, wrap } of this.boards) {
      board.fit(wrap.clientWidth - 4, Math.max(window.innerHeight * 0.66, 200), coarse ? 18 : 12);
    }
  }

  // ---- analysis (a game the server analyses) ---------------------------------------------

  /** Ask for the analysis (on request only: asking starts a job on the server unless
   * the game was analysed before, which is then answered at once). */
  async analyse() {
    if (!this.replay || !describe(this.replay.game).analysis) return;
    try {
      const answer = await this.app.queries.ask("analyse", { game_id: this.gameId });
      this.onAnalysis(answer);
    } catch (err) {
      this.marks.append(el("p", { class: "view-error" }, failureText(err)));
    }
  }

  /** An `analysis` answer, or the server's push when the job is done. */
  onAnalysis(msg) {
    if (!this.replay || msg.game_id !== this.gameId) return;
    this.analysis = msg;
    this.renderAnalysis();
    this.draw();
  }

  note(k) {
    const moves = this.analysis && Array.isArray(this.analysis.moves) ? this.analysis.moves : [];
    return moves.find((m) => m && m.n === k) || null;
  }

  renderAnalysis() {
    if (!this.marks) return;
    const r = this.replay;
    if (!r || !describe(r.game).analysis || !this.app.features.has("analysis")) {
      this.marks.replaceChildren();
      return;
    }
    const a = this.analysis;
    const status = a ? String(a.status) : "";
    const parts = [el("h3", {}, t("Analysis"))];
    if (status === "queued" || status === "running") {
      const [done, total] = Array.isArray(a.progress) ? a.progress : [0, 0];
      parts.push(el("p", { "data-analysis": status }, total
        ? t("The computer is analysing the game: {done} of {total} moves.", { done, total })
        : t("The computer is analysing the game…")));
    } else if (status === "done") {
      const marked = (Array.isArray(a.moves) ? a.moves : []).filter((m) => m && m.mark && Number.isInteger(m.n));
      parts.push(el("p", { "data-analysis": "done" }, marked.length
        ? tn("The computer found {n} mistake.", "The computer found {n} mistakes.", marked.length)
        : t("The computer found no lost wins, missed forced wins or blunders.")));
      if (marked.length) {
        parts.push(el("ol", { class: "mistakes" }, marked.map((m) => {
          const b = el("button", { type: "button", class: "small", "data-jump": m.n },
            t("Move {n}: {what}", { n: m.n, what: t(MARKS[m.mark] || "This move was a mistake.") }));
          b.addEventListener("click", () => { this.stop(); this.show(m.n); });
          return el("li", {}, b);
        })));
      }
    } else {
      if (status === "failed") parts.push(el("p", { "data-analysis": "failed" }, t("The analysis failed.")));
      const b = el("button", { type: "button", "data-analyse": "" }, t("Analyse this game"));
      b.addEventListener("click", () => this.analyse());
      parts.push(b);
    }
    parts.push(this.noteLine = el("p", { class: "replay-note" }));
    this.marks.replaceChildren(...parts);
  }

  renderNote(k) {
    if (!this.noteLine) return;
    const note = this.note(k);
    if (!note) {
      this.noteLine.textContent = "";
      return;
    }
    const score = Number(note.eval);
    const words = [];
    if (note.mark) words.push(t(MARKS[note.mark] || "This move was a mistake."));
    const best = point(note.best);
    if (note.mark && best) {
      const cell = cellName(best[0], best[1]);
      words.push(note.mark === "blunder" ? t("{cell} would have stopped it.", { cell })
        : t("The computer's move: {cell}.", { cell }));
    }
    if (Number.isFinite(score)) words.push(t("Evaluation for the mover: {score}", { score: Math.round(score) }));
    this.noteLine.textContent = words.join(" ");
  }

  async copyLink(input) {
    try {
      await navigator.clipboard.writeText(input.value);
      this.app.notify(() => t("Link copied."));
      return;
    } catch { /* plain http on a LAN address: a selection copy */ }
    input.focus();
    input.select();
    let copied = false;
    try { copied = document.execCommand("copy"); } catch { copied = false; }
    this.app.notify(() => (copied ? t("Link copied.") : t("Select the link and copy it.")));
  }
}
