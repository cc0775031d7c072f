// One player's connection to the gridhall server that served this page.
//
// Mirrors client/session.py: say `hello` (with the token kept in localStorage, so a
// reload or a dropped connection gets the seat back), keep the latest `state` of our
// room and fold room events into it, ask for `sync` when a room's `seq` skips, and
// reconnect with exponential backoff and jitter; a cluster's other nodes
// (`welcome.nodes`) are tried in turn, a bounded number of rounds (failover.js). It
// knows no game rules: whose turn it is comes from the server's `turn` field, never
// from the board.
//
// Listeners get every server message (after it was applied) plus local ones:
//   {type: "connection", status: "connecting" | "connected" | "lost" | "restarting"
//    | "replaced" | "fatal" | "removed" | "banned" | "gave-up", delay?, attempt?, code?,
//    reason?, address? (the node tried, with "connecting"), count? (nodes, "gave-up")}
//   {type: "error", code: "offline", ...} for an intent sent while disconnected.

import { PROTOCOL, decode, encode } from "./codec.js";
import { applyDelta } from "./delta.js";
import { ROUNDS, Route, nodeAddresses } from "./failover.js";
import { foldHost, isOperatorRemoval, noteWatcher, noteWatchers } from "./hosts.js";
import { t } from "./i18n.js";

const CHAT_KEEP = 200;
const TOKEN_KEY = "gridhall.token";
const NAME_KEY = "gridhall.name";
export const CLOSE_REPLACED = 4000; // the same player connected again elsewhere
export const CLOSE_RESTART = 1012; // the server is restarting
export const CLOSE_SIGNED_OUT = 4001; // this device was signed out: its token no longer works

/** What this device is in the player's device list (`hello.device`): the client's kind,
 * a code each viewer's client names in its own language, and the platform, data. */
export function thisDevice() {
  const nav = globalThis.navigator || {};
  const platform = String((nav.userAgentData && nav.userAgentData.platform) || nav.platform || "")
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, "").trim().slice(0, 32);
  return platform ? { kind: "browser", platform } : { kind: "browser" };
}

/** localStorage that never throws (private browsing, storage disabled). */
export const storage = {
  get(key) {
    try { return globalThis.localStorage.getItem(key); } catch { return null; }
  },
  set(key, value) {
    try {
      if (value === null || value === undefined) globalThis.localStorage.removeItem(key);
      else globalThis.localStorage.setItem(key, value);
    } catch { /* nothing to keep it in: the next visit is a new player */ }
  },
};

export function savedName() { return storage.get(NAME_KEY) || ""; }
export function saveName(name) { storage.set(NAME_KEY, name); }

/** Reconnect delays: `first` doubling up to `cap`, scaled by 50..100 % jitter so a
 * room full of phones does not reconnect in lock step. */
export function backoffDelay(attempt, first = 0.5, cap = 10, jitter = 0.5) {
  const base = Math.min(cap, first * 2 ** Math.min(attempt, 30));
  return base * (1 - jitter * Math.random());
}

/** Our copy of a room: its last `state` with later events applied, plus what a
 * snapshot does not carry (who asked for another game, each player's last move). */
export class RoomCopy {
  constructor(room, seq) {
    this.room = room;
    this.seq = seq;
    this.state = {};
    this.again = [];
    this.declined = [];
    this.lastActions = {};
    this.syncing = false;
    this.watchers = new Map(); // spectator id -> name, as far as events told us (hosts.js)
  }
}

export class Session {
  constructor(url, name) {
    this.url = url;
    this.name = name;
    this.token = storage.get(TOKEN_KEY);
    this.player = null;
    this.serverName = null;
    this.room = null;
    this.ws = null;
    this.welcomed = false;
    this.attempt = 0;
    this.paused = null; // "replaced" (another tab took over) | "fatal" (version mismatch)
    // | "signed-out" (this device was signed out)
    // | "removed" (the server's operator closed us) | "banned" | "gave-up" (no node answered)
    this.restarting = false; // closed for a planned restart, not yet back
    this.retryTimer = null;
    this.nextId = 1;
    this.requests = new Map();
    this.listeners = [];
    this.link = null; // a link code to say hello with once, instead of the token (linking.js)
    this.linking = false; // the current connection's hello carried it, not yet answered
    this.features = []; // welcome.features: what the server offers beyond the base contract
    this.home = url; // the page's own node: localStorage keeps the tokens it gave only
    this.homePlayer = null;
    this.nodes = []; // welcome.nodes: every node of the server's cluster (none: one server)
    this.route = null; // the failover under way since the last welcome (failover.js)
    this.rounds = ROUNDS; // failed rounds over a cluster's nodes before giving up
  }

