// The room screen: board, status line, offer and game-over bars, the game's action
// buttons, players, chat and the invite link with its QR code. It renders what the
// server sent and sends intents; it never decides a result.

import { $, clear, el } from "./dom.js";
import { t, tn } from "./i18n.js";
import { drawQr } from "./qr.js";
import { GomokuBoard } from "./boards/gomoku.js";
import { LinkBoard } from "./boards/linkmatch.js";
import { MinesBoard } from "./boards/minesweeper.js";
import {
  actionStates, eventText, gameTitle, gestureText, liveView, offerText, optionsText, outcomeFor, playerRoles,
  rankingLines, resultText, statusLine,
} from "./describe.js";
import { names, playerColor } from "./text.js";

const BOARDS = { gomoku: GomokuBoard, minesweeper: MinesBoard, linkmatch: LinkBoard };

function seated(state, me) {
  return (state.players || []).some((p) => p.player === me);
}

/** The state with clocks run forward by the seconds since it arrived (the server
 * sends times as of its latest event; we count on between events), as the game's
 * description says which clocks run. `skew`: our clock minus the server's. */
export function liveState(state, me, secondsSince, skew) {
  if (state.status !== "playing" || !state.view || typeof state.view !== "object") return state;
  return { ...state, view: liveView(state, me, Date.now() / 1000 - skew, secondsSince) };
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
    this.chatKeys = [];
    this.chatSent = null; // the line sent and not yet relayed back by the server
    this.buttons = {};

    $("#leave").addEventListener("click", () => this.app.send("leave-room"));
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
      this.chatSent = text;
      this.app.send("chat", { text });
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
      this.board = new BOARDS[game]((request, notice) => this.intent(request, notice));
      this.boardWrap.replaceChildren(this.board.el);
      this.buildActions(copy.state, me);
      this.chatKeys = [];
      clear(this.chatLog);
    }
    this.render();
  }

  /** The player switched language: draw every text again. */
  relabel() {
    if (!this.copy || !this.game) return;
    this.buildActions(this.game);
    this.render();
  }

  /** One room message, already folded into the copy: notices and the link path. */
  handle(msg, before) {
    const state = this.copy ? this.copy.state : {};
    switch (msg.type) {
      case "moved": {
        const view = state.view || {}; // the folded view (a delta's `view` is partial)
        const clk = view.clock;
        if (clk && typeof clk.since === "number") this.skew = Date.now() / 1000 - clk.since;
        if (this.board instanceof LinkBoard && msg.by === this.me && (msg.move || {}).action === "link") {
          this.board.showPath(view.path);
        }
        return;
      }
      case "chat":
        if ((msg.from || msg.player) === this.me && this.chatSent !== null) {
          // accepted: clear it, unless typed on since
          const input = this.chatForm.elements.chat;
          if (input.value.trim() === this.chatSent) input.value = "";
          this.chatSent = null;
        }
        return;
      case "state":
        if (this.board instanceof LinkBoard) this.board.showPath(null); // a new game or a resync
        return;
      default: break;
    }
    // a leaver is gone from the folded state: name them from the state before
    const named = msg.type === "left" && before ? { ...state, players: [...(before.players || []), ...(state.players || [])] } : state;
    const text = eventText(msg, named, this.me);
    if (text) this.app.notify(text);
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
  }

  live() {
    return liveState(this.copy.state, this.me, (performance.now() - this.received) / 1000, this.skew);
  }

  /** Clocks and countdowns between events (called twice a second). */
  tick() {
    if (!this.copy || !this.copy.state.game) return;
    this.renderStatus();
    const view = this.copy.state.view || {};
    if (this.board instanceof LinkBoard && view.starts_in > 0) {
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
    const ranking = this.banner.querySelector(".ranking");
    ranking.replaceChildren(...rankingLines(state, me).map((line) => el("li", {}, line)));
  }

  /** The game's buttons, then the common ones, as its description lists them. */
  buildActions(state, me) {
    this.buttons = {};
    this.requests = {};
    const buttons = actionStates(state, me).filter(({ action }) => action.key !== "leave").map(({ action }) => {
      const b = el("button", { type: "button", "data-action": action.key, title: t(action.help) }, t(action.label));
      b.addEventListener("click", () => this.action(action.key));
      this.buttons[action.key] = b;
      this.requests[action.key] = action.request;
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
    const rows = [...(state.players || [])].sort((a, b) => (a.seat || 0) - (b.seat || 0)).map((p) => {
      const dot = el("span", { class: "dot" });
      dot.style.setProperty("--c", playerColor(p));
      const li = el("li", { class: p.player === this.me ? "me" : null, "data-player": p.player },
        dot,
        el("span", { class: "name" }, String(p.name)),
        p.player === this.me ? el("span", { class: "dim" }, " " + t("(you)")) : null,
        p.bot ? el("span", { class: "tag" }, t("computer {level}", { level: p.bot })) : null,
        roles[p.player] ? el("span", { class: "dim role" }, roles[p.player]) : null,
        p.connected === false ? el("span", { class: "offline" }, t("offline")) : null,
        p.player === turn ? el("span", { class: "turn" }, "◀ " + t("to move")) : null);
      return li;
    });
    this.players.replaceChildren(...rows);
    const watching = (state.spectators || []).map(String);
    this.spectators.textContent = watching.length ? t("Watching: {names}", { names: watching.join(", ") }) : "";
  }

  renderChat() {
    const lines = this.copy.state.chat || [];
    const keys = lines.map((l) => `${l.ts}|${l.from}|${l.text}`);
    const prefix = this.chatKeys.length <= keys.length && this.chatKeys.every((k, i) => k === keys[i]);
    const atBottom = this.chatLog.scrollTop + this.chatLog.clientHeight >= this.chatLog.scrollHeight - 8;
    if (!prefix) {
      clear(this.chatLog);
      this.chatKeys = [];
    }
    const colors = {};
    for (const p of this.copy.state.players || []) colors[p.player] = playerColor(p);
    for (let i = this.chatKeys.length; i < lines.length; i += 1) {
      const line = lines[i];
      const name = el("span", { class: "name" }, String(line.name));
      if (colors[line.from]) name.style.setProperty("--c", colors[line.from]);
      this.chatLog.append(el("li", { "data-from": line.from }, name, el("span", { class: "text" }, String(line.text))));
    }
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
    this.board.fit(width, Math.max(height, 200), coarse ? 26 : 14);
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
    if (described) {
      const { type, ...fields } = described;
      this.app.send(type, fields);
    } else if (simple[key]) this.app.send(simple[key]);
    else if (key === "accept" || key === "refuse") {
      const pending = (state.view || {}).pending;
      if (pending) this.app.send("answer", { kind: pending.kind, accept: key === "accept" });
    }
  }

  async copyLink() {
    const link = this.inviteLink.value;
    try {
      await navigator.clipboard.writeText(link); // only in secure contexts (https, localhost)
      this.app.notify(t("Invite link copied."));
      return;
    } catch { /* plain http on a LAN address: fall back to a selection copy */ }
    this.inviteLink.focus();
    this.inviteLink.select();
    let copied = false;
    try { copied = document.execCommand("copy"); } catch { copied = false; }
    this.app.notify(copied ? t("Invite link copied.") : t("Select the link and copy it."));
  }
}
