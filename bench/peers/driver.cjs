'use strict';
/**
 * The one driver of bench/peers/run.py: plays the same Gomoku workload against gridhall,
 * Colyseus and boardgame.io, each through its own wire protocol (gridhall: MessagePack
 * over `ws`; Colyseus: its SDK over `ws`; boardgame.io: socket.io-client over `ws`, with
 * the frames its own client sends). Only the adapters below differ; the seating order,
 * the move pattern and the pacing are this file's and shared by all three.
 *
 * run.py writes one JSON line on stdin: {kind, port, mode, rooms, first, seconds, rate,
 * cells}. The driver seats every room (two players each, from their own loopback
 * address), prints {"ready": ...}, waits for "go" on stdin, runs the phase, prints its
 * result as one JSON line and closes its sockets when its input ends. mode
 * "fast": every room moves as soon as both its players have the last move; "paced":
 * `rate` moves a second per room, rooms out of step; "idle": the players stay seated
 * until the input ends. With `warm` (idle), it says {"warm": n} after its first n rooms
 * and seats the rest on the next line.
 */
const readline = require('node:readline');
const { performance } = require('node:perf_hooks');
const WebSocket = require('ws');

const PLIES = 225;

/** Connection `n`'s own loopback address (as bench/load.py's `address`). */
function address(n) {
  return `127.${1 + Math.floor(n / 62500)}.${Math.floor(n / 250) % 250}.${(n % 250) + 2}`;
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A promise with its resolve and reject at hand. */
function deferred() {
  let resolve;
  let reject;
  const promise = new Promise((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Waits for a player's count of moves seen to reach a number. */
class Seen {
  constructor() {
    this.moves = 0;
    this.want = Infinity;
    this.waiter = null;
  }

  until(moves) {
    if (this.moves >= moves) return Promise.resolve();
    this.want = moves;
    this.waiter = deferred();
    return this.waiter.promise;
  }

  saw(moves) {
    this.moves = moves;
    if (this.waiter !== null && moves >= this.want) {
      const { resolve } = this.waiter;
      this.waiter = null;
      resolve();
    }
  }

  fail(error) {
    if (this.waiter !== null) this.waiter.reject(error);
    this.waiter = null;
  }
}

// --------------------------------------------------------------------- gridhall

/**
 * A gridhall player: a websocket speaking MessagePack. Frames wait in arrival order;
 * `next(type)` drops the ones before the first of that type, as bench/load.py's
 * `recv_type` does.
 */
class GridhallPlayer {
  constructor(codec, ws) {
    this.codec = codec;
    this.ws = ws;
    this.queue = [];
    this.waiter = null;
    ws.on('message', (data) => this.receive(codec.unpack(data)));
    ws.on('close', () => {
      if (this.waiter !== null) this.waiter.reject(new Error('gridhall closed the socket'));
      this.waiter = null;
    });
  }

  static async open(codec, port, n) {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/`, {
      perMessageDeflate: false,
      localAddress: address(n),
    });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    return new GridhallPlayer(codec, ws);
  }

  receive(msg) {
    if (msg.type === 'error') {
      const error = new Error(`gridhall refused: ${msg.code}: ${msg.message}`);
      if (this.waiter === null) throw error;
      this.waiter.reject(error);
      this.waiter = null;
    } else if (this.waiter === null) {
      this.queue.push(msg);
    } else if (msg.type === this.waiter.type) {
      const { resolve } = this.waiter;
      this.waiter = null;
      resolve(msg);
    }
  }

  /** The next frame of this type, the frames before it dropped. */
  next(type) {
    while (this.queue.length) {
      const msg = this.queue.shift();
      if (msg.type === type) return Promise.resolve(msg);
    }
    this.waiter = { type, ...deferred() };
    return this.waiter.promise;
  }

  send(msg) {
    this.ws.send(this.codec.pack(msg));
  }
}

const gridhall = {
  init() {
    const { Packr, Unpackr } = require('msgpackr');
    const packer = new Packr({ useRecords: false });
    const unpacker = new Unpackr({ useRecords: false, mapsAsObjects: true });
    this.codec = { pack: (m) => packer.pack(m), unpack: (d) => unpacker.unpack(d) };
  },

  async seat(port, n) {
    const players = [];
    for (const [i, name] of [
      [2 * n, `a${n}`],
      [2 * n + 1, `b${n}`],
    ]) {
      const p = await GridhallPlayer.open(this.codec, port, i);
      p.send({ type: 'hello', protocol: 1, name, deltas: true });
      await p.next('welcome');
      players.push(p);
    }
    const [a, b] = players;
    a.send({ type: 'create-room', game: 'gomoku' });
    const code = (await a.next('joined')).room;
    b.send({ type: 'join-room', room: code });
    await Promise.all([a.next('state'), b.next('state')]);
    return { players, moves: 0 };
  },

  move(room, mover, x, y) {
    const done = Promise.all(room.players.map((p) => p.next('moved')));
    room.players[mover].send({ type: 'move', move: { x, y } });
    return done;
  },

  /** The board is full (a draw): play again, as a player would; the last mover asks. */
  async afterGame(room) {
    const [a, b] = room.players;
    await Promise.all([a.next('game-over'), b.next('game-over')]);
    const asker = room.players[(room.moves - 1) % 2];
    const other = asker === a ? b : a;
    asker.send({ type: 'play-again' });
    await other.next('play-again');
    other.send({ type: 'agree-again' });
    await Promise.all([a.next('state'), b.next('state')]);
  },

  close(room) {
    return room.players.map((p) => {
      p.ws.close(1000);
      return new Promise((resolve) => p.ws.once('close', resolve));
    });
  },
};

// --------------------------------------------------------------------- Colyseus

let nextAddress = '127.0.0.1';

const colyseus = {
  init() {
    // The SDK takes globalThis.WebSocket when there is one (Node 22 has undici's): give
    // it `ws`, as gridhall's players use, bound to the seat's own loopback address.
    globalThis.WebSocket = class extends WebSocket {
      constructor(url, options) {
        const opts = Array.isArray(options) || typeof options === 'string' ? {} : options;
        super(url, { ...opts, perMessageDeflate: false, localAddress: nextAddress });
      }
    };
    const { Client } = require('@colyseus/sdk');
    this.Client = Client;
  },

  join(client, room, n) {
    nextAddress = address(n);
    return room === null ? client.create('gomoku') : client.joinById(room.roomId);
  },

  watch(conn) {
    const seen = new Seen();
    conn.onStateChange((state) => seen.saw(state.moves));
    conn.onMessage('refused', (why) => seen.fail(new Error(`colyseus refused: ${why.reason}`)));
    conn.onLeave(() => seen.fail(new Error('colyseus left')));
    return seen;
  },

  async seat(port, n) {
    const client = new this.Client(`ws://127.0.0.1:${port}`);
    const a = await this.join(client, null, 2 * n);
    const b = await this.join(client, a, 2 * n + 1);
    return { conns: [a, b], seen: [this.watch(a), this.watch(b)], moves: 0 };
  },

  move(room, mover, x, y) {
    const want = room.moves + 1;
    const done = Promise.all(room.seen.map((s) => s.until(want)));
    room.conns[mover].send('move', { x, y });
    return done;
  },

  async afterGame() {},

  close(room) {
    return room.conns.map((conn) => conn.leave(true));
  },
};

// --------------------------------------------------------------------- boardgame.io

const bgio = {
  init() {
    this.io = require('socket.io-client').io;
  },

  async post(port, path, body) {
    const res = await fetch(`http://127.0.0.1:${port}/games/gomoku${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`boardgame.io lobby ${path}: ${res.status}`);
    return res.json();
  },

  /** A seated player: joined through the lobby (credentials), then synced by socket.io. */
  async player(port, matchID, playerID, n) {
    const { playerCredentials } = await this.post(port, `/${matchID}/join`, {
      playerID,
      playerName: `p${n}`,
    });
    const socket = this.io(`http://127.0.0.1:${port}/gomoku`, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      perMessageDeflate: false,
      localAddress: address(n),
    });
    const p = { socket, playerID, credentials: playerCredentials, stateID: 0, seen: new Seen() };
    const synced = deferred();
    socket.on('sync', (_match, info) => {
      p.stateID = info.state._stateID;
      synced.resolve();
    });
    socket.on('update', (_match, state) => {
      p.stateID = state._stateID;
      p.seen.saw(state.G.moves);
    });
    socket.on('connect_error', (err) => synced.reject(err));
    socket.on('disconnect', () => p.seen.fail(new Error('boardgame.io disconnected')));
    socket.on('connect', () => socket.emit('sync', matchID, playerID, playerCredentials, 2));
    await synced.promise;
    return p;
  },

  async seat(port, n) {
    const { matchID } = await this.post(port, '/create', { numPlayers: 2 });
    const a = await this.player(port, matchID, '0', 2 * n);
    const b = await this.player(port, matchID, '1', 2 * n + 1);
    return { matchID, players: [a, b], moves: 0 };
  },

  move(room, mover, x, y) {
    const want = room.moves + 1;
    const done = Promise.all(room.players.map((p) => p.seen.until(want)));
    const p = room.players[mover];
    const action = {
      type: 'MAKE_MOVE',
      payload: { type: 'play', args: [x, y], playerID: p.playerID, credentials: p.credentials },
    };
    p.socket.emit('update', action, p.stateID, room.matchID, p.playerID);
    return done;
  },

  async afterGame() {},

  close(room) {
    return room.players.map((p) => p.socket.close());
  },
};

const ADAPTERS = { gridhall, colyseus, bgio };

// --------------------------------------------------------------------- the workload

/** Play the room's next move; the time until both players have it (ms). */
async function oneMove(adapter, room, cells) {
  const [x, y] = cells[room.moves % PLIES];
  const start = performance.now();
  await adapter.move(room, room.moves % 2, x, y);
  const rtt = performance.now() - start;
  room.moves += 1;
  if (room.moves % PLIES === 0) await adapter.afterGame(room);
  return rtt;
}

async function fast(adapter, room, cells, end) {
  while (performance.now() < end) await oneMove(adapter, room, cells);
}

async function paced(adapter, room, cells, end, rate) {
  const period = 1000 / rate;
  await sleep(Math.random() * period); // out of step with the other rooms
  let tick = performance.now();
  while (performance.now() < end) {
    room.rtts.push(await oneMove(adapter, room, cells));
    tick += period;
    await sleep(Math.max(0, tick - performance.now()));
  }
}

function cpuSeconds() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

async function main() {
  const lines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  const config = JSON.parse((await lines.next()).value);
  const adapter = ADAPTERS[config.kind];
  adapter.init();
  const rooms = [];
  for (let n = config.first; n < config.first + config.rooms; n++) {
    if (config.warm && rooms.length === config.warm) {
      console.log(JSON.stringify({ warm: rooms.length })); // the first rooms are seated
      await lines.next();
    }
    const room = await adapter.seat(config.port, n);
    room.rtts = [];
    rooms.push(room);
  }
  console.log(JSON.stringify({ ready: rooms.length }));
  const told = (await lines.next()).value;
  if (config.mode === 'idle' || told !== 'go') process.exit(0); // idle: held until now
  const cpu0 = cpuSeconds();
  const end = performance.now() + config.seconds * 1000;
  await Promise.all(
    rooms.map((room) =>
      config.mode === 'fast'
        ? fast(adapter, room, config.cells, end)
        : paced(adapter, room, config.cells, end, config.rate),
    ),
  );
  const result = {
    moves: rooms.reduce((sum, room) => sum + room.moves, 0),
    rtts: rooms.flatMap((room) => room.rtts),
    cpu: cpuSeconds() - cpu0,
  };
  console.log(JSON.stringify(result));
  await lines.next(); // end of input: the server's CPU is read before the players leave
  const closed = rooms.flatMap((room) => adapter.close(room));
  await Promise.race([Promise.allSettled(closed), sleep(5000)]);
  process.exit(0);
}

main().catch((err) => {
  console.error(`driver: ${err && err.stack ? err.stack : err}`);
  process.exit(1);
});
