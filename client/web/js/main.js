// The browser client's entry point: the name form, the connection bar, notices, and
// which screen shows (the lobby, or the room while the session is in one).
//
// Invite links: http://HOST:PORT/#ROOMCODE opens the page and joins that room;
// ?name=NAME (before the #, or after the code: #ROOMCODE?name=NAME) sets the name.

import { $, el } from "./dom.js";
import { LANG_KEY, SOURCE, language, loadLanguage, preferredLanguage, t, tn } from "./i18n.js";
import { LinkView } from "./linking.js";
import { LobbyView } from "./lobby.js";
import { RoomView } from "./room.js";
import { Session, saveName, savedName } from "./session.js";
import { errorText, errorTitle, gameNames, loadDescriptions } from "./describe.js";
import { loadBoards } from "./boards.js";
import { Bulletins } from "./bulletins.js";
import { announcementText, closedText, lostText, removedFromServerText, removedText, retryText } from "./hosts.js";
import { translatePage } from "./translate.js";
import { parseRoute } from "./routes.js";
import { Queries } from "./queries.js";
import { HistoryView } from "./history.js";
import { ReplayView } from "./replay.js";
import { LeaderboardView } from "./leaderboard.js";
import { ProfileView } from "./profile.js";

const TICK_MS = 500;
const LOBBY_REFRESH_MS = 5000;
const NOTICE_MS = 8000;
const ROLE_KEY = "gridhall.role.";
const SCREENS = ["history", "replay", "leaderboard", "profile"]; // the routes' screens

