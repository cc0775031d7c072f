// Reversi: green felt and grid lines under the cells, coordinates around them; discs in
// the cells (the last one marked, the ones it turned over ringed), dots on the legal
// moves of the side to move. Screen readers hear "D3, black disc", "C4, legal move".

import { clear, el, svg } from "../dom.js";
import { t } from "../i18n.js";
import { cellName, columnName } from "../text.js";
import { GridBoard, centre } from "./grid.js";

const COLOURS = { b: "black", w: "white" };

function cellSet(items) {
  return new Set((Array.isArray(items) ? items : [])
    .filter((c) => Array.isArray(c) && c.length === 2).map(([x, y]) => `${x},${y}`));
}

export class ReversiBoard extends GridBoard {
  constructor(intent) {
    super("reversi", 0.6, { primary: (cell) => this.click(cell) }, t("Reversi board"));
    this.intent = intent;
    this.ctx = null;
    this.legal = new Set();
  }

  /** ctx: {state, me, seated} */
  render(ctx) {
    this.ctx = ctx;
    const { state, me } = ctx;
    const view = state.view || {};
    const size = Number(view.size || (state.options || {}).size || 8);
    const n = Number.isInteger(size) && size > 0 ? size : 8;
    if (this.resize(n, n)) this.drawFelt(n);
    const rows = typeof view.board === "string" ? view.board : "";
    const playing = state.status === "playing";
    this.legal = playing ? cellSet(view.legal) : new Set();
    const flipped = cellSet(view.flipped);
    const last = Array.isArray(view.last) ? `${view.last[0]},${view.last[1]}` : null;
    for (let y = 0; y < n; y += 1) {
      for (let x = 0; x < n; x += 1) {
        const k = `${x},${y}`;
        const disc = COLOURS[rows[y * n + x]] || "";
        const hint = !disc && this.legal.has(k);
        const turned = flipped.has(k);
        const key = `${disc}|${hint}|${k === last}|${turned}`;
        this.paint(x, y, key, (cell) => {
          cell.className = "cell";
          if (disc) {
            cell.classList.add("disc", disc);
            cell.dataset.disc = disc;
          } else delete cell.dataset.disc;
          if (hint) cell.classList.add("legal");
          if (k === last) cell.classList.add("last");
          if (turned) cell.classList.add("flipped");
        }, [disc === "black" ? t("black disc") : disc === "white" ? t("white disc") : hint ? t("legal move") : t("empty"),
          k === last ? t("last move") : "", turned ? t("turned over") : ""].filter(Boolean).join(", "));
      }
    }
    const myTurn = playing && state.turn === me;
    this.el.classList.toggle("my-turn", myTurn);
  }

  drawFelt(n) {
    clear(this.under);
    const m = this.margin;
    this.under.append(svg("rect", { class: "felt-frame", x: -m, y: -m, width: n + 2 * m, height: n + 2 * m, rx: 0.15 }));
    this.under.append(svg("rect", { class: "felt", x: 0, y: 0, width: n, height: n }));
    for (let i = 1; i < n; i += 1) {
      this.under.append(
        svg("line", { class: "grid-line", x1: i, y1: 0, x2: i, y2: n }),
        svg("line", { class: "grid-line", x1: 0, y1: i, x2: n, y2: i }),
      );
    }
    for (let i = 0; i < n; i += 1) {
      const [c] = centre(i, 0);
      const col = columnName(i);
      this.under.append(
        svg("text", { class: "label", x: c, y: -0.2 }, col),
        svg("text", { class: "label", x: -0.3, y: c + 0.12 }, String(i + 1)),
      );
    }
  }

  /** A replay adds the disc counts of the shown step, as the legend. */
  decorate({ view }) {
    const counts = (view && view.counts) || {};
    return [el("span", { "data-counts": "" }, t("black {black} · white {white}",
      { black: Number(counts.black) || 0, white: Number(counts.white) || 0 }))];
  }

  click({ x, y }) {
    const ctx = this.ctx;
    if (!ctx || !ctx.seated) return this.intent(null, () => t("You are watching; spectators cannot play."));
    const { state, me } = ctx;
    if (state.status !== "playing") return this.intent(null, () => t("The game is not running right now."));
    if (state.turn !== me) return this.intent(null, () => t("It is not your turn yet."));
    if (!this.legal.has(`${x},${y}`)) return this.intent(null, () => t("{cell} is not a legal move.", { cell: cellName(x, y) }));
    return this.intent(["move", { move: { x, y } }]);
  }
}
export { ReversiBoard as Board };
