// The static texts of index.html in the page's language. An element's data-i18n holds
// its English text (the msgid, which protocol/catalogs.py extracts from index.html),
// data-i18n-placeholder / -title / -aria-label an attribute's: translated again on
// every language switch, since the English stays in the data attribute.

import { t } from "./i18n.js";

const ATTRIBUTES = ["placeholder", "title", "aria-label"];

/** Translate every marked text under `root`. */
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const name of ATTRIBUTES) {
    for (const node of root.querySelectorAll(`[data-i18n-${name}]`)) {
      node.setAttribute(name, t(node.getAttribute(`data-i18n-${name}`)));
    }
  }
}
