// Folding a `moved` delta into the view we hold; mirrors protocol/delta.py `apply`.
//
// A client that says `hello` with `deltas: true` gets `moved.view` with only the fields
// that are not patched, and `moved.delta`: per patched field (always a list), either
// {at: n, append: [items]} (the list had n items and grows by these; {} leaves it) or
// {rows: [[row, column, text], ...]} (text replaces as many characters of string `row`
// from `column`). Fields in neither are gone. No game rules: the same few rules for all.

/** The new view, or null when the delta does not fit `view` (ask for a fresh state). */
export function applyDelta(view, whole, patches) {
  const out = { ...whole };
  for (const [key, patch] of Object.entries(patches)) {
    let value = view ? view[key] : undefined;
    if (!Array.isArray(value) || patch === null || typeof patch !== "object") return null;
    if ("append" in patch) {
      if (patch.at !== value.length || !Array.isArray(patch.append)) return null;
      value = value.concat(patch.append);
    }
    if ("rows" in patch) {
      if (!Array.isArray(patch.rows)) return null;
      value = value.slice();
      for (const run of patch.rows) {
        if (!Array.isArray(run) || run.length !== 3) return null;
        const [i, j, text] = run;
        if (!Number.isInteger(i) || !Number.isInteger(j) || typeof text !== "string"
          || i < 0 || i >= value.length || typeof value[i] !== "string"
          || j < 0 || j + text.length > value[i].length) return null;
        value[i] = value[i].slice(0, j) + text + value[i].slice(j + text.length);
      }
    }
    out[key] = value;
  }
  return out;
}
