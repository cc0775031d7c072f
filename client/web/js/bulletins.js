// Messages that must stay readable until the player has read them: the server's
// announcements, being removed from a room by its host or from the server by its
// operator, a room closed by the operator. Unlike a notice they do not go away by
// themselves; one per kind (a newer one replaces it), each with a Dismiss button.

import { el } from "./dom.js";
import { t } from "./i18n.js";

export class Bulletins {
  /** `box`: a live region (role="status") the lines go in. */
  constructor(box) {
    this.box = box;
    this.items = new Map(); // kind -> function giving its text in the page's language
  }

  /** Show (or replace) the line of `kind`; `text` makes it, again on a language switch.
   * Only the new line is added to the live region, so only it is read out. */
  show(kind, text) {
    this.items.delete(kind); // the newest goes last
    this.items.set(kind, text);
    const old = [...this.box.children].find((node) => node.dataset.bulletin === kind);
    if (old) old.remove();
    this.box.append(this.line(kind, text));
  }

  dismiss(kind) {
    this.items.delete(kind);
    this.relabel();
  }

  /** Every line again, in the page's language now. */
  relabel() {
    this.box.replaceChildren(...[...this.items].map(([kind, text]) => this.line(kind, text)));
  }

  line(kind, text) {
    const close = el("button", { type: "button", class: "small ghost", "data-dismiss": kind }, t("Dismiss"));
    close.addEventListener("click", () => this.dismiss(kind));
    return el("div", { class: "bulletin", "data-bulletin": kind },
      el("span", { class: "bulletin-text" }, text()), close);
  }
}