/** Room code and name from the page address. */
export function parseInvite(loc) {
  if (parseRoute(loc.hash)) return { code: null, name: new URLSearchParams(loc.search).get("name") || "", bad: false };
  let hash = decodeURIComponent(loc.hash.replace(/^#\/?/, ""));
  let query = new URLSearchParams(loc.search);
  const q = hash.indexOf("?");
  if (q >= 0) {
    query = new URLSearchParams([...query, ...new URLSearchParams(hash.slice(q + 1))]);
    hash = hash.slice(0, q);
  }
  const code = /^[A-Za-z0-9]{1,16}$/.test(hash) ? hash.toUpperCase() : null;
  const name = (query.get("name") || "").trim().replace(/\s+/g, " ").slice(0, 32);
  return { code, name, bad: hash !== "" && code === null };
}

function socketUrl() {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/`;
}

class App {
  constructor() {
    this.session = null;
    this.room = null;
    this.lobby = null;
    this.pendingJoin = null; // {room, role, id?}: from an invite link, sent once welcomed
    this.autoJoins = new Map(); // request id -> room code of joins sent for an invite link
    this.noticeTimer = null;
    this.notice = null; // {say, action} of the notice line: its words are made again on a switch
    this.sinceRefresh = 0;
    this.screen = null;
    this.lastConnection = null; // the latest connection message, drawn again on a language switch
    this.invited = null; // the room code of the invite link, while the name form shows
    this.relabelling = null;
    this.closing = null; // the room a `room-closed` named, until its `left` arrives
    this.route = null; // {view, arg}: a history, replay, leaderboard or profile screen shows
    this.features = new Set(); // what the server offers beyond the basics (`welcome.features`)
    this.queries = new Queries((type, fields) => this.send(type, fields));
  }

  get connected() { return this.session !== null && this.session.connected; }

  async start() {
    await this.setupLanguage();
    const invite = parseInvite(location);
    if (invite.bad) this.notify(() => t("That link does not hold a room code."));
    if (invite.code) this.pendingJoin = { room: invite.code, role: this.rememberedRole(invite.code) };
    const name = invite.name || savedName();
    if (invite.name) saveName(invite.name);
    this.lobby = new LobbyView(this);
    this.room = new RoomView(this);
    this.bulletins = new Bulletins($("#bulletins"));
    this.views = {
      history: new HistoryView(this), replay: new ReplayView(this),
      leaderboard: new LeaderboardView(this), profile: new ProfileView(this),
    };
    this.linking = new LinkView(this);
    $("#reconnect").addEventListener("click", () => this.session && this.session.connect());
    $("#rename").addEventListener("click", () => this.rename());
    window.addEventListener("hashchange", () => this.followHash());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && this.session) this.session.wake();
    });
    window.addEventListener("online", () => this.session && this.session.wake());
    if (name) this.connect(name);
    else this.askName(invite.code);
    setInterval(() => this.tick(), TICK_MS);
  }

  // ---- language ----------------------------------------------------------------------

  /** Before any text shows: the offered languages, the switcher, and the catalog the
   * player chose last time or the browser asks for (English if the server has none). */
  async setupLanguage() {
    let offered = [{ lang: SOURCE, name: "English" }];
    try {
      const reply = await fetch("/i18n/index.json");
      if (reply.ok) offered = (await reply.json()).languages;
    } catch { /* an older server: English only */ }
    const select = $("#language");
    select.replaceChildren(...offered.map((l) => el("option", { value: l.lang, lang: l.lang.replace("_", "-") }, l.name)));
    let stored = null;
    try { stored = localStorage.getItem(LANG_KEY); } catch { /* storage off */ }
    await this.useLanguage(preferredLanguage(offered.map((l) => l.lang), stored));
    select.hidden = offered.length < 2;
    select.addEventListener("change", () => this.switchLanguage(select.value));
  }

  async useLanguage(lang) {
    try {
      await loadLanguage(lang);
    } catch {
      await loadLanguage(SOURCE);
    }
    $("#language").value = language();
    translatePage(document);
  }

  /** The switcher: remember the choice and draw every text again in it. */
  async switchLanguage(lang) {
    try { localStorage.setItem(LANG_KEY, lang); } catch { /* storage off: this page only */ }
    await this.useLanguage(lang);
    if (this.session) this.showName(this.session.name);
    if (this.invited) this.showInvited(this.invited);
    if (this.lastConnection) { // its words only: no join or refresh sent again
      this.relabelling = this.lastConnection;
      this.onConnection(this.lastConnection);
      this.relabelling = null;
    }
    this.lobby.relabel();
    this.bulletins.relabel();
    if (!$("#notice").hidden) this.drawNotice();
    if (this.route) this.views[this.route.view].relabel();
    this.linking.relabel();
    if (this.screen === "room") this.room.relabel();
  }

  showInvited(code) {
    const note = $("#welcome-room");
    note.hidden = !code;
    note.textContent = code ? t("You were invited to room {code}.", { code }) : "";
  }

  // ---- the player's name -------------------------------------------------------------

  askName(code) {
    this.showScreen("welcome");
    const form = $("#name-form");
    this.invited = code;
    this.showInvited(code);
    form.elements.name.value = savedName();
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const name = form.elements.name.value.trim().replace(/\s+/g, " ").slice(0, 32);
      if (!name || this.session) return;
      saveName(name);
      this.invited = null;
      this.connect(name);
    });
  }

  connect(name, link = null) {
    this.session = new Session(socketUrl(), name);
    this.session.link = link;
    this.session.on((msg) => this.onMessage(msg));
    this.showName(name);
    this.showScreen("lobby");
    this.session.connect();
    this.followRoute();
  }

  showName(name) {
    const button = $("#rename");
    button.hidden = false;
    button.textContent = `${name} ✎`;
    button.title = t("Change your name");
  }

  rename() {
    if (!this.session) return;
    const typed = window.prompt(t("Your name (1-32 characters)"), this.session.name);
    const name = (typed || "").trim().replace(/\s+/g, " ").slice(0, 32);
    if (!name || name === this.session.name) return;
    if (this.send("player-info", { name }) === null) return;
    this.session.name = name;
    saveName(name);
    this.showName(name);
  }

  // ---- from the server -------------------------------------------------------------

  onMessage(msg) {
    const kind = msg.type;
    const before = this.room.copy ? this.room.copy.state : null;
    if (this.queries.take(msg)) return; // an answer a screen is waiting for
    if (kind === "analysis") this.views.replay.onAnalysis(msg);
    if (kind === "game-over") {
      this.room.gameId = Number.isInteger(msg.game_id) ? msg.game_id : null;
      this.room.ratings = msg.ratings && typeof msg.ratings === "object" ? msg.ratings : null;
    } else if (kind === "state" && msg.status !== "over") this.room.gameId = this.room.ratings = null;
    if (kind === "connection") this.onConnection(msg);
    else if (kind === "error") this.onError(msg);
    else if (kind === "rooms") this.lobby.showRooms(Array.isArray(msg.rooms) ? msg.rooms : []);
    else if (kind === "welcome") this.onWelcome(msg);
    else if (kind === "link-code") this.linking.show(msg);
    else if (kind === "devices") this.linking.showDevices(msg);
    else if (kind === "announce") this.bulletins.show("announce", () => announcementText(msg));
    else if (kind === "room-closed") this.onClosed(msg);
    else if (kind === "left" && this.session && msg.player === this.session.player) this.onRemoved(msg);
    this.follow();
    if (this.screen === "room" && typeof msg.room === "string") this.room.handle(msg, before);
  }

  /** Become the player another device showed `code` for (from the start screen too). */
  linkWith(code) {
    if (!this.session) {
      const typed = $("#name-form").elements.name.value.trim().replace(/\s+/g, " ").slice(0, 32);
      this.invited = null;
      this.connect(typed || savedName() || t("Player"), code);
      return;
    }
    this.session.linkWith(code);
  }

  onConnection(msg) {
    if (this.room) this.room.setOnline(msg.status === "connected");
    const bar = $("#connection");
    const retry = $("#reconnect");
    this.lastConnection = msg;
    bar.dataset.connection = msg.status;
    retry.hidden = true;
    switch (msg.status) {
      case "connected":
        bar.textContent = "● " + t("connected");
        if (msg !== this.relabelling) {
          this.sendPendingJoin();
          this.lobby.refresh();
        }
        break;
      case "connecting":
        bar.textContent = "○ " + (msg.attempt > 0 && msg.address // back to our node, or the next one
          ? t("Reconnecting to {address}…", { address: msg.address })
          : t("connecting…"));
        break;
      case "gave-up":
        bar.textContent = "○ " + tn("The server did not answer; gave up. Reconnect to try again.",
          "None of the {count} servers of this cluster answered; gave up. Reconnect to try again.",
          msg.count, { count: msg.count });
        retry.hidden = false;
        break;
      case "lost":
        this.queries.dropAll();
        bar.textContent = "○ " + t("offline · retrying in {seconds} s", { seconds: Math.ceil(msg.delay || 0) });
        retry.hidden = false;
        break;
      case "restarting":
        bar.textContent = "○ " + t("server restarting · reconnecting…");
        retry.hidden = false;
        break;
      case "replaced":
        bar.textContent = "○ " + t("this game is open in another tab or window");
        retry.textContent = t("Play here");
        retry.hidden = false;
        return;
      case "signed-out":
        bar.textContent = "○ " + t("this device was signed out");
        retry.textContent = t("Play here as someone new");
        retry.hidden = false;
        return;
      case "fatal":
        bar.textContent = "○ " + t("this page is out of date: reload it");
        break;
      case "removed":
        bar.textContent = "○ " + t("removed by the server's operator");
        retry.hidden = false;
        if (msg !== this.relabelling) this.bulletins.show("removed", () => removedFromServerText(msg.reason));
        break;
      case "banned":
        bar.textContent = "○ " + t("banned from this server");
        retry.hidden = false;
        break;
      default:
        break;
    }
    retry.textContent = t("Reconnect now");
    if (this.screen === "room") this.room.renderStatus();
  }

  /** The server's name, our name (a link code makes us the other device's player),
   * and what it offers: the lobby's links to history and leaderboards and the link-code
   * button show only when it has them. */
  onWelcome(msg) {
    $("#server-name").textContent = String(msg.server || "");
    this.linking.welcomed(this.session);
    this.showName(this.session.name); // a link code makes us the other device's player
    this.features = new Set(Array.isArray(msg.features) ? msg.features.map(String) : []);
    $("#browse-links").hidden = !this.features.has("history");
    for (const a of document.querySelectorAll("[data-needs]")) a.hidden = !this.features.has(a.dataset.needs);
    if (this.route) this.followRoute(); // its query again, now it can be sent
  }

  onError(msg) {
    const room = this.autoJoins.get(msg.re);
    if (this.room) this.room.refused(msg);
    if (room !== undefined) {
      this.autoJoins.delete(msg.re);
      if (this.pendingJoin && this.pendingJoin.room === room) this.pendingJoin = null;
      if (msg.code === "already-in-room") return; // resumed into our seat: the state follows
      if (msg.code === "wrong-password") {
        this.notify(() => t("Room {code} is private: type its password to join.", { code: room }));
        this.lobby.askPassword(room);
        return;
      }
      if (msg.code === "no-such-room") this.clearHash();
      if (msg.code === "room-full") { // every seat taken: offer to watch instead
        this.notify(() => t("Every seat in room {room} is taken; you can watch the game.", { room }), {
          label: () => t("Watch"), run: () => this.join({ room, role: "spectator" }),
        });
        return;
      }
    }
    if (msg.code === "banned") { // until when and why: it stays on the page
      this.bulletins.show("banned", () => errorText(msg) + retryText(msg));
      return;
    }
    if (msg.code === "room-lost") { // our room did not survive a restart: it stays on the page
      this.bulletins.show("room-lost", () => lostText(msg.room, msg.reason));
      return;
    }
    this.notify(() => {
      const title = errorTitle(msg);
      const text = errorText(msg) + retryText(msg);
      return title ? `${title}: ${text}` : text;
    });
  }

  /** The operator closed our room: say why (the `left` that follows takes us out). */
  onClosed(msg) {
    this.closing = msg.room;
    this.bulletins.show("closed", () => closedText(msg.room, msg.reason));
  }

  /** The `left` about ourselves: removed by the host, or the room was closed. */
  onRemoved(msg) {
    const room = String(msg.room);
    if (msg.reason === "kicked") {
      const until = typeof msg.until === "number" ? msg.until : null;
      this.bulletins.show("kicked", () => removedText(room, until));
    } else if (msg.reason === "closed" && this.closing !== room) {
      this.bulletins.show("closed", () => closedText(room, ""));
    }
    this.closing = null;
  }

  /** Show the room screen exactly while the session is in a room. */
  follow() {
    const copy = this.session ? this.session.room : null;
    if (copy && copy.state.game) {
      if (this.pendingJoin && this.pendingJoin.room === copy.room) this.pendingJoin = null;
      this.room.show(copy, this.session.player);
      if (this.screen !== "room" && !this.route) {
        this.showScreen("room");
        this.room.fit();
        this.setHash(copy.room);
      }
    } else if (this.screen === "room" && !copy) {
      this.showScreen("lobby");
      this.clearHash();
      this.lobby.refresh();
    }
  }

  // ---- joining ---------------------------------------------------------------------

  join(fields) {
    try { sessionStorage.setItem(ROLE_KEY + fields.room, fields.role); } catch { /* optional */ }
    return this.send("join-room", fields);
  }

  rememberedRole(code) {
    try { return sessionStorage.getItem(ROLE_KEY + code) || "player"; } catch { return "player"; }
  }

  sendPendingJoin() {
    const pending = this.pendingJoin;
    if (!pending || pending.id !== undefined) return;
    if (this.session.room && this.session.room.room === pending.room) {
      this.pendingJoin = null;
      return;
    }
    const id = this.join({ room: pending.room, role: pending.role });
    if (id === null) return;
    pending.id = id;
    this.autoJoins.set(id, pending.room);
  }

  /** Show the screen the address names (#history, #replay/ID, ...), or leave one. */
  followRoute() {
    const route = parseRoute(location.hash);
    if (!route) {
      if (this.route) this.leaveBrowse();
      return;
    }
    if (this.route && this.route.view !== route.view) this.views[this.route.view].close?.();
    this.route = route;
    if (!this.session) return; // after the name form
    this.showScreen(route.view);
    this.views[route.view].open(route.arg);
  }

  /** Back from a history screen to the room we are in, or the lobby. */
  leaveBrowse() {
    if (this.route) this.views[this.route.view].close?.();
    this.route = null;
    const copy = this.session ? this.session.room : null;
    this.showScreen(copy && copy.state.game ? "room" : "lobby");
    if (this.screen === "room") {
      this.setHash(copy.room);
      this.room.fit();
    } else {
      this.clearHash();
      this.lobby.refresh();
    }
  }

  followHash() {
    if (parseRoute(location.hash)) {
      this.followRoute();
      return;
    }
    if (this.route) { // away from a history screen: back, then maybe into a room
      const { code: next } = parseInvite(location);
      this.leaveBrowse();
      if (!next) return;
      history.replaceState(null, "", `/#${next}`);
    }
    const { code } = parseInvite(location);
    if (!code || !this.session) return;
    const current = this.session.room;
    if (current && current.room === code) return;
    if (current) {
      this.notify(() => t("Leave room {current} first to join {code}.", { current: current.room, code }));
      return;
    }
    this.pendingJoin = { room: code, role: this.rememberedRole(code) };
    if (this.connected) this.sendPendingJoin();
  }

  setHash(code) {
    if (location.hash !== `#${code}` || location.search) history.replaceState(null, "", `/#${code}`);
  }

  clearHash() {
    if (location.hash || location.search) history.replaceState(null, "", "/");
  }

  // ---- utilities -------------------------------------------------------------------

  send(type, fields = {}) {
    if (!this.session) return null;
    return this.session.send(type, fields);
  }

  /** A short message in the notice line (in the page's flow, so it never covers a
   * control), with an optional button {label, run}; it goes after a while. `say` (and
   * `action.label`) is a function that makes the words, kept to make them again in the
   * language the player switches to while it shows; a plain string stays as it came. */
  notify(say, action = null) {
    this.notice = { say, action };
    this.drawNotice();
    const box = $("#notice");
    box.hidden = false;
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => { box.hidden = true; }, action ? NOTICE_MS * 3 : NOTICE_MS);
  }

  drawNotice() {
    if (!this.notice) return;
    const { say, action } = this.notice;
    const words = (made) => String(typeof made === "function" ? made() : made);
    const box = $("#notice");
    const children = [el("span", { class: "notice-text" }, words(say))];
    if (action) {
      const button = el("button", { type: "button", class: "small primary", "data-notice-action": "" }, words(action.label));
      button.addEventListener("click", () => { box.hidden = true; action.run(); });
      children.push(button);
    }
    box.replaceChildren(...children);
  }

  /** Say `text` to screen readers (moves, results, offers) without showing it. */
  announce(text) {
    if (!text) return;
    const region = $("#announce");
    // a new node each time, so the same sentence twice is read twice
    region.replaceChildren(el("p", {}, text));
  }

  showScreen(name) {
    // another screen opens at its top (the room at its board), not at the scroll offset
    // the last one was left at (Create room sits at the bottom of a phone's lobby)
    if (this.screen !== name) window.scrollTo(0, 0);
    this.screen = name;
    for (const id of ["welcome", "lobby", "room", ...SCREENS]) $(`#${id}`).hidden = id !== name;
    document.body.dataset.screen = name;
    // the notice line: under the room's buttons while playing, else above the screen
    const box = $("#notice");
    if (name === "room") $("#notice-slot").append(box);
    else $("main").prepend(box);
  }

  tick() {
    this.linking.tick();
    if (this.screen === "room") this.room.tick();
    else if (this.screen === "lobby") {
      this.sinceRefresh += TICK_MS;
      if (this.sinceRefresh >= LOBBY_REFRESH_MS) {
        this.sinceRefresh = 0;
        this.lobby.refresh();
      }
    }
  }
}

// The games' descriptions first: the lobby's form and every game text come from them,
// and the boards of the games they describe.
loadDescriptions().then(() => loadBoards(gameNames()))
  .catch((err) => console.warn("game descriptions not loaded:", err))
  .finally(() => new App().start());
