'use strict';
/**
 * Gomoku's rules for the peers' rooms, the same per move as gridhall's (freestyle):
 * a 15x15 board, a move must be on the board and on an empty cell, five or more in a
 * row through the last stone wins. Both peers' rooms call these with their own board
 * (Colyseus: the schema's ArraySchema; boardgame.io: the immer draft of G.cells), so the
 * reads go through each framework's own state, as an ordinary room of theirs would.
 */

const SIZE = 15;
const CELLS = SIZE * SIZE;
const DIRECTIONS = [
  [1, 0],
  [0, 1],
  [1, 1],
  [1, -1],
];

/** Why (x, y) cannot take a stone on `board`, or null when it can. */
function refusal(board, x, y) {
  if (!Number.isInteger(x) || !Number.isInteger(y)) return 'bad-move';
  if (x < 0 || y < 0 || x >= SIZE || y >= SIZE) return 'off-board';
  if (board[y * SIZE + x] !== 0) return 'occupied';
  return null;
}

/** Does the stone just put at (x, y) make five or more in a row? */
function winsAt(board, x, y) {
  const stone = board[y * SIZE + x];
  for (const [dx, dy] of DIRECTIONS) {
    let n = 1;
    for (const s of [1, -1]) {
      let cx = x + s * dx;
      let cy = y + s * dy;
      while (cx >= 0 && cy >= 0 && cx < SIZE && cy < SIZE && board[cy * SIZE + cx] === stone) {
        n += 1;
        cx += s * dx;
        cy += s * dy;
      }
    }
    if (n >= 5) return true;
  }
  return false;
}

module.exports = { SIZE, CELLS, refusal, winsAt };
