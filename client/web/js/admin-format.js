// How the admin page writes the server's numbers: sizes, durations, times, in the
// page's language (Intl's units and dates: nothing here needs a catalog entry). Every value comes from the server, so each is checked to be a
// number first: a wrong type shows as "–" instead of breaking the page.

import { language } from "./i18n.js";

export const NONE = "–";

function finite(value) {
  return typeof value === "number" && Number.isFinite(value);
}

function locale() {
  return language().replace("_", "-");
}

/** A count or a measure with at most `digits` decimals, grouped as the language does. */
export function number(value, digits = 0) {
  if (!finite(value)) return NONE;
  return new Intl.NumberFormat(locale(), { maximumFractionDigits: digits }).format(value);
}

/** `value` in `unit` (an Intl unit: "second", "megabyte"...), the language's short form. */
function measure(value, unit, digits = 0) {
  return new Intl.NumberFormat(locale(), { style: "unit", unit, unitDisplay: "short",
    maximumFractionDigits: digits }).format(value);
}

/** Bytes as kB / MB / GB (Intl's units: no catalog entry needed). */
export function bytes(value) {
  if (!finite(value)) return NONE;
  if (value < 1e3) return measure(value, "byte");
  if (value < 1e6) return measure(value / 1e3, "kilobyte", 1);
  if (value < 1e9) return measure(value / 1e6, "megabyte", 1);
  return measure(value / 1e9, "gigabyte", 2);
}

/** Milliseconds, or "–" for none measured yet (null). */
export function millis(value) {
  return finite(value) ? measure(value, "millisecond", 1) : NONE;
}

/** A span of seconds, its two largest units: "45 sec", "3 min 5 sec", "2 hr 10 min". */
export function duration(seconds) {
  if (!finite(seconds)) return NONE;
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return measure(s, "second");
  if (s < 3600) return `${measure(Math.floor(s / 60), "minute")} ${measure(s % 60, "second")}`;
  if (s < 86400) return `${measure(Math.floor(s / 3600), "hour")} ${measure(Math.floor(s / 60) % 60, "minute")}`;
  return `${measure(Math.floor(s / 86400), "day")} ${measure(Math.floor(s / 3600) % 24, "hour")}`;
}

/** An epoch time (seconds) as a local date and time. */
export function when(epochSeconds) {
  if (!finite(epochSeconds)) return NONE;
  return new Intl.DateTimeFormat(locale(),
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
