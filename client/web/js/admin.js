// The server's admin page (GET /admin): the token comes in the link's #fragment, is
// taken out of the address bar at once and kept in memory only; the page opens the
// admin WebSocket (PROTOCOL.md, "The admin channel") and shows nothing of the server
// until the server has accepted that token.

import { ask } from "./admin-ask.js";
import { AdminView } from "./admin-view.js";
import { decode, encode } from "./codec.js";
import { $, el } from "./dom.js";
import { LANG_KEY, SOURCE, loadLanguage, preferredLanguage, t, tn } from "./i18n.js";

const HELLO_ID = 1;
const RETRY_MS = [1000, 2000, 5000, 10000];
const NOTICE_MS = 8000;

function adminUrl() {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/admin`;
}

/** The token in the link's #fragment (or ""), then the fragment leaves the address bar
 * and the history entry, so the secret is not left on screen. */
function takeToken() {
  const raw = location.hash.slice(1);
  if (!raw) return "";
  history.replaceState(null, "", location.pathname + location.search);
  try {
    return decodeURIComponent(raw).trim();
  } catch {
    return raw.trim();
  }
}

function text(value) {
  return value === null || value === undefined ? "" : String(value);
}

/** The page language: the one the player picked on the game page, else the browser's. */
async function setupLanguage() {
  let offered = [SOURCE];
  try {
    const reply = await fetch("/i18n/index.json");
    if (reply.ok) offered = (await reply.json()).languages.map((l) => l.lang);
  } catch { /* English only */ }
  let stored = null;
  try { stored = localStorage.getItem(LANG_KEY); } catch { /* storage off */ }
  try {
    await loadLanguage(preferredLanguage(offered, stored));
  } catch {
    await loadLanguage(SOURCE);
  }
}

class AdminPage {
  constructor() {
    this.token = "";
    this.ws = null;
    this.welcomed = false;
    this.refused = false;
    this.view = null;
    this.nextId = HELLO_ID + 1;
    this.pending = new Map();
    this.retries = 0;
    this.retryTimer = null;
    this.noticeTimer = null;
  }

  async start() {
    await setupLanguage();
    document.title = t("gridhall admin");
    window.addEventListener("hashchange", () => {
      const token = takeToken();
      if (token) this.open(token);
    });
    // leaving the page (or the back-forward cache keeping it) ends the admin session
    // now, instead of leaving a socket the server keeps serving
    window.addEventListener("pagehide", () => this.leave());
    window.addEventListener("pageshow", (event) => {
      if (event.persisted && this.token && !this.ws && !this.refused) this.connect();
    });
    this.open(takeToken());
  }

  leave() {
    clearTimeout(this.retryTimer);
    const ws = this.ws;
    this.ws = null;
    this.welcomed = false;
    if (ws) ws.close(1000, "page closed");
  }

  /** Start over with `token`: nothing of a previous session stays. */
  open(token) {
    this.token = token;
    this.refused = false;
    this.retries = 0;
    clearTimeout(this.retryTimer);
    if (this.ws) {
      const old = this.ws;
      this.ws = null;
      old.close();
    }
    this.hideAll();
    if (!token) {
      this.gate(t("This is the admin page of a gridhall server. Open it with the admin link that gridhall-server prints when it starts."));
      return;
    }
    this.gate(t("Connecting…"));
    this.connect();
  }

  // ---- the channel ---------------------------------------------------------------------

  connect() {
    this.welcomed = false;
    this.connection("connecting");
    let ws;
    try {
      ws = new WebSocket(adminUrl());
    } catch {
      this.lost();
      return;
    }
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    ws.addEventListener("open", () => {
      ws.send(encode({ type: "admin-hello", token: this.token, id: HELLO_ID }));
    });
    ws.addEventListener("message", (event) => {
      if (ws !== this.ws) return;
      let msg;
      try {
        msg = decode(event.data);
      } catch (err) {
        console.warn("admin: bad frame", err);
        return;
      }
      this.handle(msg);
    });
    ws.addEventListener("close", () => {
      if (ws !== this.ws) return; // replaced by a newer connection
      this.ws = null;
      this.lost();
    });
  }

  handle(msg) {
    switch (msg.type) {
      case "admin-welcome":
        this.welcomed = true;
        this.retries = 0;
        this.show(text(msg.server));
        break;
      case "admin-status":
        if (this.view && this.welcomed) this.view.update(msg);
        break;
      case "admin-done":
        this.done(msg);
        break;
      case "error":
        if (msg.re === HELLO_ID || !this.welcomed) this.refuse(msg);
        else this.failed(msg);
        break;
      default:
        break; // newer servers may say more: not for this page
    }
  }

  /** The channel closed: try again while the token was good, else say it could not open. */
  lost() {
    this.connection("closed");
    this.welcomed = false;
    if (this.refused) return;
    const open = this.pending.size;
    this.pending.clear();
    if (!this.view) {
      this.gate(t("The admin channel could not be opened: the server is not running, or it takes no admin connections from this address."));
      return;
    }
    if (open) this.notice(t("The connection dropped: what was not confirmed may not have happened."), "error");
    const delay = RETRY_MS[Math.min(this.retries, RETRY_MS.length - 1)];
    this.retries += 1;
    this.connection("lost", delay);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** The hello was refused: only a short message stays on the page. */
  refuse(msg) {
    this.refused = true;
    this.hideAll();
    if (msg.code === "rate-limited") {
      const seconds = Math.max(1, Math.ceil(Number(msg.retry_after) || 0));
      this.gate(t("Too many wrong admin links from this address: try again in {seconds} s.", { seconds }));
    } else {
      this.gate(t("This admin link was refused. The server makes a new link each time it starts: use the one it printed last."));
    }
  }

  // ---- what shows ----------------------------------------------------------------------

  /** Only `message`: no server name, no panels. */
  gate(message) {
    const gate = $("#gate");
    gate.textContent = message;
    gate.hidden = false;
  }

  hideAll() {
    this.view = null;
    this.pending.clear();
    $("#server-name").textContent = "";
    $("#admin-main").replaceChildren(el("p", { id: "gate", class: "card narrow", role: "status" }));
    $("#notice").hidden = true;
  }

  show(serverName) {
    $("#server-name").textContent = serverName;
    this.connection("connected");
    if (this.view) return; // a reconnect: the panels stay and are redrawn by the status
    $("#gate").hidden = true;
    const panels = el("div", { id: "admin-panels" });
    $("#admin-main").append(panels);
    this.view = new AdminView(panels, this);
  }

  connection(state, delay = 0) {
    const bar = $("#connection");
    bar.dataset.connection = state;
    if (state === "connected") bar.textContent = "● " + t("connected");
    else if (state === "connecting") bar.textContent = "○ " + t("connecting…");
    else if (state === "lost") bar.textContent = "○ " + t("offline · retrying in {seconds} s", { seconds: Math.ceil(delay / 1000) });
    else bar.textContent = "";
  }

  notice(message, kind = "done") {
    const box = $("#notice");
    box.dataset.kind = kind;
    box.replaceChildren(el("span", { class: "notice-text" }, message));
    box.hidden = false;
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => { box.hidden = true; }, NOTICE_MS);
  }

  // ---- requests ------------------------------------------------------------------------

  /** Send an admin action; `what` says what happened once the server confirms it. */
  request(action, fields, what, done = null) {
    if (!this.ws || !this.welcomed) {
      this.notice(t("Not connected: try again in a moment."), "error");
      return;
    }
    const id = this.nextId++;
    this.pending.set(id, { what, done });
    this.ws.send(encode({ type: "admin", action, id, ...fields }));
  }

  done(msg) {
    const request = this.pending.get(msg.re);
    if (!request) return;
    this.pending.delete(msg.re);
    this.notice(request.what, "done");
    if (request.done) request.done();
  }

  failed(msg) {
    // an answer to a request, or the server's own error (no `re`): said either way
    if (!this.pending.delete(msg.re) && msg.re !== undefined && msg.re !== null) return;
    this.notice(t("Refused: {message}", { message: text(msg.message || msg.code) }), "error");
  }

  // ---- the panels' actions (AdminView calls these) -------------------------------------

  async closeRoom(room) {
    const members = Array.isArray(room.members) ? room.members.length : 0;
    const answer = await ask({
      title: t("Close room {room}", { room: text(room.room) }),
      text: tn("Its {n} member goes back to the lobby and is shown your reason.",
        "Its {n} members go back to the lobby and are shown your reason.", members),
      confirm: t("Close room"),
      reasonRequired: true,
    });
    if (answer) {
      this.request("close-room", { room: room.room, reason: answer.reason },
        t("Room {room} closed.", { room: text(room.room) }));
    }
  }

  async removePlayer(player) {
    const answer = await ask({
      title: t("Remove {name} from the server", { name: text(player.name) }),
      text: t("Their connection is closed; they can come back unless you ban them."),
      confirm: t("Remove"),
    });
    if (answer) {
      this.request("remove-player", { player: player.player, reason: answer.reason || undefined },
        t("{name} removed.", { name: text(player.name) }));
    }
  }

  async banPlayer(player) {
    const answer = await ask({
      title: t("Ban {name}", { name: text(player.name) }),
      text: t("They are removed now and cannot come back until the ban ends."),
      confirm: t("Ban"),
      duration: true,
    });
    if (answer) {
      this.request("ban", { player: player.player, minutes: answer.minutes,
        reason: answer.reason || undefined }, t("{name} banned.", { name: text(player.name) }));
    }
  }

  banAddress(address, minutes, reason, done) {
    if (!address) return;
    this.request("ban", { address, minutes, reason: reason || undefined },
      t("Address {address} banned.", { address }), done);
  }

  async releaseRoom(room) {
    const answer = await ask({
      title: t("Try room {room} again", { room: text(room.room) }),
      text: t("The server replays it at its next start; if it still cannot, it is set aside again."),
      confirm: t("Try again at next start"),
    });
    if (answer) {
      this.request("release-room", { room: room.room, reason: answer.reason || undefined },
        t("Room {room} will be tried again at the next start.", { room: text(room.room) }));
    }
  }

  async deleteRoom(room) {
    const answer = await ask({
      title: t("Delete room {room}", { room: text(room.room) }),
      text: t("Its journal is deleted for good; its players keep their identities."),
      confirm: t("Delete"),
    });
    if (answer) {
      this.request("delete-room", { room: room.room, reason: answer.reason || undefined },
        t("Room {room} deleted.", { room: text(room.room) }));
    }
  }

  unban(ban) {
    this.request("unban", { ban: ban.ban }, t("Ban lifted."));
  }

  announce(said, done) {
    this.request("announce", { text: said }, t("Announcement sent."), done);
  }

  retention(changed, done) {
    if (!Object.keys(changed).length) {
      this.notice(t("Nothing changed."), "done");
      return;
    }
    this.request("retention", { settings: changed }, t("History limits saved."), done);
  }
}

new AdminPage().start();
