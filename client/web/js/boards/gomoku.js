// Gomoku: wood, grid lines, star points and coordinates under the cells; stones in
// the cells (the last one marked); the winning five ringed and struck through. In a
// replay every stone is numbered in the order played, and a move the analysis marked
// is ringed, with the engine's best move.

import { clear, svg } from "../dom.js";
import { t } from "../i18n.js";
import { GridBoard, centre } from "./grid.js";

const COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

function point(v) {
  return Array.isArray(v) && Number.isInteger(v[0]) && Number.isInteger(v[1]) ? v : null;
}

function starPoints(n) {
  if (n < 9) return [];
  const c = [3, Math.floor(n / 2), n - 4];
  return c.flatMap((x) => c.map((y) => [x, y]));
}

export class GomokuBoard extends GridBoard {
  constructor(intent) {
    super("gomoku", 0.9, { primary: (cell) => this.click(cell) }, t("Gomoku board"));
    this.intent = intent;
    this.ctx = null;
  }

  /** ctx: {state, me, seated} */
  render(ctx) {
    this.ctx = ctx;
    const { state, me } = ctx;
    const view = state.view || {};
    const n = Number(view.size || (state.options || {}).size || 15);
    if (this.resize(n, n)) this.drawLines(n);
    const stones = new Map();
    (view.moves || []).forEach(([x, y], i) => stones.set(`${x},${y}`, i % 2 === 0 ? "black" : "white"));
    const last = Array.isArray(view.last) ? `${view.last[0]},${view.last[1]}` : null;
    const line = view.line || (state.result || {}).line || [];
    const win = new Set(line.map(([x, y]) => `${x},${y}`));
    for (let y = 0; y < n; y += 1) {
      for (let x = 0; x < n; x += 1) {
        const k = `${x},${y}`;
        const stone = stones.get(k) || "";
        const key = `${stone}|${k === last}|${win.has(k)}`;
        this.paint(x, y, key, (cell) => {
          cell.className = "cell";
          if (stone) {
            cell.classList.add("stone", stone);
            cell.dataset.stone = stone;
          } else delete cell.dataset.stone;
          if (k === last) cell.classList.add("last");
          if (win.has(k)) cell.classList.add("win");
        }, [stone === "black" ? t("black stone") : stone === "white" ? t("white stone") : t("empty"),
          k === last ? t("last move") : "", win.has(k) ? t("winning line") : ""].filter(Boolean).join(", "));
      }
    }
    this.drawWin(line);
    const myColor = (view.colors || {})[me];
    const myTurn = state.status === "playing" && state.turn === me;
    this.el.classList.toggle("my-turn", myTurn);
    this.el.classList.toggle("preview-black", myTurn && myColor === "black");
    this.el.classList.toggle("preview-white", myTurn && myColor === "white");
  }

  drawLines(n) {
    clear(this.under);
    const m = this.margin;
    this.under.append(svg("rect", { class: "wood", x: -m, y: -m, width: n + 2 * m, height: n + 2 * m, rx: 0.15 }));
    for (let i = 0; i < n; i += 1) {
      const edge = i === 0 || i === n - 1 ? " edge" : "";
      this.under.append(
        svg("line", { class: `grid-line${edge}`, x1: i + 0.5, y1: 0.5, x2: i + 0.5, y2: n - 0.5 }),
        svg("line", { class: `grid-line${edge}`, x1: 0.5, y1: i + 0.5, x2: n - 0.5, y2: i + 0.5 }),
      );
    }
    for (const [x, y] of starPoints(n)) {
      const [cx, cy] = centre(x, y);
      this.under.append(svg("circle", { class: "star", cx, cy, r: 0.1 }));
    }
    for (let i = 0; i < n; i += 1) {
      const [c] = centre(i, 0);
      const col = COLUMNS[i] || String(i);
      this.under.append(
        svg("text", { class: "label", x: c, y: -0.35 }, col),
        svg("text", { class: "label", x: c, y: n + 0.55 }, col),
        svg("text", { class: "label", x: -0.45, y: c + 0.12 }, String(i + 1)),
        svg("text", { class: "label", x: n + 0.45, y: c + 0.12 }, String(i + 1)),
      );
    }
  }

  drawWin(line) {
    clear(this.over);
    if (!Array.isArray(line) || line.length < 2) return;
    const pts = [...line].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const [x1, y1] = centre(...pts[0]);
    const [x2, y2] = centre(...pts[pts.length - 1]);
    this.over.append(svg("line", { class: "win-line", "data-win-line": "", x1, y1, x2, y2 }));
  }

  /** A replay: every stone numbered in the order played; an analysed move's mark. */
  decorate({ view, k, note }) {
    const moves = Array.isArray(view.moves) ? view.moves : [];
    moves.forEach((m, i) => {
      const p = point(m);
      if (!p) return;
      const [cx, cy] = centre(p[0], p[1]);
      this.over.append(svg("text", { class: `move-number ${i % 2 ? "on-white" : "on-black"}`, x: cx, y: cy + 0.13, "data-n": i + 1 }, String(i + 1)));
    });
    const last = point(moves[k - 1]);
    if (note && note.mark && last) {
      const [mx, my] = centre(last[0], last[1]);
      this.over.append(svg("circle", { class: "mistake", "data-mark": note.mark, cx: mx, cy: my, r: 0.46 }));
    }
    const best = note && note.mark ? point(note.best) : null;
    if (best) {
      const [bx, by] = centre(best[0], best[1]);
      this.over.append(svg("circle", { class: "best-move", "data-best": `${best[0]},${best[1]}`, cx: bx, cy: by, r: 0.4 }));
    }
    return null;
  }

  click({ x, y, node }) {
    const ctx = this.ctx;
    if (!ctx || !ctx.seated) return this.intent(null, () => t("You are watching; spectators cannot play."));
    const { state, me } = ctx;
    if (state.status !== "playing") return this.intent(null, () => t("The game is not running right now."));
    if (state.turn !== me) return this.intent(null, () => t("It is not your turn yet."));
    if (node.dataset.stone) return undefined; // a stone is there already
    return this.intent(["move", { move: { x, y } }]);
  }
}

export { GomokuBoard as Board };
