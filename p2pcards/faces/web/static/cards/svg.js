// Small helpers shared by every deck family: the card outline, placing a sign, corner indices.
// Every function returns SVG markup as a string; nothing here touches the document.

export const WIDTH = 200;
export const HEIGHT = 300;

// Text safe to put inside SVG markup (element content or a quoted attribute).
export function escapeText(text) {
  return String(text).replace(/[&<>"']/g, (ch) => ({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
  })[ch]);
}

// A whole card: the rounded outline on a paper colour, then `inner`. `title` names the card for
// a tooltip and screen readers; `kind` is a class on the root (e.g. "face italian").
export function card(inner, { title = "", kind = "face", paper = "#fffdf5", edge = "#3a3a3a" } = {}) {
  return '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 300" class="card-art ' +
    escapeText(kind) + '" role="img"' + (title ? ' aria-label="' + escapeText(title) + '"' : "") + ">" +
    (title ? "<title>" + escapeText(title) + "</title>" : "") +
    '<rect x="2" y="2" width="196" height="296" rx="14" fill="' + paper + '" stroke="' + edge +
    '" stroke-width="3"/>' + inner + "</svg>";
}

// `markup` (drawn around 0,0) moved to (x, y), turned by `angle` degrees and scaled by `scale`,
// as one group with class `cls` ("pip" for the counted suit signs of a pip card).
// `flip` mirrors it left to right (after turning).
export function place(markup, x, y, { angle = 0, scale = 1, cls = "", flip = false } = {}) {
  let transform = "translate(" + num(x) + " " + num(y) + ")";
  if (angle) transform += " rotate(" + num(angle) + ")";
  if (scale !== 1 || flip) transform += " scale(" + num(flip ? -scale : scale) + " " + num(scale) + ")";
  return "<g" + (cls ? ' class="' + cls + '"' : "") + ' transform="' + transform + '">' + markup + "</g>";
}

// One outlined shape: `element` is the tag and its geometry ('circle cx="0" cy="0" r="5"').
export function outlined(element, fill, stroke, width) {
  return "<" + element + ' fill="' + fill + '" stroke="' + stroke + '" stroke-width="' + width + '"/>';
}

// A number written short (two decimals at most).
export function num(value) {
  return String(Math.round(value * 100) / 100);
}

// The corner index: `label` (and optionally a small sign under it) at the top left and, turned
// half round, at the bottom right.
export function cornerIndex(label, { color = "#222", sign = "", signScale = 0.3, x = 20, y = 34,
  size = 28, family = "serif" } = {}) {
  const one = '<text x="0" y="0" text-anchor="middle" font-family="' + family +
    '" font-weight="bold" font-size="' + size + '" fill="' + color + '">' + escapeText(label) +
    "</text>" + (sign ? place(sign, 0, size * 0.55, { scale: signScale }) : "");
  return '<g class="index">' + place(one, x, y) + place(one, 200 - x, 300 - y, { angle: 180 }) + "</g>";
}

// The face of a code this module cannot draw: a clearly marked card showing the code itself.
export function unknownCard(code) {
  const shown = escapeText(String(code).slice(0, 8));
  return card(
    '<rect x="14" y="14" width="172" height="272" rx="8" fill="none" stroke="#b00020" ' +
    'stroke-width="3" stroke-dasharray="10 7"/>' +
    '<text x="100" y="150" text-anchor="middle" font-family="sans-serif" font-weight="bold" ' +
    'font-size="110" fill="#b00020">?</text>' +
    '<text x="100" y="205" text-anchor="middle" font-family="sans-serif" font-size="20" ' +
    'fill="#b00020">unknown card</text>' +
    '<text x="100" y="240" text-anchor="middle" font-family="monospace" font-size="22" ' +
    'fill="#333">' + shown + "</text>",
    { title: "unknown card " + String(code).slice(0, 8), kind: "face unknown", paper: "#fff4f4" });
}
