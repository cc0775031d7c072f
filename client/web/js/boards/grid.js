// What every board shares: a CSS grid of cells (each with data-x / data-y, the hit
// boxes automated browsers and gestures use), an SVG layer under the cells and one
// over them drawn in cell units, a message strip, sizing to the space it has, and a
// keyboard cursor.
//
// Contract for automation (docs/web-client.md): the board element has `data-board`
// (the game's name) and every cell has `data-x` and `data-y`.
//
// A wide board on a portrait screen may lie on its side (`transposable` boards: the
// columns run down the screen), so its cells grow as wide as the screen allows instead
// of shrinking to fit sixteen across: the cells keep their `data-x` / `data-y`, the
// grid only places them column by column, the SVG layers are mirrored across the
// diagonal and the arrow keys follow what the player sees.
//
// A replay (replay.js) draws the game's live board with what the game's replay adds:
// a board class says whose boards a replay shows (`replayBoards`), what each draws of a
// frame (`replayView`) under which caption (`replayCaption`), what it follows across
// the steps (`replayTracker`, run by replay-model.js) and draws it (`decorate`). The
// defaults: one board, the frame as it is, nothing added.
//
// Accessibility: the cells sit in ARIA rows (`display: contents`, so the CSS grid
// still lays them out) of a `grid`; each cell has an `aria-label` ("H8, black stone").
// One cell at a time is in the tab order (a roving tabindex): arrow keys, Home / End
// and Page Up / Down move it, and the board's `keys` map turns the other keys into the
// same gestures a pointer makes.

import { attachGestures } from "../gesture.js";
import { el, svg } from "../dom.js";
import { cellName } from "../text.js";

const MAX_CELL = 48;
const MIN_ZOOM = 0.2;
const MAX_ZOOMED_CELL = 96;
const MAX_ZOOM = 40; // a 200x200 board fitted to a phone has 1.6 px cells