  get connected() { return this.ws !== null && this.welcomed; }

  on(listener) { this.listeners.push(listener); }

  emit(msg) {
    for (const listener of this.listeners) {
      try { listener(msg); } catch (err) { console.error(err); } // a UI bug must not kill the link
    }
  }

  // ---- connection --------------------------------------------------------------------

  /** Connect now (also cancels a pending retry and a "replaced" pause). */
  connect() {
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.paused === "gave-up") this.route = null; // asked again: start over from here
    this.paused = null;
    if (this.ws !== null) return;
    this.emit({ type: "connection", status: "connecting", attempt: this.attempt, address: this.url });
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch (err) {
      this.lost({ code: 1006, reason: String(err) });
      return;
    }
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    this.welcomed = false;
    ws.onopen = () => {
      // deltas: `moved` carries the changes to the view we hold (fold() applies them)
      const hello = { type: "hello", protocol: PROTOCOL, name: this.name, deltas: true, device: thisDevice() };
      this.linking = this.link !== null;
      if (this.linking) hello.link = this.link;
      else if (this.token) hello.token = this.token;
      ws.send(encode(hello));
    };
    ws.onmessage = (event) => {
      if (ws !== this.ws) return;
      let msg;
      try { msg = decode(event.data); } catch { return; } // not our format: ignore
      this.onMessage(msg);
    };
    ws.onclose = (event) => {
      if (ws !== this.ws) return;
      this.ws = null;
      this.welcomed = false;
      this.lost(event);
    };
  }

  /** Reconnect at once if we are waiting to (a "retry now" button, the tab shown again). */
  wake() {
    if (this.ws === null && this.paused === null) this.connect();
  }

  /** Become the player who showed `code` on another device: connect again at once with
   * `hello.link`. A refused code comes as an error (request "link"), and the session
   * goes on as before with its own token. */
  linkWith(code) {
    this.link = code;
    const old = this.ws;
    if (old !== null) {
      this.ws = null;
      this.welcomed = false;
      old.close(1000);
    }
    this.connect();
  }

  /** Drop the socket as a network failure would (tests, and a UI's "reconnect now"). */
  drop() {
    if (this.ws !== null) this.ws.close();
  }

  lost(event) {
    if (this.room !== null) this.room.syncing = true; // the state sent on resume replaces it
    if (event.code === CLOSE_REPLACED) {
      this.paused = "replaced";
      this.emit({ type: "connection", status: "replaced" });
      return;
    }
    if (event.code === CLOSE_SIGNED_OUT) { // our token is dead: the next hello is someone new
      this.paused = "signed-out";
      this.token = null;
      this.room = null;
      storage.set(TOKEN_KEY, null);
      this.emit({ type: "connection", status: "signed-out" });
      return;
    }
    if (this.paused === "fatal") {
      this.emit({ type: "connection", status: "fatal" });
      return;
    }
    // removed or banned by the server's operator: coming straight back would only be
    // refused again (or undo the removal); the player may still reconnect by hand
    if (this.paused === "banned" || isOperatorRemoval(event.reason)) {
      if (this.paused !== "banned") this.paused = "removed";
      this.emit({ type: "connection", status: this.paused, code: event.code, reason: String(event.reason || "") });
      return;
    }
    if (this.route === null) { // was up: this node first, then the others
      this.route = new Route(this.url, this.nodes);
    } else if (!this.route.failed()) { // on to the cluster's next node at once
      this.url = this.route.current;
      this.connect();
      return;
    } else {
      this.url = this.route.current;
      if (this.route.order.length > 1 && this.route.rounds >= this.rounds) {
        this.paused = "gave-up";
        this.emit({ type: "connection", status: "gave-up", attempt: this.route.rounds, count: this.route.order.length });
        return;
      }
    }
    const delay = backoffDelay(this.attempt);
    this.attempt += 1;
    // after a planned restart the first retries fail while the server starts again:
    // that is still "restarting", not "lost", until we are welcomed back
    if (event.code === CLOSE_RESTART) this.restarting = true;
    const status = this.restarting ? "restarting" : "lost";
    this.emit({ type: "connection", status, delay, attempt: this.attempt, code: event.code });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.paused === null) this.connect();
    }, delay * 1000);
  }

  // ---- sending -----------------------------------------------------------------------

  /** Send an intent; returns its request id, or null when offline (listeners then get
   * an `offline` error). */
  send(type, fields = {}) {
    if (!this.connected) {
      this.emit({
        type: "error", code: "offline", request: type,
        message: t("Not connected to the server right now; reconnecting, try again in a moment."),
      });
      return null;
    }
    const id = this.nextId & 0x7fffffff;
    this.nextId += 1;
    this.requests.set(id, type);
    if (this.requests.size > 256) this.requests.delete(this.requests.keys().next().value);
    this.ws.send(encode({ ...fields, type, id }));
    return id;
  }

  // ---- applying server messages ------------------------------------------------------

  onMessage(msg) {
    const kind = msg.type;
    if (kind === "welcome") {
      this.features = Array.isArray(msg.features) ? msg.features.map(String) : [];
      if (this.linking) { // we are now the identity that showed the code
        this.linking = false;
        this.link = null;
        this.room = null;
        if (typeof msg.name === "string" && msg.name) {
          this.name = msg.name;
          saveName(msg.name);
        }
      }
      if (this.player !== null && msg.player !== this.player) this.room = null; // someone new here
      this.player = msg.player;
      this.nodes = nodeAddresses(msg.nodes);
      this.route = null;
      if (this.url === this.home) this.homePlayer = msg.player;
      if (msg.token) {
        this.token = msg.token;
        // not another node's stranger over our own: the page reloads at its own node
        if (msg.player === this.homePlayer) storage.set(TOKEN_KEY, msg.token);
      }
      this.serverName = msg.server;
      this.welcomed = true;
      this.attempt = 0;
      this.restarting = false;
      this.emit({ type: "connection", status: "connected" });
      const copy = this.room;
      if (copy !== null) setTimeout(() => this.syncIfStale(copy), 1500);
    } else if (kind === "error") {
      if (Number.isInteger(msg.re)) msg = { ...msg, request: this.requests.get(msg.re) };
      if (this.linking && !this.welcomed) { // the code was refused: hello as before
        this.linking = false;
        this.link = null;
        msg = { ...msg, request: "link" };
        const hello = { type: "hello", protocol: PROTOCOL, name: this.name, deltas: true, device: thisDevice() };
        if (this.token) hello.token = this.token;
        if (this.ws !== null) this.ws.send(encode(hello));
      }
      if ((msg.code === "not-in-room" || msg.code === "room-lost") && this.room !== null) {
        this.room = null; // our room is gone (room-lost: it could not be restored)
      }
      if (msg.code === "version-mismatch") this.paused = "fatal";
      if (msg.code === "banned") this.paused = "banned";
    } else if (typeof msg.room === "string" && Number.isInteger(msg.seq)) {
      this.applyRoomEvent(msg);
    }
    this.emit(msg);
  }

  isMe(msg) {
    const who = msg.player;
    return who === undefined || who === null || who === this.player;
  }

  applyRoomEvent(msg) {
    const { type: kind, room: roomId, seq } = msg;
    if (kind === "state") {
      this.applyState(msg);
      return;
    }
    if (kind === "joined" && this.isMe(msg)) {
      if (this.room === null || this.room.room !== roomId) {
        this.room = new RoomCopy(roomId, seq);
        this.room.syncing = true;
      }
      return;
    }
    if (kind === "left" && this.isMe(msg)) {
      if (this.room !== null && this.room.room === roomId) this.room = null;
      return;
    }
    if (kind === "room-closed") return; // the `left` that follows takes us out: no sync
    const copy = this.room;
    if (copy === null || copy.room !== roomId) return;
    noteWatcher(copy.watchers, msg, copy.state);
    if (seq <= copy.seq && !copy.syncing) return; // already in the snapshot we hold
    const gap = seq > copy.seq + 1;
    copy.seq = Math.max(copy.seq, seq);
    if (gap && !copy.syncing) {
      this.requestSync(copy);
      return;
    }
    if (!copy.state.game) return; // nothing to fold into until the snapshot arrives
    this.fold(copy, msg);
  }

  applyState(msg) {
    let copy = this.room;
    if (copy === null || copy.room !== msg.room) copy = this.room = new RoomCopy(msg.room, msg.seq);
    const freshGame = copy.state.round !== msg.round
      || (msg.status !== "over" && copy.state.status === "over");
    if (freshGame) {
      copy.again = [];
      copy.declined = [];
      copy.lastActions = {};
    }
    copy.state = { ...msg, chat: Array.isArray(msg.chat) ? [...msg.chat] : [] };
    copy.seq = msg.seq;
    copy.syncing = false;
    if (Array.isArray(msg.pending_again)) copy.again = msg.pending_again.map(String);
    noteWatchers(copy.watchers, msg);
  }

  syncIfStale(copy) {
    if (this.room === copy && copy.syncing && this.connected) this.requestSync(copy);
  }

  requestSync(copy) {
    copy.syncing = true;
    this.send("sync");
  }

  /** Apply one room event to the copied state: only fields the event carries. */
  fold(copy, msg) {
    const state = copy.state;
    switch (msg.type) {
      case "moved":
        if (msg.delta && typeof msg.delta === "object") {
          const view = applyDelta(state.view, msg.view || {}, msg.delta);
          if (view === null) { // not made from the view we hold: take a fresh state
            if (!copy.syncing) this.requestSync(copy);
            break;
          }
          state.view = view;
        } else if (msg.view && typeof msg.view === "object") state.view = msg.view;
        if ("turn" in msg) state.turn = msg.turn;
        else delete state.turn; // absent: nobody in particular is to move
        if (typeof msg.by === "string") copy.lastActions[msg.by] = { ...(msg.move || {}) };
        break;
      case "game-over":
        state.status = "over";
        state.result = msg.result || {};
        delete state.turn;
        copy.again = [];
        copy.declined = [];
        break;
      case "chat": {
        const chat = state.chat || (state.chat = []);
        chat.push({ from: msg.from, name: msg.name, text: msg.text, ts: msg.ts });
        if (chat.length > CHAT_KEEP) chat.splice(0, chat.length - CHAT_KEEP);
        break;
      }
      case "player-info": {
        const p = (state.players || []).find((q) => q.player === msg.player);
        if (p) {
          for (const key of ["name", "color", "connected"]) if (key in msg) p[key] = msg[key];
        } else if (typeof msg.previous === "string" && typeof msg.name === "string") {
          // a spectator, known by name: rename it in place
          state.spectators = (state.spectators || []).map((n) => (n === msg.previous ? msg.name : n));
        } else {
          this.requestSync(copy); // an older server: no way to tell whose name changed
        }
        break;
      }
      case "joined":
      case "left":
        // Someone else came or went: the event carries the roster entry; an older
        // server's does not, and then a fresh roster is asked for.
        if (!foldRoster(state, msg)) this.requestSync(copy);
        else if (msg.type === "left" && copy.again.includes(msg.player)) { // the request is off
          copy.again = [];
          delete state.pending_again;
        }
        break;
      case "resigned":
      case "notice":
        // A racer resigned, cleared or ran out of time: standings in our view changed
        // but the event carries no view, so take a fresh snapshot.
        if (state.status === "playing") this.requestSync(copy);
        break;
      case "play-again":
      case "agree-again":
        if (typeof msg.from === "string" && !copy.again.includes(msg.from)) copy.again.push(msg.from);
        break;
      case "decline-again":
        if (typeof msg.from === "string") copy.declined.push(msg.from);
        break;
      case "offer":
        state.view = { ...(state.view || {}), pending: { kind: msg.kind, from: msg.from } };
        break;
      case "answer":
        if (state.view) delete state.view.pending;
        break;
      case "host":
        if (foldHost(state, msg)) this.requestSync(copy);
        break;
      default:
        break;
    }
  }
}

/** Fold another member's `joined` or `left` into the state's roster; false when the
 * event lacks what that needs (an older server), so the caller asks for a `sync`. */
export function foldRoster(state, msg) {
  const players = (state.players || []).filter((q) => q.player !== msg.player);
  const spectators = [...(state.spectators || [])];
  if (msg.type === "left") {
    if (players.length === (state.players || []).length) { // not seated: a spectator
      if (typeof msg.name !== "string") return false;
      const at = spectators.indexOf(msg.name);
      if (at >= 0) spectators.splice(at, 1);
    }
  } else {
    if (typeof msg.name !== "string") return false;
    if (msg.role === "spectator") {
      spectators.push(msg.name);
    } else {
      if (!Number.isInteger(msg.seat) || typeof msg.connected !== "boolean") return false;
      const entry = { player: msg.player, name: msg.name, seat: msg.seat, connected: msg.connected };
      if (typeof msg.color === "string") entry.color = msg.color;
      if (typeof msg.bot === "string") entry.bot = msg.bot;
      players.push(entry);
      players.sort((a, b) => (a.seat || 0) - (b.seat || 0));
    }
  }
  state.players = players;
  state.spectators = spectators;
  return true;
}
