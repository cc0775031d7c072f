// How the admin page writes the server's numbers: sizes, durations, times, in the
// page's language. Every value comes from the server, so each is checked to be a
// number first: a wrong type shows as "–" instead of breaking the page.

import { language, t } from "./i18n.js";

export const NONE = "–";

function finite(value) {
  return typeof value === "number" && Number.isFinite(value);
}

/** A count or a measure with at most `digits` decimals, grouped as the language does. */
export function number(value, digits = 0) {
  if (!finite(value)) return NONE;
  return new Intl.NumberFormat(language().replace("_", "-"),
    { maximumFractionDigits: digits }).format(value);
}

/** Bytes as KiB / MiB / GiB. */
export function bytes(value) {
  if (!finite(value)) return NONE;
  if (value < 1024) return t("{n} B", { n: number(value) });
  if (value < 1024 ** 2) return t("{n} KiB", { n: number(value / 1024, 1) });
  if (value < 1024 ** 3) return t("{n} MiB", { n: number(value / 1024 ** 2, 1) });
  return t("{n} GiB", { n: number(value / 1024 ** 3, 2) });
}

/** Milliseconds, or "–" for none measured yet (null). */
export function millis(value) {
  return finite(value) ? t("{n} ms", { n: number(value, 1) }) : NONE;
}

/** A span of seconds, the two largest units: "45 s", "3 min 5 s", "2 h 10 min", "4 d 3 h". */
export function duration(seconds) {
  if (!finite(seconds)) return NONE;
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return t("{s} s", { s });
  if (s < 3600) return t("{m} min {s} s", { m: Math.floor(s / 60), s: s % 60 });
  if (s < 86400) return t("{h} h {m} min", { h: Math.floor(s / 3600), m: Math.floor(s / 60) % 60 });
  return t("{d} d {h} h", { d: Math.floor(s / 86400), h: Math.floor(s / 3600) % 24 });
}

/** An epoch time (seconds) as a local date and time. */
export function when(epochSeconds) {
  if (!finite(epochSeconds)) return NONE;
  return new Intl.DateTimeFormat(language().replace("_", "-"),
    { dateStyle: "medium", timeStyle: "short" }).format(new Date(epochSeconds * 1000));
}

/** Any value the server sends as one line of plain text: lists joined, maps as
 * "key: value, ...", nothing as "–". */
export function plain(value) {
  if (value === null || value === undefined) return NONE;
  if (Array.isArray(value)) return value.length ? value.map(plain).join(", ") : NONE;
  if (typeof value === "object") {
    const keys = Object.keys(value);
    return keys.length ? keys.map((k) => `${k}: ${plain(value[k])}`).join(", ") : NONE;
  }
  return String(value);
}

/** `{key: n}` as "key: n, key: n" sorted by key, or `empty` when there is nothing. */
export function counts(map, empty) {
  if (!map || typeof map !== "object") return empty;
  const parts = Object.keys(map).sort().map((k) => `${k}: ${number(map[k])}`);
  return parts.length ? parts.join(", ") : empty;
}
