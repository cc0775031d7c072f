// Zoom and pan for a board bigger than its frame (19x19 Gomoku, expert or 200x200
// Minesweeper, wide Link-match boards on a phone): the frame scrolls by itself (drag,
// wheel, scroll bars), and pinching, Ctrl + wheel (a trackpad's pinch) or the frame's
// buttons change the cell size. The page itself never scrolls sideways or zooms.

const WHEEL_SCALE = 300; // wheel pixels per e-fold of zoom

/** Keep the frame's centre on the same board point while `change` resizes the board. */
function keepCentre(frame, change) {
  const before = { w: frame.scrollWidth, h: frame.scrollHeight };
  const cx = (frame.scrollLeft + frame.clientWidth / 2) / Math.max(1, before.w);
  const cy = (frame.scrollTop + frame.clientHeight / 2) / Math.max(1, before.h);
  change();
  frame.scrollLeft = cx * frame.scrollWidth - frame.clientWidth / 2;
  frame.scrollTop = cy * frame.scrollHeight - frame.clientHeight / 2;
}

/** Wire pinch and Ctrl + wheel on `frame` to `board()` (the current board, or null). */
export function attachZoom(frame, board) {
  const zoom = (factor) => {
    const b = board();
    if (b) keepCentre(frame, () => b.zoomBy(factor));
  };
  frame.addEventListener("wheel", (event) => {
    if (!event.ctrlKey) return; // a plain wheel scrolls the frame
    event.preventDefault(); // and not the page's zoom
    zoom(Math.exp(-event.deltaY / WHEEL_SCALE));
  }, { passive: false });

  const touches = new Map();
  let spread = 0;
  const distance = () => {
    const [a, b] = [...touches.values()];
    return Math.hypot(a.x - b.x, a.y - b.y);
  };
  frame.addEventListener("pointerdown", (event) => {
    if (event.pointerType !== "touch") return;
    touches.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (touches.size === 2) spread = distance();
  });
  frame.addEventListener("pointermove", (event) => {
    if (!touches.has(event.pointerId)) return;
    touches.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (touches.size !== 2 || spread <= 0) return;
    const now = distance();
    if (Math.abs(now - spread) > 4) {
      zoom(now / spread);
      spread = now;
    }
  });
  const up = (event) => {
    touches.delete(event.pointerId);
    if (touches.size < 2) spread = 0;
  };
  frame.addEventListener("pointerup", up);
  frame.addEventListener("pointercancel", up);
  return zoom;
}
