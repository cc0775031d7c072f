// The lobby: the public rooms (join or watch), join by code (with a password for
// private rooms), and the create-room form with each game's options.

import { $, el } from "./dom.js";
import { t } from "./i18n.js";
import { GAME_TITLES, optionsText } from "./text.js";

function int(value) {
  return Number.parseInt(value, 10);
}

/** The `create-room` fields the form describes (the server checks them). */
export function createRequest(form) {
  const f = form.elements;
  const game = f.game.value;
  let options = {};
  if (game === "gomoku") {
    options = { size: int(f["g-size"].value), rule: f["g-rule"].value };
    if (f["g-ai"].value) options.ai = f["g-ai"].value;
    if (f["g-clock"].value) options.clock = f["g-clock"].value;
  } else if (game === "minesweeper") {
    const preset = f["m-preset"].value;
    options = preset === "custom"
      ? { width: int(f["m-width"].value), height: int(f["m-height"].value), mines: int(f["m-mines"].value) }
      : { preset };
    options.first_click = f["m-first"].value;
    options.lives = int(f["m-lives"].value) || 1;
    if (f["m-noguess"].checked) options.no_guess = true;
  } else if (game === "linkmatch") {
    const [width, height, kinds] = f["l-size"].value.split("x").map(int);
    options = { width, height, kinds, time_limit: int(f["l-time"].value), gravity: f["l-gravity"].value };
  }
  const fields = { game, options };
  const password = f.password.value;
  if (f.private.checked || password) fields.private = true;
  if (password) fields.password = password;
  return fields;
}

/** A room's `status` in words (the same words as the Python clients). */
export function roomStatus(status) {
  if (status === "waiting") return t("waiting");
  if (status === "playing") return t("playing");
  if (status === "over") return t("over");
  return String(status || "?");
}

export class LobbyView {
  constructor(app) {
    this.app = app;
    this.list = $("#room-list");
    this.joinForm = $("#join-form");
    this.createForm = $("#create-form");
    $("#refresh").addEventListener("click", () => this.refresh());
    this.joinForm.addEventListener("submit", (event) => {
      event.preventDefault();
      const role = event.submitter && event.submitter.value === "spectator" ? "spectator" : "player";
      this.join(this.joinForm.elements.code.value, role, this.joinForm.elements.password.value);
    });
    this.createForm.addEventListener("submit", (event) => {
      event.preventDefault();
      this.app.send("create-room", createRequest(this.createForm));
    });
    const f = this.createForm.elements;
    f.game.addEventListener("change", () => this.gameChanged());
    f["m-preset"].addEventListener("change", () => {
      $("[data-custom=minesweeper]").hidden = f["m-preset"].value !== "custom";
    });
    this.gameChanged();
  }

  gameChanged() {
    const game = this.createForm.elements.game.value;
    for (const set of this.createForm.querySelectorAll("fieldset[data-game]")) {
      set.hidden = set.dataset.game !== game;
      set.disabled = set.hidden;
    }
  }

  /** The player switched language: the rows again, in it. */
  relabel() {
    this.showRooms(this.rooms || []);
  }

  refresh() {
    if (this.app.connected) this.app.send("list-rooms");
  }

  join(code, role, password) {
    const clean = String(code || "").trim().toUpperCase();
    if (!clean) {
      this.app.notify(t("Type a room code or pick a room first."));
      return;
    }
    const fields = { room: clean, role };
    if (password) fields.password = password;
    this.app.join(fields);
  }

  /** Ask for a password for `code` (a private room opened from an invite link). */
  askPassword(code) {
    this.joinForm.elements.code.value = code;
    this.joinForm.elements.password.focus();
  }

  showRooms(rooms) {
    this.rooms = rooms;
    const rows = rooms.map((r) => {
      const code = String(r.room);
      const join = el("button", { type: "button", class: "small primary" }, t("Join"));
      const watch = el("button", { type: "button", class: "small" }, t("Watch"));
      join.addEventListener("click", (e) => { e.stopPropagation(); this.join(code, "player"); });
      watch.addEventListener("click", (e) => { e.stopPropagation(); this.join(code, "spectator"); });
      const seats = Number.isInteger(r.seats) ? `/${r.seats}` : "";
      const players = (r.players || []).map(String);
      const tr = el("tr", { "data-room": code, tabindex: 0 },
        el("td", {}, el("code", {}, code)),
        el("td", {}, GAME_TITLES[r.game] || String(r.game)),
        el("td", { class: "dim" }, optionsText(String(r.game), r.options || {})),
        el("td", {}, `${players.join(", ") || "—"} (${players.length}${seats})`),
        el("td", {}, String(r.spectators || 0)),
        el("td", {}, roomStatus(r.status)),
        el("td", { class: "buttons" }, join, watch));
      tr.addEventListener("click", () => this.join(code, "player"));
      tr.addEventListener("keydown", (e) => { if (e.key === "Enter") this.join(code, "player"); });
      return tr;
    });
    this.list.replaceChildren(...rows);
    $("#no-rooms").hidden = rows.length > 0;
  }
}
