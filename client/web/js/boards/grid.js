// What every board shares: a CSS grid of cells (each with data-x / data-y, the hit
// boxes automated browsers and gestures use), an SVG layer under the cells and one
// over them drawn in cell units, a message strip, and sizing to the space it has.
//
// Contract for automation (docs/web-client.md): the board element has `data-board`
// (the game's name) and every cell has `data-x` and `data-y`.

import { attachGestures } from "../gesture.js";
import { el, svg } from "../dom.js";

const MAX_CELL = 48;

export class GridBoard {
  /** `margin` is the frame around the cells, in cells (labels, the link ring). */
  constructor(game, margin, handlers) {
    this.game = game;
    this.margin = margin;
    this.cols = 0;
    this.rows = 0;
    this.cells = [];
    this.keys = [];
    this.el = el("div", { class: `board board-${game}`, "data-board": game });
    this.under = svg("svg", { class: "layer under", "aria-hidden": "true" });
    this.grid = el("div", { class: "grid" });
    this.over = svg("svg", { class: "layer over", "aria-hidden": "true" });
    this.message = el("div", { class: "board-message", hidden: true });
    this.el.append(this.under, this.grid, this.over, this.message);
    this.el.style.setProperty("--margin", String(margin));
    attachGestures(this.el, handlers);
  }

  /** Make the grid `cols` x `rows`; true when it was rebuilt. */
  resize(cols, rows) {
    if (cols === this.cols && rows === this.rows) return false;
    this.cols = cols;
    this.rows = rows;
    this.keys = new Array(cols * rows).fill(null);
    this.cells = [];
    const frag = document.createDocumentFragment();
    for (let y = 0; y < rows; y += 1) {
      for (let x = 0; x < cols; x += 1) {
        const cell = el("div", { class: "cell", "data-x": x, "data-y": y });
        this.cells.push(cell);
        frag.append(cell);
      }
    }
    this.grid.replaceChildren(frag);
    this.el.style.setProperty("--cols", String(cols));
    this.el.style.setProperty("--rows", String(rows));
    const m = this.margin;
    const box = `${-m} ${-m} ${cols + 2 * m} ${rows + 2 * m}`;
    this.under.setAttribute("viewBox", box);
    this.over.setAttribute("viewBox", box);
    return true;
  }

  /** Repaint one cell only when what it shows (its `key`) changed. */
  paint(x, y, key, apply) {
    const i = y * this.cols + x;
    if (this.keys[i] === key) return;
    this.keys[i] = key;
    apply(this.cells[i]);
  }

  cell(x, y) {
    return this.cells[y * this.cols + x];
  }

  /** The largest cells that fit `width` x `height` pixels (at least `minCell`: on a
   * small phone a big board scrolls rather than shrinking past what a finger hits). */
  fit(width, height, minCell) {
    if (!this.cols || !this.rows) return;
    const span = (n) => n + 2 * this.margin;
    const fitted = Math.floor(Math.min(width / span(this.cols), height / span(this.rows)));
    const cell = Math.max(minCell, Math.min(MAX_CELL, fitted));
    this.el.style.setProperty("--cell", `${cell}px`);
  }

  say(text) {
    this.message.textContent = text || "";
    this.message.hidden = !text;
  }
}

/** Centre of cell (x, y) in the SVG layers' units. */
export const centre = (x, y) => [x + 0.5, y + 0.5];
