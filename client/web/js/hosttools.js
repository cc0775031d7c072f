// The room host's controls in the side panel: a marker on the host (and on muted
// members) for everyone; for the host, tools on every other member (remove for a
// while, mute or unmute, make host), lock or unlock the room, and between games the
// computer opponent (easy, hard, none) where the game has one. The server checks every
// request (anyone else gets `not-the-host`); this only draws and sends.

import { $, el, svg } from "./dom.js";
import { describe } from "./describe.js";
import { t, tn } from "./i18n.js";
import { KICK_DEFAULT, KICK_MINUTES, hasComputer, isHost, isMuted, knownWatchers } from "./hosts.js";

/** A padlock drawn in SVG (an emoji may be missing from the device's fonts); its
 * meaning is said by the text beside it. */
export function lockIcon() {
  return svg("svg", { class: "lock-icon", viewBox: "0 0 16 16", "aria-hidden": "true", focusable: "false" },
    svg("path", { d: "M5 7V5a3 3 0 0 1 6 0v2", class: "lock-shackle" }),
    svg("rect", { x: 3, y: 7, width: 10, height: 8, rx: 1.5, class: "lock-body" }));
}

export class HostTools {
  constructor(app) {
    this.app = app;
    this.bar = $("#host-bar");
    this.lockButton = $("#lock-room");
    this.computer = $("#computer-tools");
    this.watchers = $("#watchers");
    this.lockNote = $("#room-lock");
    this.hostNote = $("#host-note");
    this.tools = new Map(); // member id -> their <details>, kept so focus and choices survive redraws
    this.bar.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-host]");
      if (!button) return;
      const { host: action, player, level } = button.dataset;
      const fields = {};
      if (player) fields.player = player;
      if (level) fields.level = level;
      this.send(action, fields);
    });
  }

  send(action, fields = {}) {
    this.app.send("host", { action, ...fields });
  }

  /** The host's crown and the muted tag, for one member's row. */
  marks(state, player) {
    const out = [];
    if (typeof state.host === "string" && state.host === player) {
      out.push(el("span", { class: "host-mark", "data-host-mark": "", title: t("host") },
        el("span", { "aria-hidden": "true" }, "♛"), el("span", { class: "visually-hidden" }, t("host"))));
    }
    if (isMuted(state, player)) out.push(el("span", { class: "tag muted", "data-muted": "" }, t("muted")));
    return out;
  }

  /** The host's tools on one other (human) member, or null for anyone else to see. */
  memberTools(state, me, member) {
    if (!isHost(state, me) || member.player === me || member.bot) return null;
    let box = this.tools.get(member.player);
    if (!box) {
      box = this.build(member.player);
      this.tools.set(member.player, box);
    }
    this.relabel(box, member, isMuted(state, member.player));
    return box;
  }

  build(player) {
    const minutes = el("select", { "data-minutes": "" },
      KICK_MINUTES.map((n) => el("option", { value: String(n), selected: n === KICK_DEFAULT })));
    const kick = el("button", { type: "button", class: "small danger", "data-host": "kick" });
    const mute = el("button", { type: "button", class: "small", "data-host": "mute" });
    const hand = el("button", { type: "button", class: "small", "data-host": "hand-over" });
    kick.addEventListener("click", () => this.send("kick", { player, minutes: Number(minutes.value) }));
    mute.addEventListener("click", () => this.send(mute.dataset.host, { player }));
    hand.addEventListener("click", () => this.send("hand-over", { player }));
    return el("details", { class: "host-tools", "data-tools-for": player },
      el("summary", {}, el("span", { class: "summary-text" }), el("span", { class: "visually-hidden summary-name" })),
      el("div", { class: "host-tools-body" },
        el("label", { class: "inline" }, el("span", { class: "minutes-label" }), minutes), kick, mute, hand));
  }

  /** Words and state of a member's tools (the player may have switched language). */
  relabel(box, member, muted) {
    box.querySelector(".summary-text").textContent = t("Manage");
    box.querySelector(".summary-name").textContent = ` ${member.name}`;
    box.querySelector(".minutes-label").textContent = t("Remove for");
    for (const option of box.querySelectorAll("option")) {
      const n = Number(option.value);
      option.textContent = tn("{n} minute", "{n} minutes", n);
    }
    box.querySelector("[data-host=kick]").textContent = t("Remove");
    const mute = box.querySelector("[data-host=mute], [data-host=unmute]");
    mute.dataset.host = muted ? "unmute" : "mute";
    mute.textContent = muted ? t("Unmute") : t("Mute");
    box.querySelector("[data-host=hand-over]").textContent = t("Make host");
  }

  /** Everything but the rows' tools: the lock note for all, the host's bar and the
   * spectators' tools (spectators whose id we know). */
  render(copy, me) {
    const state = copy.state;
    const host = isHost(state, me);
    this.lockNote.hidden = state.locked !== true;
    this.lockNote.replaceChildren(lockIcon(), " " + t("The room is locked: nobody new can join."));
    this.renderHostNote(copy, me);
    // a muted member sees why their lines will be refused before typing one
    $("#chat-form input[name=chat]").placeholder = isMuted(state, me)
      ? t("The host has muted your chat in this room.") : t("Say something…");
    this.bar.hidden = !host;
    this.bar.setAttribute("aria-label", t("Host tools"));
    const watchers = host ? knownWatchers(state, copy.watchers).filter((w) => w.player !== me) : [];
    this.watchers.hidden = watchers.length === 0;
    this.watchers.setAttribute("aria-label", t("Spectators"));
    this.watchers.replaceChildren(...watchers.map((w) => el("li", { "data-player": w.player },
      el("span", { class: "name" }, w.name), ...this.marks(state, w.player), this.memberTools(state, me, w))));
    const present = new Set([...(state.players || []).map((p) => p.player), ...watchers.map((w) => w.player)]);
    for (const id of this.tools.keys()) if (!present.has(id)) this.tools.delete(id);
    if (!host) return;
    const locked = state.locked === true;
    this.lockButton.dataset.host = locked ? "unlock" : "lock";
    this.lockButton.textContent = locked ? t("Unlock the room") : t("Lock the room");
    this.renderComputer(state);
  }

  /** Everyone sees who hosts: the crown marks a seated host's row; a host who only
   * watches is named here. */
  renderHostNote(copy, me) {
    const state = copy.state;
    const id = typeof state.host === "string" ? state.host : null;
    const seatedHost = (state.players || []).some((p) => p.player === id);
    const name = id === null || seatedHost ? null
      : id === me ? t("you") : copy.watchers.get(id) || null;
    this.hostNote.hidden = name === null;
    if (name !== null) {
      this.hostNote.replaceChildren(el("span", { "aria-hidden": "true" }, "♛ "),
        t("Host: {name} (watching)", { name }));
    }
  }

  /** Between games, in a game with computer opponents: easy, hard, or none. */
  renderComputer(state) {
    const show = hasComputer(describe(state.game)) && state.status !== "playing";
    this.computer.hidden = !show;
    if (!show) return;
    const bot = (state.players || []).find((p) => p.bot);
    const label = el("span", {}, t("Computer opponent:"));
    const level = (key, text) => el("button", {
      type: "button", class: "small", "data-host": "computer", "data-level": key,
      "aria-pressed": bot ? String(bot.bot === key) : "false" }, text);
    const buttons = [label, level("easy", t("easy")), level("hard", t("hard"))];
    if (bot) {
      buttons.push(el("button", { type: "button", class: "small", "data-host": "kick", "data-player": bot.player },
        t("Remove the computer")));
    }
    const focused = this.computer.contains(document.activeElement) ? document.activeElement.dataset : null;
    this.computer.replaceChildren(...buttons);
    if (focused) { // the same button again, so a keyboard user keeps their place
      const again = [...this.computer.querySelectorAll("button")]
        .find((b) => b.dataset.host === focused.host && b.dataset.level === focused.level);
      if (again) again.focus();
    }
  }
}
