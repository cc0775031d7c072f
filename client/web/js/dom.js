// Building DOM nodes without HTML strings: every text a player or the URL supplies
// (names, chat, room codes) goes in through textContent / text nodes, never markup.

const SVG_NS = "http://www.w3.org/2000/svg";

/** `el("li", {class: "me", dataset: {x: 1}}, "text", child)`. */
export function el(tag, props = {}, ...children) {
  return fill(document.createElement(tag), props, children);
}

/** The same for SVG elements (lines, paths, labels on the boards). */
export function svg(tag, props = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), props, children);
}

function fill(node, props, children) {
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.setAttribute("class", value);
    else if (key === "text") node.textContent = String(value);
    else if (key === "dataset") for (const [k, v] of Object.entries(value)) node.dataset[k] = String(v);
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "style") throw new Error("inline styles break the CSP; use classes or CSS variables");
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Remove every child. */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

export const $ = (selector, root = document) => root.querySelector(selector);
