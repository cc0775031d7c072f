// The admin page's panels, drawn from each `admin-status` (PROTOCOL.md, "The admin
// channel"). Everything the server sends is data and goes in as text. The status
// comes every second, so lists are keyed: a row's buttons are made once and kept, only
// its text is redrawn when it changed, and the keyboard focus is never lost to a redraw.

import { durationSelect, MAX_REASON } from "./admin-ask.js";
import { NONE, bytes, counts, duration, millis, number, plain, when } from "./admin-format.js";
import { el } from "./dom.js";
import { N_, t, tn } from "./i18n.js";
import { roomStatus } from "./lobby.js";

export const MAX_ANNOUNCEMENT = 500;

/** The figures shown, in order: [key, label, format(figures)]. */
const FIGURES = [
  ["players", N_("Players connected"), (f) => number(f.players)],
  ["connections", N_("Connections"), (f) => number(f.connections)],
  ["spectators", N_("Spectators"), (f) => number(f.spectators)],
  ["rooms", N_("Rooms"), (f) => number(f.rooms)],
  ["rooms_by_game", N_("Rooms per game"), (f) => counts(f.rooms_by_game, t("none"))],
  ["messages_per_second", N_("Messages per second"), (f) => number(f.messages_per_second, 1)],
  ["refusals", N_("Refusals by code"), (f) => counts(f.refusals, t("none"))],
  ["commit", N_("Commit time p50 / p99"), (f) => `${millis(f.commit_p50_ms)} / ${millis(f.commit_p99_ms)}`],
  ["worker", N_("Worker queue"), (f) => t("{waiting} waiting, {busy} busy",
    { waiting: number(f.worker_queue), busy: number(f.worker_busy) })],
  ["memory_bytes", N_("Memory"), (f) => bytes(f.memory_bytes)],
  ["database_bytes", N_("Database size"), (f) => bytes(f.database_bytes)],
  ["uptime_s", N_("Uptime"), (f) => duration(f.uptime_s)],
];

/** Labels of the retention knobs (server/io/retention.py); other keys show as themselves. */
const RETENTION = {
  chat_days: N_("Chat kept (days)"),
  chat_rows_per_room: N_("Chat lines kept per room"),
  chat_rows: N_("Chat lines kept in all"),
  games_days: N_("Finished games kept (days)"),
  games_rows: N_("Finished games kept in all"),
  games_mb: N_("Finished games' size in all (MB)"),
  journal_rows: N_("Journal entries a live room keeps"),
};

/** Settings whose value the page never shows, should the server ever send one. */
const SECRET = /token|password|secret/i;

function list(items) {
  return Array.isArray(items) ? items.filter((i) => i && typeof i === "object") : [];
}

function text(value) {
  return value === null || value === undefined ? "" : String(value);
}

/** `value` as a string that changes when it does (`volatile` keys left out). */
function signature(value, volatile = []) {
  try {
    return JSON.stringify(value, (key, v) => (volatile.includes(key) ? undefined : v));
  } catch {
    return String(Math.random());
  }
}

let rowCount = 0;

/**
 * A <ul> whose rows are keyed: update(items) adds, drops, orders rows; a row's body is
 * drawn again only when its item changed (but for its `volatile` fields, which change
 * every second and which `refresh(item, body)` writes in place), its actions (buttons)
 * are made once.
 */
class KeyedList {
  constructor(ul, empty, key, body, actions, volatile = [], refresh = null) {
    Object.assign(this, { ul, empty, key, body, actions, volatile, refresh, rows: new Map() });
  }

  update(items) {
    const seen = new Set();
    let previous = null;
    for (const item of items) {
      const key = text(this.key(item));
      if (seen.has(key)) continue;
      seen.add(key);
      let row = this.rows.get(key);
      if (!row) {
        const body = el("div", { class: "item-body", id: `item-${++rowCount}` });
        const buttons = this.actions(() => this.rows.get(key)?.item);
        // a button's name says what it does, its description which row it is for
        for (const button of buttons) button.setAttribute("aria-describedby", body.id);
        const li = el("li", { class: "item", dataset: { key } }, body,
          el("div", { class: "item-actions" }, buttons));
        row = { li, body, sig: null, item };
        this.rows.set(key, row);
      }
      row.item = item;
      const sig = signature(item, this.volatile);
      if (sig !== row.sig) {
        row.body.replaceChildren(...this.body(item).filter((node) => node !== null));
        row.sig = sig;
      }
      if (this.refresh) this.refresh(item, row.body);
      const next = previous ? previous.nextSibling : this.ul.firstChild;
      if (next !== row.li) this.ul.insertBefore(row.li, next);
      previous = row.li;
    }
    for (const [key, row] of this.rows) {
      if (!seen.has(key)) {
        row.li.remove();
        this.rows.delete(key);
      }
    }
    this.empty.hidden = this.rows.size > 0;
  }
}

