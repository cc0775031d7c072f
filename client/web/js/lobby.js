// The lobby: the public rooms (join or watch), join by code (with a password for
// private rooms), and the create-room form with each game's options.

import { $, el } from "./dom.js";
import { describe, gameNames, gameTitle, optionsText, roomStatus, shownName } from "./describe.js";
import { t } from "./i18n.js";
import { lockIcon } from "./hosttools.js";

// The create form is built from the game's description (its fields, bounds, defaults,
// `when` conditions and presets), as the terminal and Tk clients build theirs.

export { roomStatus }; // the admin page's words for a room's status too

const FIELD = "opt-";

function fieldsOf(game) {
  return describe(game).form.filter((f) => f.form);
}

function active(field, values) {
  return Object.entries(field.when || {}).every(([key, want]) => values[key] === want);
}

/** The value a field's widget holds, typed as the description's (null: left out). */
function valueOf(field, input) {
  if (field.kind === "toggle") return input.checked;
  if (field.kind === "number") return Number.parseInt(input.value, 10);
  const found = field.choices.find(([v]) => (v === null ? "" : String(v)) === input.value);
  return found ? found[0] : field.default;
}

function formValues(form, game) {
  const values = {};
  for (const field of fieldsOf(game)) {
    const input = form.elements[FIELD + field.key];
    if (input) values[field.key] = valueOf(field, input);
  }
  return values;
}

/** The `create-room` fields the form describes (the server checks them). */
export function createRequest(form) {
  const f = form.elements;
  const game = f.game.value;
  const values = formValues(form, game);
  const options = {};
  for (const field of fieldsOf(game)) {
    const value = values[field.key];
    if (!active(field, values) || value === null || value === undefined || Number.isNaN(value)) continue;
    options[field.key] = value;
  }
  const fields = { game, options };
  const password = f.password.value;
  if (f.private.checked || password) fields.private = true;
  if (password) fields.password = password;
  return fields;
}

function widget(field) {
  const name = FIELD + field.key;
  if (field.kind === "toggle") {
    return el("label", { class: "check", "data-field": field.key },
      el("input", { name, type: "checkbox" }), ` ${t(field.label)}`);
  }
  if (field.kind === "number") {
    return el("label", { "data-field": field.key }, t(field.label),
      el("input", { name, type: "number", min: field.lo, max: field.hi, step: 1, required: true }));
  }
  return el("label", { "data-field": field.key }, t(field.label),
    el("select", { name }, field.choices.map(([v, label]) => el("option", { value: v === null ? "" : String(v) }, t(label)))));
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
    this.fields = $("#create-fields");
    this.presets = $("#create-preset");
    const games = this.createForm.elements.game;
    games.replaceChildren(...gameNames().map((name) => el("option", { value: name }, gameTitle(name))));
    games.addEventListener("change", () => this.gameChanged());
    this.presets.addEventListener("change", () => this.applyPreset());
    this.fields.addEventListener("change", () => this.showActive());
    this.gameChanged();
  }

  /** Build the chosen game's fields and presets, then fill in its first preset. */
  gameChanged() {
    this.build();
    this.applyPreset();
  }

  /** The game's fields and presets, their words in the page's language (values unset). */
  build() {
    const game = this.createForm.elements.game.value;
    this.fields.replaceChildren(...fieldsOf(game).map(widget));
    const presets = describe(game).presets;
    this.presets.replaceChildren(...presets.map((p, i) => el("option", { value: String(i) }, t(p.label))));
    this.presets.closest("label").hidden = presets.length === 0;
  }

  /** The form's words again in the page's language, keeping what the player chose. */
  relabelForm() {
    const f = this.createForm.elements;
    for (const option of f.game.options) option.textContent = gameTitle(option.value);
    const preset = this.presets.value;
    const kept = [...this.fields.querySelectorAll("input, select")].map((input) => [input.name, input.type === "checkbox" ? input.checked : input.value]);
    this.build();
    this.presets.value = preset;
    for (const [name, value] of kept) {
      const input = f[name];
      if (!input) continue;
      if (input.type === "checkbox") input.checked = value;
      else input.value = value;
    }
    this.showActive();
  }

  /** The game's defaults with the chosen preset's values over them. */
  applyPreset() {
    const game = this.createForm.elements.game.value;
    const preset = describe(game).presets[Number(this.presets.value)] || { values: {} };
    const f = this.createForm.elements;
    for (const field of fieldsOf(game)) {
      const input = f[FIELD + field.key];
      const value = Object.prototype.hasOwnProperty.call(preset.values, field.key) ? preset.values[field.key] : field.default;
      if (field.kind === "toggle") input.checked = Boolean(value);
      else input.value = value === null ? "" : String(value);
    }
    this.showActive();
  }

  /** Hide (and leave out) the fields whose `when` does not hold. */
  showActive() {
    const game = this.createForm.elements.game.value;
    const values = formValues(this.createForm, game);
    for (const field of fieldsOf(game)) {
      const label = this.fields.querySelector(`[data-field="${field.key}"]`);
      const on = active(field, values);
      label.hidden = !on;
      for (const input of label.querySelectorAll("input, select")) input.disabled = !on;
    }
  }

  /** The player switched language: the rows and the create form again, in it (the
   * form keeps its values: the switcher is on every screen, the form is built once). */
  relabel() {
    this.showRooms(this.rooms || []);
    this.relabelForm();
  }

  refresh() {
    if (this.app.connected) this.app.send("list-rooms");
  }

  join(code, role, password) {
    const clean = String(code || "").trim().toUpperCase();
    if (!clean) {
      this.app.notify(() => t("Type a room code or pick a room first."));
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
      const players = (r.players || []).map((n) => shownName(n));
      const tr = el("tr", { "data-room": code, "data-locked": r.locked === true ? "" : null, tabindex: 0 },
        el("td", {}, el("code", {}, code)),
        el("td", {}, gameTitle(String(r.game))),
        el("td", { class: "dim" }, optionsText(String(r.game), r.options || {})),
        el("td", {}, `${players.join(", ") || "—"} (${players.length}${seats})`),
        el("td", {}, String(r.spectators || 0)),
        el("td", {}, roomStatus(r.status), r.locked === true
          ? el("span", { class: "tag lock", title: t("locked: nobody new can join") }, lockIcon(), " " + t("locked"))
          : null),
        el("td", { class: "buttons" }, join, watch));
      tr.addEventListener("click", () => this.join(code, "player"));
      tr.addEventListener("keydown", (e) => { if (e.key === "Enter") this.join(code, "player"); });
      return tr;
    });
    this.list.replaceChildren(...rows);
    $("#no-rooms").hidden = rows.length > 0;
  }
}
