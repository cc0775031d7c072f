// Link-match (Lianliankan) as in the source game: ivory tiles on felt, the picked
// tile framed in red, the hint pair in gold, and our last link's path drawn as a green
// line (through the ring of empty cells around the board) that then fades.
//
// Cells carry `data-kind` (0: empty); the path is an SVG polyline with `data-path`
// whose `points` are cell centres; the picked tile has the class `selected`.
//
// A replay shows every racer's board side by side (the frames hold them all, `boards`),
// each captioned with the tiles its racer has left, the step's path on the board of who
// made it.

import { clear, svg } from "../dom.js";
import { t } from "../i18n.js";
import { boardText } from "../describe.js";
import { cellName } from "../text.js";
import { GridBoard, centre } from "./grid.js";

const GLYPHS = [..."♠♣♥♦★●■▲◆♪☀☂☯⚑✿❄✚✦◐◑⊕⊗⊙⌘♞♜♛♚☘⬟⬢◈▼◇○□ABCDEFGHJKLMNPQRSTUVWXYZ23456789abdefghmnqrt"];
const TEXT_STYLE = "\uFE0E"; // ask for the text (not emoji) form of the symbols

export function glyph(kind) {
  return GLYPHS[(kind - 1) % GLYPHS.length] + TEXT_STYLE;
}

/** What a screen reader says about a cell after its name ("tile ♠, picked"). */
function tileLabel(kind, picked, hinted) {
  return [kind ? t("tile {glyph}", { glyph: glyph(kind).replace(TEXT_STYLE, "") }) : t("empty"),
    picked ? t("picked") : "", hinted ? t("hint") : ""].filter(Boolean).join(", ");
}

export class LinkBoard extends GridBoard {
  constructor(intent) {
    super("linkmatch", 1, {
      primary: (cell) => this.click(cell),
      deselect: () => this.select(null),
    }, t("Link-match board"));
    this.intent = intent;
    this.transposable = true; // 16 x 9 on a phone: 32 px tiles on its side, 20 px upright
    this.touchCell = 32; // a tile is tapped, twice a link: smaller ones start zoomed in
    this.selected = null;
    this.kinds = [];
    this.ctx = null;
  }

  /** Escape drops the picked tile, as in the terminal client. */
  get keyMap() {
    return { ...super.keyMap, Escape: "deselect" };
  }

  kind(x, y) {
    return Number((this.kinds[y] || [])[x] || 0);
  }

  render(ctx) {
    this.ctx = ctx;
    const { state } = ctx;
    const view = { ...(state.options || {}), ...(state.view || {}) };
    const w = Number(view.width || 16);
    const h = Number(view.height || 9);
    this.resize(w, h);
    const own = Array.isArray((state.view || {}).rows);
    this.kinds = own ? state.view.rows : [];
    if (this.selected && !this.kind(...this.selected)) this.selected = null; // linked or shuffled away
    const hint = new Set((own && Array.isArray(view.hint) ? view.hint : []).map(([x, y]) => `${x},${y}`));
    for (let y = 0; y < h; y += 1) {
      for (let x = 0; x < w; x += 1) {
        const kind = this.kind(x, y);
        const picked = this.selected && this.selected[0] === x && this.selected[1] === y;
        const hinted = hint.has(`${x},${y}`);
        this.paint(x, y, `${kind}|${picked}|${hinted}`, (cell) => {
          cell.className = "cell";
          cell.dataset.kind = String(kind);
          if (kind) {
            cell.classList.add("tile", `ink${(kind - 1) % 12}`);
            cell.textContent = glyph(kind);
          } else {
            cell.classList.add("empty");
            cell.textContent = "";
          }
          if (picked) cell.classList.add("selected");
          if (hinted) cell.classList.add("hint");
        }, tileLabel(kind, picked, hinted));
      }
    }
    this.say(boardText(state, ctx.me, state.view || {})); // waiting to start, watching, countdown
  }

  /** Our own link: its path, drawn for a moment; a new game or a resync: none. */
  roomEvent(msg, view, me) {
    if (msg.type === "moved" && msg.by === me && (msg.move || {}).action === "link") this.showPath(view.path);
    else if (msg.type === "state") this.showPath(null);
  }

  /** The countdown before the race runs on between events. */
  ticking(view) {
    return view.starts_in > 0;
  }

  /** A replay's boards: every racer's, when the frames hold them (else the one there is). */
  static replayBoards(replay) {
    const boards = replay.frame(replay.length).view.boards;
    return boards && typeof boards === "object" ? replay.players.map((p) => p.player) : [null];
  }

  /** Racer `who`'s board of a replay frame. */
  static replayView(view, who) {
    if (who === null) return view;
    const rows = (view.boards || {})[who];
    return { ...view, rows: Array.isArray(rows) ? rows : [] };
  }

  static replayCaption(view, who, name) {
    const left = (view.progress || {})[who];
    return Number.isInteger(left) ? t("{name}: {n} tiles left", { name, n: left }) : name;
  }

  /** A replay: the path of the link the shown step made, on the board of who made it. */
  decorate({ view, step, who }) {
    const path = step && (who === null || step.by === who) ? (step.path || view.path) : null;
    this.showPath(Array.isArray(path) ? path : null);
    const line = this.over.querySelector("polyline[data-path]");
    if (line) line.classList.add("replay-path");
    return null;
  }

  /** Draw the path of our last link (corner points, ring cells included). */
  showPath(points) {
    clear(this.over);
    if (!Array.isArray(points) || points.length < 2) return;
    const pts = points.map(([x, y]) => centre(x, y).join(",")).join(" ");
    this.over.append(svg("polyline", { class: "path", "data-path": "", points: pts }));
  }

  click({ x, y }) {
    const ctx = this.ctx;
    if (!ctx || !ctx.seated) return this.intent(null, () => t("You are watching; spectators cannot play."));
    if (!this.kind(x, y) || (this.selected && this.selected[0] === x && this.selected[1] === y)) {
      this.select(null);
      return undefined;
    }
    if (this.selected === null) {
      this.select([x, y]);
      return undefined;
    }
    const a = this.selected;
    this.select(null);
    return this.intent(["move", { move: { action: "link", a, b: [x, y] } }]);
  }

  select(cell) {
    const before = this.selected;
    this.selected = cell;
    for (const c of [before, cell]) {
      if (c && c[0] < this.cols && c[1] < this.rows) {
        const node = this.cell(c[0], c[1]);
        const picked = cell !== null && c === cell;
        node.classList.toggle("selected", picked);
        node.setAttribute("aria-label", `${cellName(c[0], c[1])}, ${tileLabel(this.kind(c[0], c[1]), picked, false)}`);
        this.keys[c[1] * this.cols + c[0]] = null; // repaint on the next render
      }
    }
  }
}

export { LinkBoard as Board };
