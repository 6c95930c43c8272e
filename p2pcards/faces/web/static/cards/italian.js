// The Italian 40-card deck: Denari (coins with a rosette), Coppe (chalices), Spade (curved
// swords), Bastoni (knotted batons); Asso to 7 as pips, Fante, Cavallo and Re as figures.
// Every suit sign is drawn around 0,0: coins and cups about 55 units high, swords and batons
// about 220 long, upright.

import { card, cornerIndex, outlined, place } from "./svg.js";
import { king, knave, knight } from "./figures.js";
import { ROUND_LAYOUTS, longPips } from "./layouts.js";

const INK = "#2b2118";
// A shape outlined in ink, `width` units wide.
const shape = (element, fill, width) => outlined(element, fill, INK, width);

export function coin() {
  let petals = "";
  for (let k = 0; k < 8; k++) {
    petals += '<ellipse cx="0" cy="-9" rx="3.6" ry="8" fill="#b8322a" transform="rotate(' + k * 45 + ')"/>';
  }
  return '<circle r="26" fill="#e3ad2f" stroke="#6d440b" stroke-width="2"/>' +
    '<circle r="21" fill="#f5d46a" stroke="#a8701a" stroke-width="1.5"/>' + petals +
    '<circle r="4.5" fill="#2e6b3a" stroke="#6d440b" stroke-width="1"/>';
}

export function cup() {
  return shape('path d="M-16 27 Q0 15 16 27 Z"', "#e0a92e", 1.5) +
    shape('rect x="-3.5" y="4" width="7" height="18"', "#e0a92e", 1.2) +
    shape('ellipse cx="0" cy="12" rx="7.5" ry="4"', "#b8322a", 1.2) +
    '<path d="M-22 -26 L22 -26 Q21 2 0 6 Q-21 2 -22 -26 Z" fill="#e0a92e" stroke="' + INK +
    '" stroke-width="1.8"/>' +
    '<path d="M-21.5 -16 L21.5 -16 L20.5 -9 L-20.5 -9 Z" fill="#2e5fa8"/>' +
    shape('ellipse cx="0" cy="-26" rx="22" ry="4.5"', "#b8322a", 1.5);
}

export function sword() {
  return '<path d="M-6 70 Q-26 -10 2 -110 Q-8 -12 7 70 Z" fill="#a9c1d3" stroke="#24384a" stroke-width="2"/>' +
    '<path d="M0 66 Q-12 -8 1 -96" fill="none" stroke="#ffffff" stroke-width="1.5" opacity="0.8"/>' +
    shape('rect x="-24" y="68" width="48" height="8" rx="4"', "#d9a21b", 1.5) +
    shape('rect x="-4.5" y="76" width="9" height="24"', "#8b2c1e", 1.5) +
    shape('circle cx="0" cy="104" r="6.5"', "#d9a21b", 1.5);
}

export function baton() {
  let knots = "";
  for (const [y, side] of [[-70, 1], [-38, -1], [-6, 1], [26, -1], [58, 1]]) {
    const x = side * (8 - y * 0.012);
    knots += '<ellipse cx="' + x.toFixed(1) + '" cy="' + y + '" rx="6" ry="3.5" fill="#5b3a18" stroke="' + INK +
      '" stroke-width="1" transform="rotate(' + side * -30 + " " + x.toFixed(1) + " " + y + ')"/>';
  }
  return '<path d="M-10 -98 Q0 -112 10 -98 L6 100 Q0 108 -6 100 Z" fill="#6f9a3a" stroke="#2f4214" stroke-width="2"/>' +
    '<path d="M-2 -96 L-1 96" stroke="#a9cf6a" stroke-width="2.5"/>' + knots +
    '<rect x="-10.5" y="-92" width="21" height="7" fill="#b8322a"/>' +
    '<rect x="-7" y="84" width="14" height="7" fill="#b8322a"/>';
}

const SIGNS = { D: coin, C: cup, S: sword, B: baton };
const SUIT_NAMES = { D: "Denari", C: "Coppe", S: "Spade", B: "Bastoni" };
const RANK_NAMES = { 1: "Asso", 8: "Fante", 9: "Cavallo", 10: "Re" };

