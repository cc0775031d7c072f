// The boards, found by the game's name: every game the server describes (/games.json)
// has its board in boards/<name>.js, which exports it as `Board` (a GridBoard), and its
// styles in boards/<name>.css. The page knows no game of its own: `loadBoards` loads
// the described games' boards once at start, and `boardFor` gives a game's board, or
// one that says this page cannot show that game.

import { t } from "./i18n.js";
import { GridBoard } from "./boards/grid.js";

const NAME = /^[a-z][a-z0-9_-]{0,31}$/;
const BOARDS = new Map();

/** Load the boards (and their styles) of the games `names`; a game whose board does
 * not load is shown as unknown. */
export async function loadBoards(names) {
  await Promise.all(names.filter((name) => NAME.test(name)).map(async (name) => {
    try {
      const [module] = await Promise.all([import(`./boards/${name}.js`), stylesheet(name)]);
      if (typeof module.Board === "function") BOARDS.set(name, module.Board);
    } catch (err) {
      console.warn(`no board for ${name}:`, err);
    }
  }));
}

/** The board's styles, once loaded (or failed: the board still works). */
function stylesheet(name) {
  return new Promise((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = `/js/boards/${name}.css`;
    link.addEventListener("load", resolve);
    link.addEventListener("error", resolve);
    document.head.append(link);
  });
}

/** The board class of `game`. */
export function boardFor(game) {
  return BOARDS.get(game) || UnknownBoard;
}

/** A game this page has no board for (from a newer server): say so. */
export class UnknownBoard extends GridBoard {
  constructor() {
    super("unknown", 0, {}, "");
  }

  render(ctx) {
    this.say(t("This client cannot show {game} yet.", { game: String(ctx.state.game || "") }));
  }
}
