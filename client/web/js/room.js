// The room screen: board, status line, offer and game-over bars, the game's action
// buttons, players, chat and the invite link with its QR code. It renders what the
// server sent and sends intents; it never decides a result.

import { $, clear, el } from "./dom.js";
import { t, tn } from "./i18n.js";
import { drawQr } from "./qr.js";
import { attachZoom } from "./zoom.js";
import { boardFor } from "./boards.js";
import {
  actionStates, eventText, gameTitle, gestureText, levelWord, liveView, offerText, optionsText, outcomeFor,
  playerRoles, rankingLines, resultText, shownName, statusLine,
} from "./describe.js";
import { cellName, names, playerColor } from "./text.js";
import { HostTools } from "./hosttools.js";
import { hostEventText } from "./hosts.js";
import { routeHash } from "./routes.js";


/** Keys of the offer and result bars' buttons; a game's own buttons take the keys its
 * description gives them (the terminal client's keys). */
const BAR_KEYS = { again: "p", agree: "y", decline: "n", accept: "y", refuse: "n" };

/** Cells below this size (CSS px) are too small to hit: the board starts zoomed in. */
const MIN_TOUCH_CELL = 18;
const MIN_MOUSE_CELL = 12;

/** "R" -> "Shift+R" for aria-keyshortcuts. */
function shortcut(key) {
  return key.length === 1 && key !== key.toLowerCase() ? `Shift+${key}` : key;
}

function chatKey(line) {
  return `${line.ts}|${line.from}|${line.text}`;
}

function seated(state, me) {
  return (state.players || []).some((p) => p.player === me);
}

/** Stop a chess clock (a game's `view.clock`) that was running when the game ended
 * (`game-over` carries no view): the mover's time as of the end, 0:00 after a loss on
 * time. True if changed. */
export function freezeClock(state, skew, now = Date.now() / 1000) {
  const clk = (state.view || {}).clock;
  if (!clk || !clk.running || !clk.remaining) return false;
  const timeout = (state.result || {}).reason === "timeout";
  const used = typeof clk.since === "number" ? Math.max(0, now - skew - clk.since) : 0;
  const left = timeout ? 0 : Math.max(0, (clk.remaining[clk.running] || 0) - used);
  state.view = { ...state.view, clock: { ...clk, running: null, remaining: { ...clk.remaining, [clk.running]: left } } };
  return true;
}

/** The state with clocks run forward by the seconds since it arrived (the server
 * sends times as of its latest event; we count on between events), as the game's
 * description says which clocks run. `skew`: our clock minus the server's. */
export function liveState(state, me, secondsSince, skew, now = Date.now() / 1000) {
  if (state.status !== "playing" || !state.view || typeof state.view !== "object") return state;
  return { ...state, view: liveView(state, me, now - skew, secondsSince) };
}

