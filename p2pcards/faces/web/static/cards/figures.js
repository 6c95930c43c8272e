// Stylized court figures of the Italian and Spanish decks: the knave (Fante, Sota) standing, the
// knight (Cavallo, Caballo) on a horse, the king (Re, Rey) crowned. Each takes a palette and the
// suit sign it holds, drawn around 0,0 at the size the hand shows it; the figure places it.

import { outlined } from "./svg.js";

const SKIN = "#f3d2b3";
const INK = "#2b2118";

// A shape outlined in ink, `width` units wide.
const shape = (element, fill, width) => outlined(element, fill, INK, width);

function head(x, y, r, { beard = "" } = {}) {
  return '<rect x="' + (x - 5) + '" y="' + (y + r - 4) + '" width="10" height="10" fill="' + SKIN +
    '" stroke="' + INK + '" stroke-width="1.5"/>' +
    '<circle cx="' + x + '" cy="' + y + '" r="' + r + '" fill="' + SKIN + '" stroke="' + INK +
    '" stroke-width="2"/>' +
    '<circle cx="' + (x - r * 0.36) + '" cy="' + (y - 1) + '" r="1.8" fill="' + INK + '"/>' +
    '<circle cx="' + (x + r * 0.36) + '" cy="' + (y - 1) + '" r="1.8" fill="' + INK + '"/>' +
    '<path d="M' + (x - 4) + " " + (y + r * 0.5) + " Q" + x + " " + (y + r * 0.5 + 3) + " " + (x + 4) +
    " " + (y + r * 0.5) + '" fill="none" stroke="' + INK + '" stroke-width="1.5"/>' +
    (beard ? '<path d="M' + (x - r + 2) + " " + (y + 2) + " Q" + (x - r + 4) + " " + (y + r + 16) + " " +
      x + " " + (y + r + 18) + " Q" + (x + r - 4) + " " + (y + r + 16) + " " + (x + r - 2) + " " +
      (y + 2) + " Q" + x + " " + (y + r * 0.8) + " " + (x - r + 2) + " " + (y + 2) + 'Z" fill="' +
      beard + '" stroke="' + INK + '" stroke-width="1.5"/>' : "");
}

// A hat with a wide brim and a band, its brim centred on (x, y).
function brimmedHat(x, y, color, band) {
  return '<path d="M' + (x - 13) + " " + y + " Q" + (x - 12) + " " + (y - 22) + " " + x + " " + (y - 22) + " Q" +
    (x + 12) + " " + (y - 22) + " " + (x + 13) + " " + y + ' Z" fill="' + color + '" stroke="' + INK +
    '" stroke-width="1.5"/>' +
    '<rect x="' + (x - 13) + '" y="' + (y - 6) + '" width="26" height="5" fill="' + band + '"/>' +
    '<ellipse cx="' + x + '" cy="' + y + '" rx="27" ry="5" fill="' + color + '" stroke="' + INK +
    '" stroke-width="1.5"/>';
}

function ground() {
  return '<ellipse cx="100" cy="268" rx="62" ry="6" fill="#000" opacity="0.12"/>';
}

// The knave: a young man standing in a short tunic and a feathered cap, the sign raised in his
// right hand. palette: {robe, trim, hose, hat, brim}; held: the sign's markup around 0,0. With
// `brim` the cap is a wide-brimmed hat (the Spanish figures wear one).
export function knave(palette, held) {
  const { robe, trim, hose, hat, brim = false } = palette;
  return '<g class="figure knave">' + ground() +
    shape('rect x="85" y="210" width="12" height="54"', hose, 1.5) +
    shape('rect x="103" y="210" width="12" height="54"', hose, 1.5) +
    '<ellipse cx="89" cy="265" rx="10" ry="4.5" fill="' + INK + '"/>' +
    '<ellipse cx="111" cy="265" rx="10" ry="4.5" fill="' + INK + '"/>' +
    shape('path d="M72 120 L128 120 L142 218 L58 218 Z"', robe, 2) +
    '<path d="M58 218 L142 218 L140 206 L60 206 Z" fill="' + trim + '"/>' +
    shape('rect x="66" y="164" width="68" height="8"', trim, 1) +
    '<path d="M100 120 L100 164" stroke="' + trim + '" stroke-width="4"/>' +
    shape('path d="M73 124 L56 184 L66 187 L82 134 Z"', robe, 1.5) +
    shape('circle cx="61" cy="189" r="6"', SKIN, 1.5) +
    shape('path d="M127 124 L150 150 L143 158 L120 136 Z"', robe, 1.5) +
    head(100, 96, 17) +
    (brim ? brimmedHat(100, 84, hat, trim)
      : '<path d="M78 92 Q80 66 104 68 Q124 70 124 90 L126 94 L76 96 Z" fill="' + hat + '" stroke="' + INK +
        '" stroke-width="1.5"/>' +
        shape('path d="M118 74 Q136 52 146 60 Q132 62 122 80 Z"', trim, 1)) +
    '<g transform="translate(150 150)">' + held + "</g>" +
    shape('circle cx="148" cy="155" r="6"', SKIN, 1.5) +
    "</g>";
}

