// A QR code of the room's invite link, so a phone joins by pointing its camera.
// Encoding is the vendored qrcode-generator (vendor/qrcode.mjs); this only paints
// its modules onto a canvas, with the standard four-module quiet zone.

import qrcode from "../vendor/qrcode.mjs";

const QUIET = 4;

export function drawQr(canvas, text, scale = 4) {
  if (canvas.dataset.qr === text) return;
  const qr = qrcode(0, "M"); // 0: the smallest version that holds the text
  qr.addData(text);
  qr.make();
  const n = qr.getModuleCount();
  const size = (n + 2 * QUIET) * scale;
  canvas.width = size;
  canvas.height = size;
  const g = canvas.getContext("2d");
  g.fillStyle = "#ffffff";
  g.fillRect(0, 0, size, size);
  g.fillStyle = "#000000";
  for (let r = 0; r < n; r += 1) {
    for (let c = 0; c < n; c += 1) {
      if (qr.isDark(r, c)) g.fillRect((c + QUIET) * scale, (r + QUIET) * scale, scale, scale);
    }
  }
  canvas.dataset.qr = text;
}
