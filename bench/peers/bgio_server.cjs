'use strict';
/**
 * A boardgame.io 0.50 server (its in-memory store, socket.io transport, lobby API) with
 * one game, "gomoku". Run by bench/peers/run.py; prints "PORT <n>".
 *
 * Each move runs through boardgame.io's master: credentials checked, the move's reducer
 * (immer) over G, the whole new state sent to both players ("update"), and the state
 * and its log kept in memory. A finished game (five, or a full board) is counted and
 * its board cleared at once, the other player opening the next: boardgame.io ends a
 * match for good at game over, and the workload plays on in the same room.
 */
const { INVALID_MOVE } = require('boardgame.io/core');
const { Origins, Server } = require('boardgame.io/server');
const rules = require('./gomoku_rules.cjs');

const Gomoku = {
  name: 'gomoku',
  setup: () => ({
    cells: new Array(rules.CELLS).fill(0),
    placed: 0,
    moves: 0,
    games: 0,
    lastWinner: 0,
  }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    play: {
      // The server alone judges a move (no optimistic update on the client).
      client: false,
      move: ({ G, playerID }, x, y) => {
        if (rules.refusal(G.cells, x, y) !== null) return INVALID_MOVE;
        const stone = Number(playerID) + 1;
        G.cells[y * rules.SIZE + x] = stone;
        G.placed += 1;
        G.moves += 1;
        const won = rules.winsAt(G.cells, x, y);
        if (won || G.placed === rules.CELLS) {
          G.games += 1;
          G.lastWinner = won ? stone : 0;
          G.cells = new Array(rules.CELLS).fill(0);
          G.placed = 0;
        }
        return undefined;
      },
    },
  },
};

async function main() {
  const server = Server({ games: [Gomoku], origins: [Origins.LOCALHOST] });
  const { appServer } = await server.run({ port: 0 });
  console.log(`PORT ${appServer.address().port}`);
}

process.on('SIGTERM', () => process.exit(0));
main().catch((err) => {
  console.error(err);
  process.exit(1);
});
