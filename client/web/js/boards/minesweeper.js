// Minesweeper as in the classic game: raised hidden cells, sunken open ones, coloured
// numbers, flags and question marks; after a loss the mines, the exploded one on red
// and wrong flags crossed out. The hint cell is ringed (green: safe, orange: a guess)
// and the cells other players touched last are outlined in their colours. Columns are
// lettered and rows numbered on the frame, as hints and messages name cells.
//
// Cells carry `data-cell`: the view's row character ("#" hidden, "F" flag, "?" mark,
// "0".."8" open, "*" mine, "X" exploded mine, "W" wrong flag).
//
// A replay colours each cell by the player who revealed or flagged it (`owners`, worked
// out step by step by replay-model.js with `replayTracker`) and names who hit each mine.

import { clear, svg } from "../dom.js";
import { t, tn } from "../i18n.js";
import { columnName, playerColor } from "../text.js";
import { shownName } from "../describe.js";
import { playerList } from "../browse.js";
import { GridBoard, centre } from "./grid.js";

const NEXT_MARK = { "#": "flag", F: "question", "?": "none" };

/** Cell characters a player's action leaves (open counts and marks); the mines the
 * final frame shows are the game's, not anyone's. */
const OWNED = new Set([..."012345678F?"]);

/** Who changed each cell ("x,y" -> player id), step by step: the cells a step's rows
 * changed belong to `step.by`; a flag taken off, or a mine the end shows, to nobody. */
export const OWNERS = {
  start: () => new Map(),
  copy: (owners) => new Map(owners),
  step(owners, before, after, by) {
    const old = before && before.rows;
    const rows = after && after.rows;
    if (!Array.isArray(rows) || typeof by !== "string" || rows === old) return;
    for (let y = 0; y < rows.length; y += 1) {
      const was = Array.isArray(old) ? String(old[y] || "") : "";
      const now = String(rows[y] || "");
      if (was === now) continue;
      for (let x = 0; x < now.length; x += 1) {
        if (now[x] === was[x]) continue;
        const key = `${x},${y}`;
        if (OWNED.has(now[x])) owners.set(key, by);
        else owners.delete(key);
      }
    }
  },
};

function classesOf(ch) {
  if (ch === "#") return ["hidden"];
  if (ch === "F") return ["hidden", "flag"];
  if (ch === "?") return ["hidden", "question"];
  if (ch === "*") return ["open", "mine"];
  if (ch === "X") return ["open", "mine", "exploded"];
  if (ch === "W") return ["open", "mine", "wrong"]; // a flag on a safe cell: crossed mine
  if (ch >= "1" && ch <= "8") return ["open", `n${ch}`];
  return ["open"];
}

/** What a screen reader says about a cell after its name ("3 mines around"). */
export function cellLabel(ch) {
  if (ch >= "1" && ch <= "8") return tn("{n} mine around", "{n} mines around", Number(ch));
  const words = {
    "#": t("hidden"), F: t("flagged"), "?": t("question mark"), "*": t("mine"),
    X: t("exploded mine"), W: t("wrong flag"),
  };
  return words[ch] || t("no mines around");
}

export class MinesBoard extends GridBoard {
  /** The terminal client's keys: f flag / ? / none, c chord, a flag around. */
  get keyMap() {
    return { ...super.keyMap, f: "secondary", c: "tertiary", a: "around" };
  }

  constructor(intent) {
    super("minesweeper", 0.8, {
      primary: (cell) => this.act(cell, "primary"),
      secondary: (cell) => this.act(cell, "secondary"),
      tertiary: (cell) => this.act(cell, "tertiary"),
      around: (cell) => this.act(cell, "around"),
    }, t("Minesweeper board"));
    this.edge = 0.14; // the bevelled border (app.css)
    this.intent = intent;
    this.rowsText = [];
    this.ctx = null;
  }

  render(ctx) {
    this.ctx = ctx;
    const { state, me, copy } = ctx;
    const view = { ...(state.options || {}), ...(state.view || {}) };
    const w = Number(view.width || 0);
    const h = Number(view.height || 0);
    if (this.resize(w, h)) this.drawLabels(w, h);
    const rows = (view.rows || []).map(String);
    this.rowsText = Array.from({ length: h }, (_, y) => (rows[y] || "").padEnd(w, "#").slice(0, w));
    const hint = view.hint && Number.isInteger(view.hint.x) ? view.hint : null;
    const colors = {};
    for (const p of state.players || []) colors[p.player] = playerColor(p);
    const marks = new Map();
    const last = view.last && Object.keys(view.last).length ? view.last : copy.lastActions;
    for (const [player, move] of Object.entries(last || {})) {
      if (player !== me && Number.isInteger(move.x) && Number.isInteger(move.y)) {
        marks.set(`${move.x},${move.y}`, colors[player] || "#ffffff");
      }
    }
    for (let y = 0; y < h; y += 1) {
      for (let x = 0; x < w; x += 1) {
        const ch = this.rowsText[y][x];
        const hinted = hint && hint.x === x && hint.y === y && "#?".includes(ch)
          ? (hint.safe ? "hint-safe" : "hint-risky") : "";
        const mark = marks.get(`${x},${y}`) || "";
        this.paint(x, y, `${ch}|${hinted}|${mark}`, (cell) => {
          cell.className = "cell";
          cell.classList.add(...classesOf(ch));
          if (hinted) cell.classList.add(hinted);
          cell.dataset.cell = ch;
          cell.textContent = (ch >= "1" && ch <= "8") || ch === "?" ? ch : "";
          if (mark) {
            cell.classList.add("other");
            cell.style.setProperty("--mark", mark);
          } else cell.style.removeProperty("--mark");
        }, cellLabel(ch));
      }
    }
    this.el.classList.toggle("over", state.status === "over");
  }