export class RoomView {
  constructor(app) {
    this.app = app;
    this.section = $("#room");
    this.boardWrap = $("#board-wrap");
    this.status = $("#status");
    this.offerBar = $("#offer-bar");
    this.banner = $("#banner");
    this.actions = $("#actions");
    this.players = $("#players");
    this.spectators = $("#spectators");
    this.chatLog = $("#chat-log");
    this.chatForm = $("#chat-form");
    this.inviteLink = $("#invite-link");
    this.qr = $("#qr");
    this.game = null;
    this.board = null;
    this.copy = null;
    this.received = performance.now();
    this.skew = 0;
    this.offlineAt = null; // {perf, wall}: when the connection dropped, while it is down
    this.chatKeys = [];
    this.buttons = {};
    this.confirmBar = $("#confirm-bar");
    this.confirmed = null; // what the confirm bar's Yes does
    this.pendingChat = null; // {id, text}: cleared from the input once the server echoes it
    this.zoomBar = $("#zoom-bar");
    this.hostTools = new HostTools(app);
    this.rosterKey = null; // what the players list was last drawn from

    $("#leave").addEventListener("click", () => this.leave());
    this.confirmBar.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-confirm]");
      if (!button) return;
      const run = button.dataset.confirm === "yes" ? this.confirmed : null;
      this.hideConfirm();
      if (run) run();
    });
    this.confirmBar.setAttribute("aria-label", t("Confirm"));
    this.confirmBar.querySelector("[data-confirm=no]").textContent = t("Cancel");
    this.zoomBar.setAttribute("aria-label", t("Zoom"));
    const zoomLabels = { 0.8: t("Zoom out"), 0: t("Show the whole board"), 1.25: t("Zoom in") };
    for (const b of this.zoomBar.querySelectorAll("button[data-zoom]")) {
      b.setAttribute("aria-label", zoomLabels[b.dataset.zoom]);
    }
    const zoom = attachZoom(this.boardWrap, () => this.board);
    this.zoomBar.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-zoom]");
      if (button) zoom(Number(button.dataset.zoom));
      this.renderZoom();
    });
    document.addEventListener("keydown", (event) => this.onKey(event));
    for (const bar of [this.offerBar, this.banner]) {
      bar.addEventListener("click", (event) => {
        const button = event.target.closest("button[data-action]");
        if (button) this.action(button.dataset.action);
      });
    }
    this.chatForm.addEventListener("submit", (event) => {
      event.preventDefault();
      // The line stays in the input until the server relays it back: a refused line
      // (rate-limited, too long, offline) is not lost and can be sent again.
      const text = this.chatForm.elements.chat.value.trim();
      if (!text) return;
      // the line stays in the input until the server echoes it (a refused line is not lost)
      const id = this.app.send("chat", { text });
      if (id !== null) this.pendingChat = { id, text };
    });
    $("#copy-link").addEventListener("click", () => this.copyLink());
    new ResizeObserver(() => this.fit()).observe(this.boardWrap);
    window.addEventListener("resize", () => this.fit());
  }

  // ---- from the server ---------------------------------------------------------------

  /** Show `copy` (the session's room); builds the board when the game changes. */
  show(copy, me) {
    this.copy = copy;
    this.me = me;
    this.received = performance.now();
    const game = copy.state.game;
    if (game !== this.game) {
      this.game = game;
      const Board = boardFor(game);
      this.board = new Board((request, notice) => this.intent(request, notice));
      this.boardWrap.replaceChildren(this.board.el);
      this.buildActions(copy.state, me);
      this.hideConfirm();
      this.chatKeys = [];
      clear(this.chatLog);
    }
    this.render();
  }

  /** The player switched language: draw every text again. */
  relabel() {
    if (!this.copy || !this.game) return;
    this.chatKeys = []; // the log's event lines again, in the new language
    this.rosterKey = null;
    this.buildActions(this.copy.state, this.me);
    this.render();
  }

  /** One room message, already folded into the copy: notices, and what the game's board
   * makes of it (a path flashed). */
  handle(msg, before) {
    const state = this.copy ? this.copy.state : {};
    const announce = (text) => this.app.announce(text);
    switch (msg.type) {
      case "moved": {
        const view = state.view || {}; // the folded view (a delta's `view` is partial)
        const clk = view.clock;
        if (clk && typeof clk.since === "number") this.skew = Date.now() / 1000 - clk.since;
        this.board.roomEvent(msg, view, this.me);
        this.announceMove(msg, names(state));
        return;
      }
      case "game-over": // the result bar shows it: a screen reader hears it, no toast repeats it
        if (freezeClock(state, this.skew)) this.renderStatus();
        announce(resultText(state, this.me));
        return;
      case "chat":
        if ((msg.from || msg.player) === this.me && this.pendingChat && msg.text === this.pendingChat.text) {
          const input = this.chatForm.elements.chat; // accepted: clear it, unless typed on since
          if (input.value.trim() === this.pendingChat.text) input.value = "";
          this.pendingChat = null;
        }
        return;
      case "state":
        this.board.roomEvent(msg, state.view || {}, this.me); // a new game or a resync
        return;
      case "host":
        this.logEvent(msg, before);
        return;
      default: break;
    }
    if (msg.type === "left" && msg.reason === "kicked") return; // the log's host line says it
    // a leaver is gone from the folded state: name them from the state before
    const named = msg.type === "left" && before ? { ...state, players: [...(before.players || []), ...(state.players || [])] } : state;
    const text = eventText(msg, named, this.me);
    if (!text) return;
    // the offer bar shows an offer, the result bar a resignation: heard, not repeated
    if (msg.type === "offer" || msg.type === "resigned") announce(text);
    else this.app.notify(() => eventText(msg, named, this.me) || text);
  }

  /** A `host` event as a line in the room's log (its words made when drawn, from the
   * roster as it was, so a removed member is still named after leaving). */
  logEvent(msg, before) {
    const copy = this.copy;
    if (!copy) return;
    const events = copy.events || (copy.events = []);
    if (events.some((e) => e.msg.seq === msg.seq && e.msg.action === msg.action)) return;
    const chat = copy.state.chat || [];
    const last = chat[chat.length - 1];
    const roster = { players: [...((before || copy.state).players || [])] };
    events.push({ msg, roster, watchers: new Map(copy.watchers), after: last ? chatKey(last) : null });
    if (events.length > 50) events.shift();
    this.renderChat();
  }

  /** A move in words for the live region: who played, and the cell as its label says. */
  announceMove(msg, who) {
    const move = msg.move || {};
    const by = msg.by === this.me ? t("You") : (who[msg.by] || t("Someone"));
    if (Number.isInteger(move.x) && Number.isInteger(move.y) && this.board) {
      const cell = this.board.cell(move.x, move.y);
      const label = cell ? cell.getAttribute("aria-label") : cellName(move.x, move.y);
      this.app.announce(t("{name}: {cell}", { name: by, cell: label || cellName(move.x, move.y) }));
    } else if (move.action === "link" && Array.isArray(move.a) && Array.isArray(move.b)) {
      this.app.announce(t("{name} linked {a} and {b}", {
        name: by, a: cellName(move.a[0], move.a[1]), b: cellName(move.b[0], move.b[1]) }));
    }
  }

  /** A refused request: a refused chat line stays in the input to send again. */
  refused(msg) {
    if (this.pendingChat && msg.re === this.pendingChat.id) this.pendingChat = null;
  }

  // ---- drawing -----------------------------------------------------------------------

  render() {
    const copy = this.copy;
    if (!copy || !copy.state.game) return;
    const state = copy.state;
    const me = this.me;
    const sit = seated(state, me);
    $("#room-title").replaceChildren(
      `${gameTitle(state.game)} · ${t("room")} `,
      el("code", { "data-room-code": "" }, copy.room),
      " · " + t("round {round}", { round: Number(state.round || 0) + 1 }),
      el("span", { class: "dim options" }, ` · ${optionsText(state.game, state.options || {})}`),
    );
    this.board.render({ state: this.live(), me, copy, seated: sit });
    this.fit();
    this.renderStatus();
    this.renderBars(sit);
    this.renderActions();
    this.renderPlayers();
    this.renderChat();
    this.renderInvite(copy.room);
    if (this.confirmed && !(state.status === "playing" && sit)) this.hideConfirm();
  }

  live() {
    const at = this.offlineAt || { perf: performance.now(), wall: Date.now() };
    return liveState(this.copy.state, this.me, (at.perf - this.received) / 1000, this.skew, at.wall / 1000);
  }

  /** Clocks and timers stand still while we are offline (the server's may not: it
   * tells us when we are back), as in the terminal and Tk clients. */
  setOnline(online) {
    if (online) this.offlineAt = null;
    else if (!this.offlineAt) this.offlineAt = { perf: performance.now(), wall: Date.now() };
  }

  /** Clocks and countdowns between events (called twice a second). */
  tick() {
    if (!this.copy || !this.copy.state.game) return;
    this.renderStatus();
    const view = this.copy.state.view || {};
    if (this.board.ticking(view)) {
      this.board.render({ state: this.live(), me: this.me, copy: this.copy, seated: seated(this.copy.state, this.me) });
    }
  }

  renderStatus() {
    this.status.textContent = statusLine(this.copy.state, this.me, this.live().view || {}, this.app.connected);
    this.status.dataset.status = String(this.copy.state.status || "");
    this.status.dataset.turn = this.copy.state.turn === this.me ? "me" : String(this.copy.state.turn || "");
  }

  renderBars(sit) {
    const state = this.copy.state;
    const me = this.me;
    // a pending draw / take-back offer
    const text = state.status === "playing" ? offerText(state, me) : null;
    this.offerBar.hidden = !text;
    if (text) {
      const pending = (state.view || {}).pending || {};
      this.offerBar.querySelector(".bar-text").textContent = text;
      const canAnswer = sit && pending.from !== me;
      for (const b of this.offerBar.querySelectorAll("button")) b.hidden = !canAnswer;
    }
    // the game-over banner and the play-again handshake
    const over = state.status === "over";
    this.banner.hidden = !over;
    if (!over) return;
    const who = names(state);
    const asked = this.copy.again.filter((p) => p !== me).map((p) => who[p] || "?");
    const mine = this.copy.again.includes(me);
    let line = resultText(state, me);
    if (mine) line += "  " + t("Waiting for the others to agree…");
    else if (asked.length) {
      line += "  " + tn("{names} wants another game.", "{names} want another game.", asked.length,
        { names: asked.join(t(", ")) });
    }
    if (this.copy.declined.length) {
      line += "  " + t("{names} declined.", { names: this.copy.declined.map((p) => who[p] || "?").join(t(", ")) });
    }
    this.banner.querySelector(".bar-text").textContent = line;
    this.banner.dataset.result = String((state.result || {}).reason || "");
    this.banner.dataset.outcome = outcomeFor(state, me);
    const show = { again: sit && !asked.length && !mine, agree: sit && asked.length > 0 && !mine, decline: sit && asked.length > 0 && !mine };
    for (const b of this.banner.querySelectorAll("button")) b.hidden = !show[b.dataset.action];
    this.renderReplayLink();
    const ranking = this.banner.querySelector(".ranking");
    ranking.replaceChildren(...rankingLines(state, me).map((line) => el("li", {}, line)));
  }

  /** After a game: "Replay this game" (the `game-over` named its stored id), else a
   * link to the history; only when the server keeps one. */
  renderReplayLink() {
    const link = $("#replay-link");
    const known = Number.isInteger(this.gameId);
    link.hidden = !this.app.features.has("history");
    link.href = known ? routeHash("replay", this.gameId) : routeHash("history");
    link.textContent = known ? t("Replay this game") : t("History");
    // a rated game: our rating before and after it (`game-over.ratings`)
    const mine = (this.ratings || {})[this.me];
    const change = $("#rating-change");
    change.hidden = !(mine && Number.isFinite(mine.before) && Number.isFinite(mine.after));
    change.textContent = change.hidden ? "" : t("Your rating: {before} → {after}",
      { before: Math.round(mine.before), after: Math.round(mine.after) });
  }

  /** The game's buttons, then the common ones, as its description lists them. */
  buildActions(state, me) {
    this.buttons = {};
    this.requests = {};
    this.keys = { ...BAR_KEYS };
    const buttons = actionStates(state, me).filter(({ action }) => action.key !== "leave").map(({ action }) => {
      const key = action.key;
      const letter = /^[A-Za-z]$/.test(action.keys || "") ? action.keys : null; // not ctrl+l
      if (letter) this.keys[key] = letter;
      const b = el("button", {
        type: "button", "data-action": key, "aria-keyshortcuts": letter ? shortcut(letter) : null,
        title: letter ? t("{label} (key {key})", { label: t(action.help), key: letter }) : t(action.help),
      }, t(action.label));
      b.addEventListener("click", () => this.action(key));
      this.buttons[key] = b;
      this.requests[key] = action.request;
      return b;
    });
    this.actions.replaceChildren(...buttons);
  }

  renderActions() {
    for (const { action, shown, enabled } of actionStates(this.copy.state, this.me)) {
      const b = this.buttons[action.key];
      if (!b) continue;
      b.hidden = !shown;
      b.disabled = !enabled;
    }
    $("#gesture-hint").textContent = gestureText(this.copy.state, this.me);
  }

  renderPlayers() {
    const state = this.copy.state;
    const roles = playerRoles(state);
    const turn = state.status === "playing" ? state.turn : null;
    const tools = this.hostTools;
    const key = JSON.stringify([this.copy.room, state.players, state.spectators, state.host, state.muted, state.locked,
      state.status, turn, this.me, roles, [...this.copy.watchers]]);
    if (key === this.rosterKey) return; // unchanged: an open tool or a focused button stays as it is
    this.rosterKey = key;
    const focused = document.activeElement;
    const rows = [...(state.players || [])].sort((a, b) => (a.seat || 0) - (b.seat || 0)).map((p) => {
      const dot = el("span", { class: "dot" });
      dot.style.setProperty("--c", playerColor(p));
      const li = el("li", { class: p.player === this.me ? "me" : null, "data-player": p.player },
        dot,
        el("span", { class: "name" }, shownName(p.name, p.bot)),
        p.player === this.me ? el("span", { class: "dim" }, " " + t("(you)")) : null,
        ...tools.marks(state, p.player),
        p.bot ? el("span", { class: "tag" }, t("computer {level}", { level: levelWord(p.bot) })) : null,
        roles[p.player] ? el("span", { class: "dim role" }, roles[p.player]) : null,
        p.connected === false ? el("span", { class: "offline" }, t("offline")) : null,
        p.player === turn ? el("span", { class: "turn" }, "◀ " + t("to move")) : null,
        tools.memberTools(state, this.me, p));
      return li;
    });
    this.players.replaceChildren(...rows);
    tools.render(this.copy, this.me);
    // a control the redraw moved (the host's tools are kept, not rebuilt) keeps the focus
    if (focused && focused !== document.activeElement && focused.isConnected) focused.focus({ preventScroll: true });
    const watching = (state.spectators || []).map(String);
    this.spectators.textContent = watching.length ? t("Watching: {names}", { names: watching.join(", ") }) : "";
  }

  /** The chat lines with the host's events among them, each as [key, make node]. */
  logItems() {
    const lines = this.copy.state.chat || [];
    const events = this.copy.events || [];
    const keys = new Set(lines.map(chatKey));
    const eventItem = (e) => [`host|${e.msg.seq}|${e.msg.action}`, () => el("li", { class: "event", "data-event": e.msg.action },
      hostEventText(e.msg, e.roster, this.me, e.watchers) || "")];
    const items = events.filter((e) => e.after === null || !keys.has(e.after)).map(eventItem);
    const colors = {};
    for (const p of this.copy.state.players || []) colors[p.player] = playerColor(p);
    for (const line of lines) {
      const key = chatKey(line);
      items.push([key, () => {
        const name = el("span", { class: "name" }, String(line.name));
        if (colors[line.from]) name.style.setProperty("--c", colors[line.from]);
        return el("li", { "data-from": line.from }, name, el("span", { class: "text" }, String(line.text)));
      }]);
      items.push(...events.filter((e) => e.after === key).map(eventItem));
    }
    return items;
  }

  renderChat() {
    const items = this.logItems();
    const keys = items.map(([key]) => key);
    const prefix = this.chatKeys.length <= keys.length && this.chatKeys.every((k, i) => k === keys[i]);
    const atBottom = this.chatLog.scrollTop + this.chatLog.clientHeight >= this.chatLog.scrollHeight - 8;
    if (!prefix) {
      clear(this.chatLog);
      this.chatKeys = [];
    }
    for (let i = this.chatKeys.length; i < items.length; i += 1) this.chatLog.append(items[i][1]());
    this.chatKeys = keys;
    if (atBottom || !prefix) this.chatLog.scrollTop = this.chatLog.scrollHeight;
  }

  renderInvite(code) {
    const link = `${location.origin}/#${code}`;
    if (this.inviteLink.value !== link) this.inviteLink.value = link;
    drawQr(this.qr, link);
    const local = /^(localhost|127\.|\[::1\])/.test(location.hostname) || location.hostname === "::1";
    $("#invite-note").textContent = local
      ? t("This page is open as localhost: players on other devices need this machine's network address (gridhall-server prints it).")
      : t("Anyone on your network can open this link or scan the code to join.");
  }

  fit() {
    if (!this.board) return;
    const wide = window.matchMedia("(min-width: 800px)").matches;
    const coarse = window.matchMedia("(pointer: coarse)").matches;
    const rect = this.boardWrap.getBoundingClientRect();
    const width = this.boardWrap.clientWidth - 4;
    const height = wide ? window.innerHeight - Math.max(rect.top, 0) - 150 : window.innerHeight * 0.72;
    const touch = Math.max(MIN_TOUCH_CELL, this.board.touchCell || 0);
    this.board.fit(width, Math.max(height, 200), coarse ? touch : MIN_MOUSE_CELL);
    this.renderZoom();
  }

  /** The zoom buttons show while the board is zoomed in or has more than 15 columns or rows. */
  renderZoom() {
    const b = this.board;
    this.zoomBar.hidden = !b || !(b.zoomed || b.cols > 15 || b.rows > 15);
  }

  // ---- asking first ------------------------------------------------------------------

  /** A live game we sit in: resigning or leaving ends it for us, so ask first. */
  get liveSeat() {
    const state = this.copy ? this.copy.state : {};
    return state.status === "playing" && seated(state, this.me);
  }

  ask(question, yes, run) {
    this.confirmed = run;
    this.confirmBar.querySelector(".bar-text").textContent = question;
    this.confirmBar.querySelector("[data-confirm=yes]").textContent = yes;
    this.confirmBar.hidden = false;
    this.confirmBar.querySelector("[data-confirm=no]").focus();
  }

  hideConfirm() {
    this.confirmed = null;
    this.confirmBar.hidden = true;
  }

  leave() {
    if (!this.liveSeat) {
      this.app.send("leave-room");
      return;
    }
    this.ask(t("Leave the room? You give up this game."), t("Leave room"), () => this.app.send("leave-room"));
  }

  // ---- keys --------------------------------------------------------------------------

  /** The room's keys, as in the terminal client; not while typing in a field. */
  onKey(event) {
    if (this.app.screen !== "room" || !this.copy || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement
        || target instanceof HTMLSelectElement) return;
    if (event.key === "Escape" && !this.confirmBar.hidden) {
      this.hideConfirm();
      return;
    }
    if (event.key === "/") {
      event.preventDefault();
      this.chatForm.elements.chat.focus();
      return;
    }
    if (event.key === "+" || event.key === "=" || event.key === "-" || event.key === "0") {
      if (!this.board) return;
      const factor = { "+": 1.25, "=": 1.25, "-": 0.8, 0: 0 }[event.key];
      this.board.zoomBy(factor);
      this.renderZoom();
      return;
    }
    const visible = (b) => b && !b.hidden && !b.disabled && b.offsetParent !== null;
    const bars = [...this.offerBar.querySelectorAll("button"), ...this.banner.querySelectorAll("button")];
    for (const b of [...Object.values(this.buttons), ...bars]) {
      if ((this.keys || BAR_KEYS)[b.dataset.action] === event.key && visible(b)) {
        event.preventDefault();
        b.click();
        return;
      }
    }
  }

  // ---- to the server -----------------------------------------------------------------

  intent(request, notice) {
    if (request) {
      const [type, fields] = request;
      this.app.send(type, fields);
    } else if (notice) {
      this.app.notify(notice);
    }
  }

  action(key) {
    const state = this.copy ? this.copy.state : {};
    const simple = { again: "play-again", agree: "agree-again", decline: "decline-again" };
    const described = (this.requests || {})[key];
    const send = () => {
      const { type, ...fields } = described;
      this.app.send(type, fields);
    };
    if (key === "resign" && described && this.liveSeat) this.ask(t("Resign this game?"), t("Resign"), send);
    else if (described) send();
    else if (simple[key]) this.app.send(simple[key]);
    else if (key === "accept" || key === "refuse") {
      const pending = (state.view || {}).pending;
      if (pending) this.app.send("answer", { kind: pending.kind, accept: key === "accept" });
    }
  }

  async copyLink() {
    const link = this.inviteLink.value;
    try {
      await navigator.clipboard.writeText(link); // only in secure contexts (https, localhost)
      this.app.notify(() => t("Invite link copied."));
      return;
    } catch { /* plain http on a LAN address: fall back to a selection copy */ }
    this.inviteLink.focus();
    this.inviteLink.select();
    let copied = false;
    try { copied = document.execCommand("copy"); } catch { copied = false; }
    this.app.notify(() => (copied ? t("Invite link copied.") : t("Select the link and copy it.")));
  }
}
