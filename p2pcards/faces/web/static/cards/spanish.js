// The Spanish 40-card deck of Tute: oros (gold coins with a star), copas (goblets), espadas
// (straight swords), bastos (rough clubs); 1 to 7 as pips, sota, caballo and rey as figures
// with the Spanish indices 10, 11, 12. The frame line is broken by the "pinta": no gap for oros,
// one for copas, two for espadas, three for bastos, at the top and at the bottom.

import { card, cornerIndex, outlined, place } from "./svg.js";
import { king, knave, knight } from "./figures.js";
import { ROUND_LAYOUTS, longPips } from "./layouts.js";

const INK = "#2b2118";
// A shape outlined in ink, `width` units wide.
const shape = (element, fill, width) => outlined(element, fill, INK, width);

export function oro() {
  let dots = "";
  for (let k = 0; k < 12; k++) {
    const a = (k * 30 * Math.PI) / 180;
    dots += '<circle cx="' + (22.5 * Math.cos(a)).toFixed(1) + '" cy="' + (22.5 * Math.sin(a)).toFixed(1) +
      '" r="1.6" fill="#8a4b08"/>';
  }
  return '<circle r="26" fill="#f4c430" stroke="#8a4b08" stroke-width="2"/>' + dots +
    '<circle r="18.5" fill="#fbe08a" stroke="#b8322a" stroke-width="2.5"/>' +
    '<path d="M0 -14 L4 -4 L14 0 L4 4 L0 14 L-4 4 L-14 0 L-4 -4 Z" fill="#e07b1a" stroke="#8a4b08" stroke-width="1.2"/>' +
    '<circle r="3.5" fill="#b8322a"/>';
}

export function copa() {
  return shape('path d="M-18 28 L18 28 L9 19 L-9 19 Z"', "#f4c430", 1.5) +
    shape('rect x="-3" y="4" width="6" height="16"', "#f4c430", 1.2) +
    shape('circle cx="0" cy="9" r="4.5"', "#b8322a", 1) +
    shape('circle cx="0" cy="17" r="3.5"', "#b8322a", 1) +
    shape('path d="M-19 -22 Q-25 -2 -7 5 L7 5 Q25 -2 19 -22 Z"', "#f4c430", 1.8) +
    shape('path d="M-20 -28 L20 -28 L19 -20 L-19 -20 Z"', "#b8322a", 1.5) +
    shape('circle cx="0" cy="-7" r="4"', "#2e5fa8", 1);
}

export function espada() {
  return '<path d="M-5 66 L-5 -96 L0 -110 L5 -96 L5 66 Z" fill="#8fb4d6" stroke="#1f3550" stroke-width="2"/>' +
    '<path d="M0 62 L0 -100" stroke="#e9f2fa" stroke-width="1.5"/>' +
    '<path d="M-28 62 Q-14 72 0 66 Q14 72 28 62 L28 70 Q14 80 0 74 Q-14 80 -28 70 Z" fill="#e0a92e" stroke="' +
    INK + '" stroke-width="1.5"/>' +
    shape('rect x="-4" y="74" width="8" height="24"', "#b8322a", 1.5) +
    shape('circle cx="0" cy="102" r="6"', "#e0a92e", 1.5);
}

export function basto() {
  let knots = "";
  for (const [y, side] of [[-72, -1], [-44, 1], [-14, -1], [18, 1], [50, -1]]) {
    const x = side * (13 - (y + 100) * 0.035);
    knots += '<circle cx="' + x.toFixed(1) + '" cy="' + y + '" r="4.5" fill="#7a4a1d" stroke="' + INK +
      '" stroke-width="1"/><circle cx="' + x.toFixed(1) + '" cy="' + y + '" r="2" fill="#e8c48a"/>';
  }
  return '<path d="M-16 -94 Q0 -114 16 -94 Q13 0 7 96 Q0 104 -7 96 Q-13 0 -16 -94 Z" fill="#d9a25a" ' +
    'stroke="#5b3a18" stroke-width="2"/>' +
    '<path d="M-4 -96 Q-6 0 -2 94" fill="none" stroke="#f0cf95" stroke-width="3"/>' + knots +
    '<path d="M-12 -98 Q0 -108 12 -98" fill="none" stroke="#3e8e41" stroke-width="4"/>';
}

const SIGNS = { D: oro, C: copa, S: espada, B: basto };
const SUIT_NAMES = { D: "Oros", C: "Copas", S: "Espadas", B: "Bastos" };
const RANK_NAMES = { 1: "As", 8: "Sota", 9: "Caballo", 10: "Rey" };
// The corner index says the rank as the card's code does (J sota, Q caballo, K rey), as logs
// and typed moves say it.
const INDEX = { 1: "A", 8: "J", 9: "Q", 10: "K" };
const PINTA_GAPS = { D: 0, C: 1, S: 2, B: 3 };

