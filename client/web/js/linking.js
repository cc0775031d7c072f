// Link codes in the browser: carry this player (name, ratings, history) to another
// device with a one-time code, or become the player another device shows a code for.
// PROTOCOL.md "Link codes"; the Python clients' twin is client/linking.py.
//
// Hooks (docs/web-client.md): `[data-link=open]` in the top bar (shown when the server
// offers "link"), the panel `[data-link-panel]` with `[data-link=show]`, the code
// `[data-link-code]` and its expiry `[data-link-expiry]`, the field `[data-link-input]`,
// `[data-link=use]` and `[data-link-error]`; the start screen has its own
// `[data-link-start]` form (a code instead of a name). With the server's "devices":
// the list `[data-devices]` of this player's devices, `li[data-device=ID]` each with
// its name `[data-device-name]`, when it was last seen `[data-device-seen]`
// (`aria-current` on this one) and `[data-sign-out=ID]`.

import { $, el } from "./dom.js";
import { t, tn, tp } from "./i18n.js";

export const FEATURE = "link";
export const DEVICES = "devices";
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const LENGTH = 8;

/** A typed code as sent: any case, dash or spaces ignored; throws a sentence if it
 * cannot be one. */
export function parseCode(text) {
  const code = String(text || "").replace(/[\s-]+/g, "").toUpperCase();
  if (!code) throw new Error(t("Type the code shown on your other device."));
  if (code.length !== LENGTH || [...code].some((c) => !ALPHABET.includes(c))) {
    throw new Error(t("A link code has 8 letters and digits, like {example}.", { example: "K7MQ-2D9X" }));
  }
  return code;
}

/** Whole minutes (rounded up) until `expiresAt` (unix seconds); 0 once passed. */
export function minutesLeft(expiresAt, now = Date.now() / 1000) {
  return Math.max(0, Math.ceil((expiresAt - now) / 60));
}

