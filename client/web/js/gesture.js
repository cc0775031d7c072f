// Board gestures for mouse, pen and touch, reported per cell:
//   primary   = left click / tap            (place a stone, reveal, pick a tile)
//   secondary = right click / long press    (cycle flag -> ? -> none, flag around)
//   tertiary  = middle click                (chord)
// A cell is the nearest element with data-x and data-y.

const LONG_PRESS_MS = 450;
const SLOP_PX = 12; // a finger that moves further is scrolling, not pressing

function cellOf(target) {
  const node = target instanceof Element ? target.closest("[data-x][data-y]") : null;
  if (!node) return null;
  return { x: Number(node.dataset.x), y: Number(node.dataset.y), node };
}

export function attachGestures(board, handlers) {
  let press = null;
  let lastPointer = "mouse";

  const cancel = () => {
    if (press) clearTimeout(press.timer);
    press = null;
  };

  board.addEventListener("pointerdown", (event) => {
    lastPointer = event.pointerType || "mouse";
    const cell = cellOf(event.target);
    cancel();
    if (!cell) return;
    if (lastPointer === "mouse" && event.button === 1) {
      event.preventDefault(); // no auto-scroll
      handlers.tertiary?.(cell);
      return;
    }
    if (event.button !== 0) return; // right button: the contextmenu event handles it
    press = { cell, id: event.pointerId, x: event.clientX, y: event.clientY, fired: false, timer: null };
    if (lastPointer !== "mouse") {
      const mine = press;
      mine.timer = setTimeout(() => {
        mine.fired = true;
        if (navigator.userActivation?.hasBeenActive) navigator.vibrate?.(25); // a felt "click"
        handlers.secondary?.(mine.cell);
      }, LONG_PRESS_MS);
    }
  });

  board.addEventListener("pointermove", (event) => {
    if (press && event.pointerId === press.id
        && Math.hypot(event.clientX - press.x, event.clientY - press.y) > SLOP_PX) cancel();
  });

  board.addEventListener("pointerup", (event) => {
    if (!press || event.pointerId !== press.id) return;
    const { cell, fired } = press;
    cancel();
    if (fired) return; // the long press already acted
    const up = cellOf(event.target) || cellOf(document.elementFromPoint(event.clientX, event.clientY));
    if (up && up.x === cell.x && up.y === cell.y) handlers.primary?.(cell);
  });

  board.addEventListener("pointercancel", cancel);

  board.addEventListener("contextmenu", (event) => {
    event.preventDefault(); // no browser menu over the board, ever
    if (lastPointer !== "mouse") return; // touch long presses are timed above
    const cell = cellOf(event.target);
    if (cell) handlers.secondary?.(cell);
  });
}