export class GridBoard {
  /** `margin` is the frame around the cells, in cells (labels, the link ring). */
  constructor(game, margin, handlers, label) {
    this.game = game;
    this.margin = margin;
    this.edge = 0; // a border drawn around the board, in cells (Minesweeper's bevel)
    this.handlers = handlers;
    this.cols = 0;
    this.rows = 0;
    this.cells = [];
    this.keys = [];
    this.cursor = null; // [x, y] of the cell in the tab order
    this.zoom = 1;
    this.autoZoom = true; // the player has not zoomed this board yet
    this.fitted = 0; // the cell size that shows the whole board in the frame
    this.transposable = false; // may lie on its side on a portrait screen (see above)
    this.touchCell = 0; // the smallest cell a finger should hit, if more than the room's
    this.transposed = false;
    this.el = el("div", { class: `board board-${game}`, "data-board": game });
    this.under = svg("svg", { class: "layer under", "aria-hidden": "true" });
    this.grid = el("div", { class: "grid", role: "grid", "aria-label": label || game });
    this.over = svg("svg", { class: "layer over", "aria-hidden": "true" });
    this.message = el("div", { class: "board-message", hidden: true });
    this.el.append(this.under, this.grid, this.over, this.message);
    this.el.style.setProperty("--margin", String(margin));
    attachGestures(this.el, handlers);
    this.grid.addEventListener("keydown", (event) => this.onKey(event));
    this.grid.addEventListener("focusin", (event) => {
      const node = event.target.closest("[data-x][data-y]");
      if (node) this.moveCursor(Number(node.dataset.x), Number(node.dataset.y), false);
    });
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
      const row = el("div", { class: "grid-row", role: "row" });
      for (let x = 0; x < cols; x += 1) {
        const cell = el("div", { class: "cell", role: "gridcell", "data-x": x, "data-y": y });
        this.cells.push(cell);
        row.append(cell);
      }
      frag.append(row);
    }
    this.grid.replaceChildren(frag);
    this.grid.setAttribute("aria-rowcount", String(rows));
    this.grid.setAttribute("aria-colcount", String(cols));
    this.el.style.setProperty("--cols", String(cols));
    this.el.style.setProperty("--rows", String(rows));
    const m = this.margin;
    const box = `${-m} ${-m} ${cols + 2 * m} ${rows + 2 * m}`;
    this.under.setAttribute("viewBox", box);
    this.over.setAttribute("viewBox", box);
    const [cx, cy] = this.cursor && this.cursor[0] < cols && this.cursor[1] < rows
      ? this.cursor : [Math.floor(cols / 2), Math.floor(rows / 2)];
    this.cursor = null;
    this.autoZoom = true;
    if (cols && rows) this.moveCursor(cx, cy, false);
    return true;
  }

  /** Repaint one cell only when what it shows (its `key`) changed; `label` is what a
   * screen reader says after the cell's name. */
  paint(x, y, key, apply, label) {
    const i = y * this.cols + x;
    if (this.keys[i] === key) return;
    this.keys[i] = key;
    const cell = this.cells[i];
    apply(cell);
    if (this.cursor && this.cursor[0] === x && this.cursor[1] === y) cell.classList.add("cursor");
    if (label !== undefined) cell.setAttribute("aria-label", `${cellName(x, y)}, ${label}`);
  }

  cell(x, y) {
    return this.cells[y * this.cols + x];
  }

  /** The largest cells that show the whole board in `width` x `height` pixels, times
   * the zoom; below `minCell` (too small for a finger) the board starts zoomed in and
   * pans inside its frame. */
  fit(width, height, minCell = 0) {
    if (!this.cols || !this.rows || width <= 0 || height <= 0) return; // not shown yet
    const span = (n) => n + 2 * this.margin + 2 * this.edge;
    const upright = Math.min(MAX_CELL, width / span(this.cols), height / span(this.rows));
    const onSide = Math.min(MAX_CELL, width / span(this.rows), height / span(this.cols));
    this.setTransposed(this.transposable && height > width && this.cols > this.rows && onSide > upright);
    this.fitted = Math.max(1, this.transposed ? onSide : upright);
    // until the player zooms, a board too small to hit starts zoomed in to `minCell`
    if (this.autoZoom) this.zoom = Math.min(MAX_ZOOM, Math.max(1, minCell / this.fitted));
    this.applyZoom();
  }

  /** Multiply the zoom by `factor` (clamped); 0 shows the whole board. */
  zoomBy(factor) {
    this.autoZoom = false;
    const most = Math.max(1, Math.min(MAX_ZOOM, MAX_ZOOMED_CELL / this.fitted));
    this.zoom = factor === 0 ? 1 : Math.min(most, Math.max(MIN_ZOOM, this.zoom * factor));
    this.applyZoom();
  }

  get zoomed() { return this.zoom > 1.001; }

  setTransposed(on) {
    if (on === this.transposed) return;
    this.transposed = on;
    this.el.classList.toggle("transposed", on);
  }

  applyZoom() {
    const cell = Math.max(1, Math.min(this.fitted * this.zoom, MAX_ZOOMED_CELL));
    this.el.style.setProperty("--cell", `${Math.floor(cell * 100) / 100}px`);
    this.el.classList.toggle("zoomed", this.zoomed);
  }

  say(text) {
    this.message.textContent = text || "";
    this.message.hidden = !text;
  }

  /** A room event, already folded into the room (`view`: the folded view): a board may
   * react (flash a path). By default it only renders the new state, as always. */
  roomEvent(msg, view, me) {}

  /** Whether something on the board moves between events (a countdown): then the room
   * renders it on every tick. */
  ticking(view) {
    return false;
  }

  // ---- replays -----------------------------------------------------------------------

  /** Whose boards a replay of `replay` (replay-model.js) shows: null for the one board
   * everybody sees (the default), else player ids, one board each. */
  static replayBoards(replay) {
    return [null];
  }

  /** What board `who` draws of a replay frame's `view`. */
  static replayView(view, who) {
    return view;
  }

  /** The caption over board `who` (named `name`) in a replay. */
  static replayCaption(view, who, name) {
    return name;
  }

  /** What a replay follows across the steps for this game (replay-model.js), or null. */
  static replayTracker() {
    return null;
  }

  /** Draw what a replay adds over the board, after `render`: `frame` is {view, step, k,
   * tracked, who, note, players}. Returns the legend's parts, if any. */
  decorate(frame) {
    return null;
  }

  // ---- keyboard ----------------------------------------------------------------------

  /** Put the cursor on (x, y): that cell joins the tab order (and takes focus). */
  moveCursor(x, y, focus = true) {
    if (!this.cols || !this.rows) return;
    const nx = Math.min(this.cols - 1, Math.max(0, x));
    const ny = Math.min(this.rows - 1, Math.max(0, y));
    if (this.cursor) {
      const old = this.cell(this.cursor[0], this.cursor[1]);
      if (old && (this.cursor[0] !== nx || this.cursor[1] !== ny)) {
        old.removeAttribute("tabindex");
        old.classList.remove("cursor");
      }
    }
    this.cursor = [nx, ny];
    const node = this.cell(nx, ny);
    node.setAttribute("tabindex", "0");
    node.classList.add("cursor");
    if (focus) {
      node.focus({ preventScroll: true });
      node.scrollIntoView({ block: "nearest", inline: "nearest" });
    }
  }

  /** Keys beyond moving: a map of key -> gesture name (overridden per game). */
  get keyMap() {
    return { Enter: "primary", " ": "primary" };
  }

  onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey || !this.cursor) return;
    const [x, y] = this.cursor;
    const page = Math.max(1, Math.floor(this.rows / 2));
    const moves = {
      ArrowLeft: [x - 1, y], ArrowRight: [x + 1, y], ArrowUp: [x, y - 1], ArrowDown: [x, y + 1],
      Home: [0, y], End: [this.cols - 1, y], PageUp: [x, y - page], PageDown: [x, y + page],
    };
    if (this.transposed) { // on its side: down the screen is along a row
      [moves.ArrowLeft, moves.ArrowUp] = [moves.ArrowUp, moves.ArrowLeft];
      [moves.ArrowRight, moves.ArrowDown] = [moves.ArrowDown, moves.ArrowRight];
    }
    const to = moves[event.key];
    if (to) {
      event.preventDefault();
      this.moveCursor(to[0], to[1]);
      return;
    }
    const gesture = this.keyMap[event.key];
    if (gesture && this.handlers[gesture]) {
      event.preventDefault();
      event.stopPropagation(); // the room's own keys (d, t, R...) do not see it
      this.handlers[gesture]({ x, y, node: this.cell(x, y) });
    }
  }
}

/** Centre of cell (x, y) in the SVG layers' units. */
export const centre = (x, y) => [x + 0.5, y + 0.5];