  static replayTracker() {
    return OWNERS;
  }

  /** A replay: each player's reveals and flags in their colour; at the end, who hit
   * which mine. The legend says whose colour is whose. */
  decorate({ view, tracked, players }) {
    const owners = tracked || new Map();
    const colors = {};
    const who = {};
    for (const p of players) {
      colors[p.player] = playerColor(p);
      who[p.player] = shownName(p.name, p.bot);
    }
    const hits = new Map();
    for (const h of Array.isArray(view.hit) ? view.hit : []) {
      if (Array.isArray(h) && Number.isInteger(h[0]) && Number.isInteger(h[1])) hits.set(`${h[0]},${h[1]}`, String(h[2]));
    }
    for (let y = 0; y < this.rows; y += 1) {
      for (let x = 0; x < this.cols; x += 1) {
        const key = `${x},${y}`;
        const cell = this.cell(x, y);
        const owner = hits.get(key) || owners.get(key);
        const color = owner !== undefined ? colors[owner] : undefined;
        cell.classList.toggle("owned", color !== undefined);
        if (color !== undefined) {
          cell.style.setProperty("--owner", color);
          cell.dataset.by = owner;
        } else {
          cell.style.removeProperty("--owner");
          delete cell.dataset.by;
        }
        if (hits.has(key)) {
          cell.dataset.hit = hits.get(key);
          const label = cell.getAttribute("aria-label") || "";
          const add = t("hit by {name}", { name: who[hits.get(key)] || "?" });
          if (!label.endsWith(add)) cell.setAttribute("aria-label", `${label}, ${add}`);
        } else delete cell.dataset.hit;
      }
    }
    return players.length > 1 ? [t("Each player's reveals and flags are in their colour:"), " ", playerList(players)] : null;
  }

  /** Column letters and row numbers on the frame: the names hints and messages use. */
  drawLabels(w, h) {
    clear(this.under);
    const m = this.margin;
    for (let x = 0; x < w; x += 1) {
      const [cx] = centre(x, 0);
      const name = columnName(x);
      this.under.append(
        svg("text", { class: "label", x: cx, y: -m / 2 + 0.12 }, name),
        svg("text", { class: "label", x: cx, y: h + m / 2 + 0.12 }, name),
      );
    }
    for (let y = 0; y < h; y += 1) {
      const [, cy] = centre(0, y);
      this.under.append(
        svg("text", { class: "label", x: -m / 2, y: cy + 0.12 }, String(y + 1)),
        svg("text", { class: "label", x: w + m / 2, y: cy + 0.12 }, String(y + 1)),
      );
    }
  }

  char(x, y) {
    return (this.rowsText[y] || "")[x] || "#";
  }

  /** A revealed number with as many flags (or set-off mines) around it: clicking it
   * means "chord" (the same convenience the Tk and terminal clients offer). */
  satisfied(x, y) {
    const ch = this.char(x, y);
    if (!(ch >= "1" && ch <= "8")) return false;
    let around = 0;
    for (let dy = -1; dy <= 1; dy += 1) {
      for (let dx = -1; dx <= 1; dx += 1) {
        const nx = x + dx;
        const ny = y + dy;
        if ((dx || dy) && nx >= 0 && ny >= 0 && nx < this.cols && ny < this.rows
            && "FX".includes(this.char(nx, ny))) around += 1;
      }
    }
    return around === Number(ch);
  }

  act({ x, y }, gesture) {
    const ctx = this.ctx;
    if (!ctx || !ctx.seated) return this.intent(null, () => t("You are watching; spectators cannot play."));
    if (ctx.state.status !== "playing") return this.intent(null, () => t("The game is not running right now."));
    const ch = this.char(x, y);
    const number = ch >= "1" && ch <= "8";
    let move = null;
    if (gesture === "primary") {
      if ("#?".includes(ch)) move = { action: "reveal", x, y };
      else if (this.satisfied(x, y)) move = { action: "chord", x, y };
    } else if (gesture === "secondary") {
      if ("#F?".includes(ch)) move = { action: "mark", x, y, mark: NEXT_MARK[ch] };
      else if (number) move = { action: "flag-around", x, y };
    } else if (gesture === "tertiary" && number) {
      move = { action: "chord", x, y };
    } else if (gesture === "around" && number) {
      move = { action: "flag-around", x, y };
    }
    return move ? this.intent(["move", { move }]) : undefined;
  }
}

export { MinesBoard as Board };