function pips(suit, value) {
  const sign = SIGNS[suit]();
  if (suit === "D" || suit === "C") {
    return ROUND_LAYOUTS[suit][value].map(([x, y]) =>
      place(sign, x, y, { scale: value === 7 ? 1 : 1.05, cls: "pip" })).join("");
  }
  return longPips(value, sign, { flipLeft: true });
}

// Two branches of leaves round the Ace's sign, tied with a red bow at the bottom.
function wreath() {
  let leaves = "";
  for (let k = 0; k < 14; k++) {
    const degrees = -70 + k * 10;
    const a = (degrees * Math.PI) / 180;
    for (const side of [-1, 1]) {
      const x = (100 + side * 84 * Math.cos(a)).toFixed(1);
      const y = (150 + 84 * Math.sin(a) * 1.35).toFixed(1);
      const turn = side > 0 ? degrees : 180 - degrees;
      leaves += '<ellipse cx="' + x + '" cy="' + y + '" rx="4" ry="9" fill="#3f7d3a" stroke="#1f3d1c" ' +
        'stroke-width="1" transform="rotate(' + turn + " " + x + " " + y + ')"/>';
    }
  }
  return '<g class="ornament">' + leaves +
    shape('path d="M86 268 Q100 256 114 268 Q100 280 86 268 Z"', "#b8322a", 1) +
    "</g>";
}

function ace(suit) {
  const sign = SIGNS[suit]();
  const big = suit === "D" ? place(sign, 100, 150, { scale: 2.45, cls: "pip" })
    : suit === "C" ? place(sign, 100, 150, { scale: 2.3, cls: "pip" })
      : place(sign, 100, 150, { scale: 1.12, cls: "pip" });
  const flourish = suit === "D"
    ? '<circle cx="100" cy="150" r="70" fill="none" stroke="#6d440b" stroke-width="2" stroke-dasharray="3 5"/>'
    : "";
  return wreath() + flourish + big;
}

const PALETTES = {
  D: { robe: "#b8322a", trim: "#f1c40f", hose: "#2c3e50", hat: "#2e6b3a", horse: "#f1ead8", beard: "#7a5230" },
  C: { robe: "#2e5fa8", trim: "#f1c40f", hose: "#b8322a", hat: "#b8322a", horse: "#a8693a", beard: "#c9c9c9" },
  S: { robe: "#2e7d4f", trim: "#e0a92e", hose: "#2e5fa8", hat: "#2e5fa8", horse: "#f1ead8", beard: "#4a3420" },
  B: { robe: "#d68a1c", trim: "#b8322a", hose: "#2e7d4f", hat: "#2e7d4f", horse: "#a8693a", beard: "#9a9a9a" },
};

// The sign as a figure holds it, around the hand.
function heldSign(suit) {
  const sign = SIGNS[suit]();
  if (suit === "D") return place(sign, 6, -24, { scale: 0.9, cls: "emblem" });
  if (suit === "C") return place(sign, 4, -28, { scale: 0.9, cls: "emblem" });
  return place(sign, 0, -8, { scale: 0.46, angle: 8, cls: "emblem" });
}

// Fante (8), Cavallo (9) or Re (10) of a suit.
function figure(rank, suit) {
  const palette = PALETTES[suit];
  const held = heldSign(suit);
  if (rank === 8) return knave(palette, held);
  if (rank === 9) return knight(palette, held);
  return king({ ...palette, hat: "#e8b923" }, held);
}

// The corner index says the rank as the card's code does, as logs and typed moves say it.
const INDEX = { 1: "A", 8: "J", 9: "Q", 10: "K" };

// The small sign under a corner index, scaled to fit.
function cornerSign(suit) {
  return place(SIGNS[suit](), 0, 0, { scale: suit === "D" || suit === "C" ? 0.36 : 0.14 });
}

// The Italian face of rank 1..10 and suit D, C, S or B.
export function italianFace(rank, suit) {
  const body = rank === 1 ? ace(suit) : rank <= 7 ? pips(suit, rank) : figure(rank, suit);
  const color = suit === "D" || suit === "C" ? "#8e2a1e" : "#1f3550";
  const index = cornerIndex(INDEX[rank] ?? String(rank), {
    color, size: 26, x: 19, y: 32, sign: cornerSign(suit), signScale: 1,
  });
  const title = (RANK_NAMES[rank] ?? String(rank)) + " di " + SUIT_NAMES[suit];
  return card(body + index, { title, kind: "face italian" });
}
