// The browser's words in the player's language: the same gettext catalogs as the
// Python clients (protocol/i18n.py), served as JSON by the server at /i18n/<lang>.json.
//
// A message id is its English text, so with no catalog loaded (or a message the
// catalog lacks) the page reads in English. Placeholders are {name} fields; plural
// forms are picked with Intl.PluralRules in the catalog's CLDR category order,
// as protocol/i18n.py picks them with Babel.

export const SOURCE = "en";
export const LANG_KEY = "gridhall.lang";

let current = { lang: SOURCE, name: "English", rules: SOURCE, dates: SOURCE, plural_categories: ["one", "other"], messages: {} };
let rules = new Intl.PluralRules("en");

/** `template` with its {field} placeholders filled from `params` (unknown ones stay). */
export function fill(template, params = {}) {
  return String(template).replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole);
}

/** Use a catalog as loaded from /i18n/<lang>.json (tests pass one directly). */
export function useCatalog(catalog) {
  current = catalog;
  rules = new Intl.PluralRules(String(catalog.rules || catalog.lang).replace("_", "-"));
  document.documentElement.lang = String(catalog.lang).replace("_", "-");
}

/** The language the page speaks now. */
export function language() {
  return current.lang;
}

/** The locale dates and times are written in (Intl's words, CLDR's, for the page's
 * language, never the browser's). */
export function dateLocale() {
  return String(current.dates || current.lang).replace("_", "-");
}

/** Mark `message` for the catalogs without translating it yet (data made when a module
 * loads is translated with t() when shown), as N_ in protocol/i18n.py. */
export function N_(message) {
  return message;
}

/** `message` in the page's language, placeholders filled. */
export function t(message, params = {}) {
  let found = current.messages[message];
  // a message held with plural forms gives its first, as GNU gettext does
  if (Array.isArray(found)) found = found.every((f) => f) ? found[0] : null;
  return fill(typeof found === "string" && found ? found : message, params);
}

/** `message` in a context (one English word that translates two ways). */
export function tp(context, message, params = {}) {
  const found = current.messages[`${context}\u0004${message}`];
  return fill(typeof found === "string" && found ? found : message, params);
}

/** The plural form for `n` (`n` is also a placeholder). */
export function tn(singular, plural, n, params = {}) {
  const all = { n, ...params };
  const forms = current.messages[singular];
  if (Array.isArray(forms) && forms.every((f) => f)) {
    const cats = current.plural_categories;
    const i = cats.indexOf(rules.select(Math.abs(n)));
    return fill(forms[Math.min(i < 0 ? cats.length - 1 : i, forms.length - 1)], all);
  }
  return fill(n === 1 ? singular : plural, all);
}

/** The offered language closest to the browser's, or the one the player chose. */
export function preferredLanguage(offered, stored = localStorage.getItem(LANG_KEY)) {
  if (stored && offered.includes(stored)) return stored;
  for (const tag of navigator.languages || [navigator.language || SOURCE]) {
    const locale = new Intl.Locale(tag).maximize();
    if (locale.language === "zh") {
      if (locale.script === "Hans" && offered.includes("zh_Hans")) return "zh_Hans";
      continue;
    }
    if (offered.includes(locale.language)) return locale.language;
  }
  return SOURCE;
}

/** Load and use `lang`'s catalog (English needs none). */
export async function loadLanguage(lang) {
  if (lang === SOURCE) {
    useCatalog({ lang: SOURCE, name: "English", rules: SOURCE, dates: SOURCE, plural_categories: ["one", "other"], messages: {} });
    return;
  }
  const reply = await fetch(`/i18n/${encodeURIComponent(lang)}.json`);
  if (!reply.ok) throw new Error(`no catalog for ${lang}`);
  useCatalog(await reply.json());
}