// The knight: a rider on a horse walking to the right, the sign raised in his left hand.
// palette: {robe, trim, hose, hat, horse, brim}.
export function knight(palette, held) {
  const { robe, trim, hose, hat, horse, brim = false } = palette;
  const legs = [52, 68, 122, 138].map((x, i) =>
    '<path d="M' + x + " 214 L" + (x + (i % 2 ? 4 : -4)) + " 262 L" + (x + (i % 2 ? 12 : 4)) + " 262 L" +
    (x + 9) + ' 214 Z" fill="' + horse + '" stroke="' + INK + '" stroke-width="1.5"/>' +
    '<rect x="' + (x + (i % 2 ? 3 : -5)) + '" y="260" width="11" height="6" fill="' + INK + '"/>').join("");
  return '<g class="figure knight">' + ground() + legs +
    '<path d="M44 196 Q20 214 30 252 Q34 226 50 210 Z" fill="' + INK + '"/>' +
    shape('ellipse cx="96" cy="200" rx="56" ry="26"', horse, 2) +
    shape('path d="M128 190 L146 136 L166 142 L152 204 Z"', horse, 2) +
    '<path d="M146 136 L180 156 Q184 166 174 168 L150 158 Z" fill="' + horse + '" stroke="' + INK +
    '" stroke-width="2"/>' +
    shape('path d="M148 138 L150 124 L158 138 Z"', horse, 1.5) +
    '<circle cx="160" cy="148" r="2.2" fill="' + INK + '"/>' +
    '<path d="M144 140 Q132 160 128 188 L136 186 Q140 162 150 142 Z" fill="' + INK + '"/>' +
    shape('path d="M68 176 L124 176 L120 216 L72 216 Z"', trim, 1.5) +
    '<path d="M150 152 L110 178" stroke="' + INK + '" stroke-width="1.5"/>' +
    shape('path d="M84 126 L114 126 L118 182 L80 182 Z"', robe, 2) +
    shape('path d="M92 180 L106 180 L108 226 L96 226 Z"', hose, 1.5) +
    '<path d="M94 226 L112 226 L112 232 L94 232 Z" fill="' + INK + '"/>' +
    shape('path d="M86 130 L64 112 L58 120 L80 140 Z"', robe, 1.5) +
    head(99, 108, 14) +
    (brim ? brimmedHat(99, 98, hat, trim)
      : '<path d="M82 104 Q84 80 100 82 Q118 82 118 104 L122 104 L122 108 L78 108 L78 104 Z" fill="' + hat +
        '" stroke="' + INK + '" stroke-width="1.5"/>') +
    '<g transform="translate(58 112)">' + held + "</g>" +
    shape('circle cx="60" cy="116" r="5.5"', SKIN, 1.5) +
    "</g>";
}

// The king: a bearded man crowned, in a long robe with an ermine hem, the sign in his right hand.
// palette: {robe, trim, hose, hat, beard}.
export function king(palette, held) {
  const { robe, trim, hat, beard } = palette;
  let ermine = "";
  for (let x = 58; x <= 140; x += 14) {
    ermine += '<path d="M' + x + " 252 l2 6 l2 -6 Z" + '" fill="' + INK + '"/>';
  }
  return '<g class="figure king">' + ground() +
    shape('path d="M70 118 L130 118 L150 264 L50 264 Z"', robe, 2) +
    shape('path d="M50 264 L150 264 L148 248 L52 248 Z"', "#fbfbf5", 1.5) +
    ermine +
    '<path d="M86 118 L100 250 L114 118 Z" fill="' + trim + '" opacity="0.9"/>' +
    shape('path d="M66 124 Q100 146 134 124 L130 118 L70 118 Z"', "#fbfbf5", 1.5) +
    shape('path d="M72 126 L58 180 L68 184 L82 136 Z"', robe, 1.5) +
    shape('circle cx="63" cy="186" r="6"', SKIN, 1.5) +
    shape('path d="M128 126 L150 152 L143 160 L120 138 Z"', robe, 1.5) +
    head(100, 94, 17, { beard }) +
    '<path d="M81 84 L80 58 L90 70 L100 52 L110 70 L120 58 L119 84 Z" fill="' + hat + '" stroke="' + INK +
    '" stroke-width="1.5"/>' +
    '<circle cx="100" cy="74" r="3" fill="#c0392b"/><circle cx="88" cy="78" r="2" fill="#2e5fa8"/>' +
    '<circle cx="112" cy="78" r="2" fill="#2e5fa8"/>' +
    '<g transform="translate(150 150)">' + held + "</g>" +
    shape('circle cx="148" cy="156" r="6"', SKIN, 1.5) +
    "</g>";
}
