'use strict';
/**
 * A Colyseus 0.18 server with one room type, "gomoku": a schema state (the board as an
 * ArraySchema of 225 uint8, whose turn, move and game counters) that Colyseus sends to
 * both players as binary patches. Run by bench/peers/run.py; prints "PORT <n>".
 *
 *   node colyseus_server.cjs tick      # Colyseus's default: patches at its 50 ms tick
 *   node colyseus_server.cjs at-once   # broadcastPatch() after each move, tick kept
 *   node colyseus_server.cjs no-tick   # broadcastPatch() after each move, patchRate null
 *
 * It persists nothing, and a finished game (five, or a full board) is counted and its
 * board cleared at once, the other player opening the next (no play-again handshake).
 */
const { Room, Server } = require('@colyseus/core');
const { WebSocketTransport } = require('@colyseus/ws-transport');
const { ArraySchema, schema, t } = require('@colyseus/schema');
const rules = require('./gomoku_rules.cjs');

const MODE = process.argv[2] || 'at-once';
if (!['tick', 'at-once', 'no-tick'].includes(MODE)) {
  console.error(`unknown patch mode ${MODE}`);
  process.exit(2);
}

const GomokuState = schema(
  {
    board: t.array('uint8'),
    turn: t.uint8(), // the seat (1 or 2) whose move it is
    placed: t.uint16(), // stones on this game's board
    moves: t.uint32(), // moves played in this room, all games
    games: t.uint32(),
    lastWinner: t.uint8(), // 0: the last game was a draw
  },
  'GomokuState',
);

class GomokuRoom extends Room {
  maxClients = 2;
  patchRate = MODE === 'no-tick' ? null : 50;

  onCreate() {
    const state = new GomokuState();
    state.board = new ArraySchema(...new Array(rules.CELLS).fill(0));
    state.turn = 1;
    state.placed = 0; // a schema's numbers start undefined
    state.moves = 0;
    state.games = 0;
    state.lastWinner = 0;
    this.state = state;
    this.seats = new Map();
    this.onMessage('move', (client, message) => this.move(client, message));
  }

  onJoin(client) {
    const taken = new Set(this.seats.values());
    this.seats.set(client.sessionId, taken.has(1) ? 2 : 1);
  }

  onLeave(client) {
    this.seats.delete(client.sessionId);
  }

  move(client, message) {
    const state = this.state;
    const seat = this.seats.get(client.sessionId);
    if (seat !== state.turn) {
      client.send('refused', { reason: 'not-your-turn' });
      return;
    }
    const x = message && message.x;
    const y = message && message.y;
    const why = rules.refusal(state.board, x, y);
    if (why !== null) {
      client.send('refused', { reason: why });
      return;
    }
    state.board[y * rules.SIZE + x] = seat;
    state.placed += 1;
    state.moves += 1;
    state.turn = 3 - seat;
    const won = rules.winsAt(state.board, x, y);
    if (won || state.placed === rules.CELLS) {
      state.games += 1;
      state.lastWinner = won ? seat : 0;
      for (let i = 0; i < rules.CELLS; i++) state.board[i] = 0;
      state.placed = 0;
    }
    if (MODE !== 'tick') this.broadcastPatch();
  }
}

async function main() {
  const transport = new WebSocketTransport() // its defaults: no compression, pings every 3 s;
  const server = new Server({ transport, greet: false, gracefullyShutdown: false });
  server.define('gomoku', GomokuRoom);
  await server.listen(0, '127.0.0.1');
  console.log(`PORT ${transport.server.address().port}`);
}

process.on('SIGTERM', () => process.exit(0));
main().catch((err) => {
  console.error(err);
  process.exit(1);
});