function clockTime(expiresAt) {
  const d = new Date(expiresAt * 1000);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

/** A device's kind in the page's language; another make's kind as its code. */
export function kindName(kind) {
  if (kind === "terminal") return tp("device", "Terminal");
  if (kind === "tk") return tp("device", "Tk");
  if (kind === "browser") return tp("device", "Browser");
  return kind;
}

/** A device's name as the list shows it (client/devices.py's device_name): its kind
 * translated and its platform; from an older client, the name it gave (data). */
export function deviceName(device) {
  if (typeof device.kind === "string" && device.kind) {
    const kind = kindName(device.kind);
    return typeof device.platform === "string" && device.platform ? `${kind} · ${device.platform}` : kind;
  }
  return typeof device.name === "string" && device.name ? device.name : t("an unnamed device");
}

/** When a device was last seen, for people (client/devices.py's seen_text). */
export function seenText(device, now = Date.now() / 1000) {
  if (device.current === true) return t("this device, now");
  const seen = typeof device.last_seen === "number" ? device.last_seen : 0;
  if (!seen) return t("not seen since devices were listed");
  const ago = Math.max(0, now - seen);
  if (ago < 60) return t("just now");
  if (ago < 3600) return tn("{n} minute ago", "{n} minutes ago", Math.floor(ago / 60));
  if (ago < 86400) return tn("{n} hour ago", "{n} hours ago", Math.floor(ago / 3600));
  const d = new Date(seen * 1000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

export class LinkView {
  constructor(app) {
    this.app = app;
    this.issued = null; // the latest `link-code` answer shown
    this.open = el("button", { type: "button", class: "small ghost", hidden: true, dataset: { link: "open" }, onclick: () => this.toggle(true) });
    $("#rename").after(this.open);
    this.panel = this.build();
    this.startForm = this.buildStart();
    $("#name-form").after(this.startForm);
    this.relabel();
  }

  build() {
    this.title = el("h2");
    this.showButton = el("button", { type: "button", class: "primary", dataset: { link: "show" }, onclick: () => this.ask() });
    this.code = el("p", { class: "link-code", "data-link-code": "" });
    this.expiry = el("p", { class: "dim", "data-link-expiry": "" });
    this.howTo = el("p", { class: "dim small-text" });
    this.haveTitle = el("h2");
    this.input = el("input", { maxlength: 16, autocomplete: "off", autocapitalize: "characters", spellcheck: "false", placeholder: "K7MQ-2D9X", "data-link-input": "" });
    this.useButton = el("button", { type: "submit", dataset: { link: "use" } });
    this.error = el("p", { class: "error-text", role: "alert", "data-link-error": "" });
    const form = el("form", { class: "row" }, this.input, this.useButton);
    form.addEventListener("submit", (event) => { event.preventDefault(); this.use(this.input.value, this.error); });
    this.closeButton = el("button", { type: "button", class: "small", dataset: { link: "close" }, onclick: () => this.toggle(false) });
    this.devicesTitle = el("h2", { hidden: true });
    this.deviceList = el("ul", { class: "device-list", hidden: true, "data-devices": "" });
    const panel = el("section", { class: "card narrow link-panel", hidden: true, "data-link-panel": "" },
      this.title, this.showButton, this.code, this.expiry, this.howTo, this.haveTitle, form, this.error,
      this.devicesTitle, this.deviceList, this.closeButton);
    $("main").prepend(panel);
    return panel;
  }

  /** "I have a code" on the start screen: a code instead of a name. */
  buildStart() {
    this.startSummary = el("summary");
    this.startInput = el("input", { maxlength: 16, autocomplete: "off", autocapitalize: "characters", spellcheck: "false", placeholder: "K7MQ-2D9X", "data-link-input": "" });
    this.startButton = el("button", { type: "submit", dataset: { link: "use" } });
    this.startError = el("p", { class: "error-text", role: "alert", "data-link-error": "" });
    const form = el("form", { class: "row" }, this.startInput, this.startButton);
    form.addEventListener("submit", (event) => { event.preventDefault(); this.use(this.startInput.value, this.startError); });
    return el("details", { class: "card narrow", "data-link-start": "" }, this.startSummary, form, this.startError);
  }

  relabel() {
    this.open.textContent = t("Use on another device");
    this.title.textContent = t("Use on another device");
    this.showButton.textContent = this.issued ? t("New code") : t("Show a code");
    this.haveTitle.textContent = t("I have a code");
    this.useButton.textContent = t("Use this code");
    this.closeButton.textContent = t("Close");
    this.startSummary.textContent = t("I have a code from another device");
    this.startButton.textContent = t("Use this code");
    this.devicesTitle.textContent = t("Your devices");
    this.showIssued();
    if (this.devices) this.showDevices(this.devices);
  }

  /** The session was welcomed: offer the button only where the server gives codes. */
  welcomed(session) {
    const offered = session.features.includes(FEATURE);
    this.listed = session.features.includes(DEVICES);
    this.open.hidden = !offered && !this.listed;
    this.showButton.hidden = !offered;
    this.devicesTitle.hidden = this.deviceList.hidden = !this.listed;
    if (this.listed && !this.panel.hidden) this.app.send("list-devices");
  }

  toggle(show) {
    this.panel.hidden = !show;
    if (show && this.listed) this.app.send("list-devices");
    if (show) this.panel.scrollIntoView({ block: "nearest" });
  }

  /** The server's `devices` answer: this player's devices, this one first. */
  showDevices(msg) {
    this.devices = msg;
    const rows = Array.isArray(msg.devices) ? msg.devices : [];
    this.deviceList.replaceChildren(...rows.filter((d) => d && typeof d.device === "string").map((d) => {
      const item = el("li", { dataset: { device: d.device }, "aria-current": d.current === true ? "true" : null },
        el("span", { class: "device-name", "data-device-name": "" }, deviceName(d)),
        el("span", { class: "dim", "data-device-seen": "" }, seenText(d)),
        el("button", { type: "button", class: "small", dataset: { signOut: d.device },
          onclick: () => this.app.send("sign-out-device", { device: d.device }) },
        t("Sign out")));
      return item;
    }));
  }

  ask() {
    this.app.send("link-code");
  }

  /** The server's `link-code` answer. */
  show(msg) {
    if (typeof msg.code !== "string" || typeof msg.expires_at !== "number") return;
    this.issued = { code: msg.code, expiresAt: msg.expires_at };
    this.relabel();
  }

  showIssued() {
    const issued = this.issued;
    this.code.textContent = issued ? issued.code : "";
    this.howTo.textContent = issued ? t("On your other device, choose \"I have a code\" and type this code. It works once; that device then plays as you, with your name and ratings.") : "";
    if (!issued) {
      this.expiry.textContent = "";
      return;
    }
    const minutes = minutesLeft(issued.expiresAt);
    this.expiry.textContent = minutes
      ? t("Valid until {time} ({minutes} min).", { time: clockTime(issued.expiresAt), minutes })
      : t("This code has expired; ask for a new one.");
  }

  tick() {
    if (this.issued && !this.panel.hidden) this.showIssued();
  }

  use(text, errorLine) {
    let code;
    try {
      code = parseCode(text);
    } catch (err) {
      errorLine.textContent = err.message;
      return;
    }
    errorLine.textContent = "";
    this.toggle(false);
    this.app.linkWith(code);
  }
}
