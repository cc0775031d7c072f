// The admin page's one question box: "close this room? why?", "ban this player? for how
// long? why?". A modal <dialog>, so the keyboard stays inside it, Escape cancels and
// the focus goes back to the button that opened it.

import { el } from "./dom.js";
import { N_, t } from "./i18n.js";

export const MAX_MINUTES = 525600;
export const MAX_REASON = 200;

/** The ban lengths offered, in minutes (the server takes 1..525600). */
export const DURATIONS = [
  [10, N_("10 minutes")], [60, N_("1 hour")], [1440, N_("1 day")], [10080, N_("1 week")],
  [43200, N_("30 days")], [MAX_MINUTES, N_("1 year")],
];

/** A <select> of DURATIONS (translated now), `value` picked. */
export function durationSelect(name, value = 60) {
  return el("select", { name, required: true },
    DURATIONS.map(([minutes, label]) => el("option", { value: minutes, selected: minutes === value },
      t(label))));
}

/**
 * Ask in a modal dialog; resolves `{reason, minutes}` on confirm, null on cancel.
 * `spec`: {title, text, confirm, duration (bool), reasonRequired (bool)}.
 */
export function ask(spec) {
  const title = el("h2", { id: "ask-title" }, spec.title);
  const reason = el("input", { name: "reason", maxlength: MAX_REASON, autocomplete: "off",
    required: !!spec.reasonRequired });
  const fields = [
    el("p", { id: "ask-text", class: "ask-text" }, spec.text || ""),
  ];
  let minutes = null;
  if (spec.duration) {
    minutes = durationSelect("minutes");
    fields.push(el("label", {}, el("span", {}, t("For how long")), minutes));
  }
  fields.push(el("label", {},
    el("span", {}, spec.reasonRequired ? t("Reason (shown to them)") : t("Reason (optional)")),
    reason));
  const cancel = el("button", { type: "button", value: "cancel" }, t("Cancel"));
  const confirm = el("button", { type: "submit", value: "ok", class: "danger" }, spec.confirm);
  const form = el("form", { method: "dialog", class: "ask-form" }, title, fields,
    el("div", { class: "row ask-buttons" }, confirm, cancel));
  const dialog = el("dialog", { class: "ask card", "aria-labelledby": "ask-title",
    "aria-describedby": "ask-text" }, form);
  document.body.append(dialog);
  return new Promise((resolve) => {
    let answer = null;
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (!form.reportValidity()) return;
      answer = { reason: reason.value.trim(), minutes: minutes ? Number(minutes.value) : null };
      dialog.close();
    });
    cancel.addEventListener("click", () => dialog.close());
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(answer);
    });
    dialog.showModal();
    reason.focus();
  });
}