// The inner frame line, broken `gaps` times at the top and at the bottom.
function pintaFrame(gaps) {
  const left = 14;
  const right = 186;
  const gapWidth = 16;
  let d = "M" + left + " 14 L" + left + " 286 M" + right + " 14 L" + right + " 286";
  for (const y of [14, 286]) {
    let x = left;
    for (let i = 1; i <= gaps; i++) {
      const centre = left + ((right - left) * i) / (gaps + 1);
      d += " M" + x + " " + y + " L" + (centre - gapWidth / 2) + " " + y;
      x = centre + gapWidth / 2;
    }
    d += " M" + x + " " + y + " L" + right + " " + y;
  }
  return '<path class="pinta" d="' + d + '" fill="none" stroke="#1f3550" stroke-width="2.5" stroke-linecap="square"/>';
}

function pips(suit, value) {
  const sign = SIGNS[suit]();
  if (suit === "D" || suit === "C") {
    return ROUND_LAYOUTS[suit][value].map(([x, y]) =>
      place(sign, x, y, { scale: value === 7 ? 0.98 : 1.02, cls: "pip" })).join("");
  }
  return longPips(value, sign, { shrink: 0.97 });
}

function ace(suit) {
  const sign = SIGNS[suit]();
  if (suit === "D") {
    let rays = "";
    for (let k = 0; k < 16; k++) {
      rays += '<path d="M-5 -70 L0 -84 L5 -70 Z" fill="#e07b1a" transform="rotate(' + k * 22.5 + ')"/>';
    }
    return '<g transform="translate(100 150)">' + rays + "</g>" + place(sign, 100, 150, { scale: 2.55, cls: "pip" });
  }
  const ribbon = '<path d="M40 205 Q70 180 100 196 Q130 212 160 188 L162 198 Q130 224 100 208 Q70 192 42 215 Z" ' +
    'fill="#b8322a" stroke="' + INK + '" stroke-width="1.5"/>';
  if (suit === "C") return place(sign, 100, 138, { scale: 2.5, cls: "pip" }) + place(ribbon, 0, 42);
  return place(sign, 100, 150, { scale: 1.14, cls: "pip" }) + ribbon;
}

const PALETTES = {
  D: { robe: "#c8102e", trim: "#f4c430", hose: "#2e5fa8", hat: "#2e5fa8", horse: "#e9e4d6", beard: "#6b4a2a" },
  C: { robe: "#f4c430", trim: "#c8102e", hose: "#3e8e41", hat: "#c8102e", horse: "#8a5a2b", beard: "#d6d6d6" },
  S: { robe: "#2e5fa8", trim: "#c8102e", hose: "#f4c430", hat: "#c8102e", horse: "#e9e4d6", beard: "#3b2a1a" },
  B: { robe: "#3e8e41", trim: "#f4c430", hose: "#c8102e", hat: "#f4c430", horse: "#8a5a2b", beard: "#a0a0a0" },
};

function heldSign(suit) {
  const sign = SIGNS[suit]();
  if (suit === "D") return place(sign, 6, -24, { scale: 0.9, cls: "emblem" });
  if (suit === "C") return place(sign, 4, -26, { scale: 0.9, cls: "emblem" });
  return place(sign, 0, -10, { scale: 0.46, angle: suit === "S" ? 0 : 10, cls: "emblem" });
}

// The Spanish figures wear brimmed hats and face the other way from the Italian ones.
function figure(rank, suit) {
  const palette = { ...PALETTES[suit], brim: true };
  const held = heldSign(suit);
  const drawn = rank === 8 ? knave(palette, held)
    : rank === 9 ? knight(palette, held) : king({ ...palette, hat: "#f4c430" }, held);
  return '<g transform="translate(200 0) scale(-1 1)">' + drawn + "</g>";
}

// The Spanish face of rank 1..10 (8, 9, 10: sota, caballo, rey) and suit D, C, S or B.
export function spanishFace(rank, suit) {
  const body = rank === 1 ? ace(suit) : rank <= 7 ? pips(suit, rank) : figure(rank, suit);
  const color = { D: "#9a5b00", C: "#c8102e", S: "#1f3550", B: "#2f6b30" }[suit];
  const index = cornerIndex(INDEX[rank] ?? String(rank), {
    color, size: 22, x: 30, y: 40, family: "sans-serif",
  });
  const title = (RANK_NAMES[rank] ?? String(rank)) + " de " + SUIT_NAMES[suit];
  return card(pintaFrame(PINTA_GAPS[suit]) + body + index, { title, kind: "face spanish" });
}