function card(id, title, ...children) {
  return el("section", { id, class: "card admin-card", "aria-labelledby": `${id}-title` },
    el("h2", { id: `${id}-title` }, title), ...children);
}

function tag(label, kind = "") {
  return el("span", { class: `tag ${kind}`.trim() }, label);
}

function roleName(role) {
  if (role === "player") return t("player");
  if (role === "spectator") return t("spectator");
  return text(role);
}

/** The whole admin page; `actions` does what its buttons and forms ask (admin.js). */
export class AdminView {
  constructor(root, actions) {
    this.actions = actions;
    this.figures = new Map();
    this.retentionSig = null;
    this.settingsSig = null;
    this.auditSig = null;
    root.replaceChildren(this.build());
  }

  build() {
    const figures = el("dl", { class: "figures" }, FIGURES.map(([key, label]) => {
      const value = el("dd", { dataset: { figure: key } }, NONE);
      this.figures.set(key, value);
      return el("div", { class: "figure" }, el("dt", {}, t(label)), value);
    }));

    this.roomsEmpty = el("p", { class: "dim" }, t("No live rooms."));
    const rooms = el("ul", { id: "admin-rooms", class: "items" });
    this.rooms = new KeyedList(rooms, this.roomsEmpty, (r) => r.room,
      (r) => this.roomBody(r), (item) => [
        el("button", { type: "button", class: "small danger", dataset: { action: "close-room" },
          onclick: () => item() && this.actions.closeRoom(item()) }, t("Close room")),
      ], ["age_s", "last_activity_s", "moves"], (r, body) => {
        const facts = body.querySelector(".facts");
        const now = this.roomFacts(r);
        if (facts && facts.textContent !== now) facts.textContent = now;
      });

    this.playersEmpty = el("p", { class: "dim" }, t("Nobody is connected."));
    const players = el("ul", { id: "admin-players", class: "items" });
    this.players = new KeyedList(players, this.playersEmpty, (p) => p.player,
      (p) => this.playerBody(p), (item) => [
        el("button", { type: "button", class: "small", dataset: { action: "remove-player" },
          onclick: () => item() && this.actions.removePlayer(item()) }, t("Remove")),
        el("button", { type: "button", class: "small danger", dataset: { action: "ban-player" },
          onclick: () => item() && this.actions.banPlayer(item()) }, t("Ban")),
      ]);

    this.bansEmpty = el("p", { class: "dim" }, t("No bans."));
    const bans = el("ul", { id: "admin-bans", class: "items" });
    this.bans = new KeyedList(bans, this.bansEmpty, (b) => b.ban,
      (b) => this.banBody(b), (item) => [
        el("button", { type: "button", class: "small", dataset: { action: "unban" },
          onclick: () => item() && this.actions.unban(item()) }, t("Lift")),
      ]);

    this.asideEmpty = el("p", { class: "dim" }, t("Every room came back at the last start."));
    const aside = el("ul", { id: "admin-quarantined", class: "items" });
    this.aside = new KeyedList(aside, this.asideEmpty, (q) => q.room,
      (q) => this.asideBody(q), (item) => [
        el("button", { type: "button", class: "small", dataset: { action: "release-room" },
          onclick: () => item() && this.actions.releaseRoom(item()) }, t("Try again at next start")),
        el("button", { type: "button", class: "small danger", dataset: { action: "delete-room" },
          onclick: () => item() && this.actions.deleteRoom(item()) }, t("Delete")),
      ]);

    this.settingsBody = el("tbody");
    this.auditList = el("ol", { id: "admin-audit", class: "audit" });
    this.auditEmpty = el("p", { class: "dim" }, t("Nothing yet."));
    this.retentionFields = el("div", { class: "retention-fields" });

    return el("div", { id: "admin", class: "admin" },
      card("admin-figures", t("Server figures"), figures),
      card("admin-rooms-card", t("Live rooms"), rooms, this.roomsEmpty),
      card("admin-quarantined-card", t("Rooms set aside"),
        el("p", { class: "dim small-text" }, t("Rooms the server could not restore after a restart, kept with their journal. Their players keep their identities and are told the room was lost.")),
        aside, this.asideEmpty),
      card("admin-players-card", t("Connected players"), players, this.playersEmpty),
      card("admin-bans-card", t("Bans"), bans, this.bansEmpty, this.banForm()),
      card("admin-announce-card", t("Announcement"), this.announceForm()),
      card("admin-retention-card", t("History kept"), this.retentionForm()),
      card("admin-settings-card", t("Settings in effect"),
        el("table", { class: "settings" },
          el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("Setting")),
            el("th", { scope: "col" }, t("Value")), el("th", { scope: "col" }, t("Source")))),
          this.settingsBody)),
      card("admin-audit-card", t("Audit log"), this.auditList, this.auditEmpty));
  }

  // ---- forms ---------------------------------------------------------------------------

  banForm() {
    const address = el("input", { name: "address", required: true, maxlength: 100,
      autocomplete: "off", spellcheck: "false", placeholder: "192.0.2.7" });
    const reason = el("input", { name: "reason", maxlength: MAX_REASON, autocomplete: "off" });
    const minutes = durationSelect("minutes");
    const form = el("form", { id: "ban-form", class: "admin-form" },
      el("h3", {}, t("Ban an address")),
      el("label", {}, el("span", {}, t("Address")), address),
      el("label", {}, el("span", {}, t("For how long")), minutes),
      el("label", {}, el("span", {}, t("Reason (optional)")), reason),
      el("button", { type: "submit", class: "danger" }, t("Ban this address")));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.actions.banAddress(address.value.trim(), Number(minutes.value), reason.value.trim(),
        () => form.reset());
    });
    return form;
  }

  announceForm() {
    const text = el("input", { name: "text", required: true, maxlength: MAX_ANNOUNCEMENT,
      autocomplete: "off" }); // one line: the server takes no control characters
    const form = el("form", { id: "announce-form", class: "admin-form" },
      el("label", {}, el("span", {}, t("A message to every connected player")), text),
      el("button", { type: "submit", class: "primary" }, t("Send to everyone")));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const said = text.value.trim();
      if (!said) return;
      this.actions.announce(said, () => form.reset());
    });
    return form;
  }

  retentionForm() {
    const form = el("form", { id: "retention-form", class: "admin-form" },
      el("p", { class: "dim small-text" },
        t("What the database keeps of chat and finished games; 0 means no limit.")),
      this.retentionFields,
      el("button", { type: "submit", class: "primary" }, t("Save")));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const changed = {};
      for (const input of this.retentionFields.querySelectorAll("input")) {
        const value = Number(input.value);
        if (input.value.trim() !== "" && value !== Number(input.dataset.server)) {
          changed[input.name] = value;
        }
      }
      this.actions.retention(changed, () => this.clearDirty());
    });
    return form;
  }

  clearDirty() {
    for (const input of this.retentionFields.querySelectorAll("input")) delete input.dataset.dirty;
  }

  // ---- rows ----------------------------------------------------------------------------

  roomBody(r) {
    const flags = [tag(roomStatus(r.status))];
    if (r.private) flags.push(tag(t("private")));
    if (r.locked) flags.push(tag(t("locked")));
    const members = list(r.members).map((m) => el("li", {},
      el("span", { class: "name" }, text(m.name)),
      tag(roleName(m.role)),
      m.bot ? tag(t("computer ({level})", { level: text(m.bot) })) : null,
      m.connected === false ? el("span", { class: "offline" }, t("offline")) : null,
      el("code", { class: "address" }, text(m.address))));
    return [
      el("h3", { class: "item-title" }, el("code", {}, text(r.room)), " ",
        el("span", {}, text(r.game)), " ", flags),
      el("p", { class: "dim facts" }), // roomFacts, written every second
      members.length ? el("ul", { class: "members" }, members)
        : el("p", { class: "dim" }, t("No members.")),
    ];
  }

  /** The line of a room that changes every second. */
  roomFacts(r) {
    return [
      r.host !== null && r.host !== undefined ? t("host: {name}", { name: text(r.host) }) : t("no host"),
      t("open for {age}", { age: duration(r.age_s) }),
      tn("{n} move", "{n} moves", typeof r.moves === "number" ? r.moves : 0),
      t("last activity {ago} ago", { ago: duration(r.last_activity_s) }),
    ].join(" · ");
  }

  playerBody(p) {
    return [
      el("span", { class: "name" }, text(p.name)), " ",
      el("code", { class: "address" }, text(p.address)), " ",
      el("span", { class: "dim" }, p.room ? t("in room {room}", { room: text(p.room) })
        : t("in the lobby")),
    ];
  }

  asideBody(q) {
    const names = list(q.members).map((m) => (m.name === null || m.name === undefined
      ? text(m.player) : text(m.name)));
    return [
      el("h3", { class: "item-title" }, el("code", {}, text(q.room)), " ",
        el("span", {}, text(q.game))),
      el("p", { class: "reason" }, text(q.reason)),
      el("p", { class: "dim" }, t("set aside {time}", { time: when(q.at) }), " · ",
        names.length ? t("members: {names}", { names: names.join(", ") }) : t("No members.")),
    ];
  }

  banBody(b) {
    let target;
    if (b.player) target = t("player {name} ({player})", { name: text(b.name || "?"), player: text(b.player) });
    else target = t("address {address}", { address: text(b.address) });
    return [
      el("span", { class: "name" }, target), " ",
      el("span", { class: "dim" }, t("until {time}", { time: when(b.until) })),
      b.reason ? el("span", { class: "reason" }, " · ", text(b.reason)) : null,
    ];
  }

  // ---- every second --------------------------------------------------------------------

  /** Draw one `admin-status`. */
  update(status) {
    const f = status.figures && typeof status.figures === "object" ? status.figures : {};
    for (const [key, , format] of FIGURES) this.figures.get(key).textContent = format(f);
    this.rooms.update(list(status.rooms));
    this.aside.update(list(status.quarantined));
    this.players.update(list(status.players));
    this.bans.update(list(status.bans));
    this.updateRetention(status.retention);
    this.updateSettings(list(status.settings));
    this.updateAudit(list(status.audit));
  }

  updateRetention(retention) {
    if (!retention || typeof retention !== "object") return;
    const sig = signature(Object.keys(retention).sort());
    if (sig !== this.retentionSig) {
      this.retentionSig = sig;
      const known = Object.keys(RETENTION);
      const rank = (key) => (known.includes(key) ? known.indexOf(key) : known.length);
      const keys = Object.keys(retention).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1));
      this.retentionFields.replaceChildren(...keys.map((key) => {
        const input = el("input", { name: key, type: "number", min: 0, step: "any",
          required: true, inputmode: "decimal" });
        for (const kind of ["input", "change"]) {
          input.addEventListener(kind, () => { input.dataset.dirty = "1"; });
        }
        return el("label", {}, el("span", {}, key in RETENTION ? t(RETENTION[key]) : key), input);
      }));
    }
    for (const input of this.retentionFields.querySelectorAll("input")) {
      const value = retention[input.name];
      input.dataset.server = text(value);
      if (!input.dataset.dirty && document.activeElement !== input) input.value = text(value);
    }
  }

  updateSettings(settings) {
    const sig = signature(settings);
    if (sig === this.settingsSig) return;
    this.settingsSig = sig;
    this.settingsBody.replaceChildren(...settings.map((s) => el("tr", {},
      el("td", {}, el("code", {}, text(s.key))),
      el("td", { class: "value" }, SECRET.test(text(s.key)) ? "••••" : plain(s.value)),
      el("td", { class: "dim" }, text(s.source)))));
  }

  updateAudit(audit) {
    const sig = signature(audit);
    if (sig === this.auditSig) return;
    this.auditSig = sig;
    this.auditList.replaceChildren(...audit.map((a) => el("li", {},
      el("time", { class: "dim" }, when(a.ts)), " ",
      el("code", { class: "address" }, text(a.address)), " ",
      el("strong", {}, text(a.action)),
      plain(a.detail) !== NONE ? el("span", { class: "detail" }, " ", plain(a.detail)) : null)));
    this.auditEmpty.hidden = audit.length > 0;
  }
}
