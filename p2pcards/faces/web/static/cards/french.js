// The French deck of Burraco and Rumino: hearts, diamonds, clubs, spades from Ace to 10 as pips,
// Jack, Queen and King as double-ended busts, and the joker. The two copies of a card draw the
// same face, and so do the four jokers: the face depends only on rank and suit.

import { card, cornerIndex, outlined, place } from "./svg.js";

const INK = "#1a1a1a";
// A shape outlined in ink, `width` units wide.
const shape = (element, fill, width) => outlined(element, fill, INK, width);
const RED = "#c8102e";
const SKIN = "#f3d2b3";

export function heart() {
  return '<path d="M0 20 C-8 12 -24 2 -24 -9 C-24 -17 -18 -22 -12 -22 C-6 -22 -2 -18 0 -13 C2 -18 6 -22 12 -22 ' +
    'C18 -22 24 -17 24 -9 C24 2 8 12 0 20 Z" fill="' + RED + '"/>';
}

export function diamond() {
  return '<path d="M0 -24 Q8 -10 18 0 Q8 10 0 24 Q-8 10 -18 0 Q-8 -10 0 -24 Z" fill="' + RED + '"/>';
}

export function spade() {
  return '<path d="M0 -23 C-6 -12 -24 -4 -24 7 C-24 14 -18 18 -12 18 C-7 18 -3 15 -2 12 Q-3 19 -8 23 L8 23 ' +
    'Q3 19 2 12 C3 15 7 18 12 18 C18 18 24 14 24 7 C24 -4 6 -12 0 -23 Z" fill="' + INK + '"/>';
}

export function club() {
  return '<circle cx="0" cy="-11" r="10" fill="' + INK + '"/><circle cx="-11" cy="5" r="10" fill="' + INK + '"/>' +
    '<circle cx="11" cy="5" r="10" fill="' + INK + '"/><circle cx="0" cy="2" r="5" fill="' + INK + '"/>' +
    '<path d="M-2 4 Q-2 16 -8 23 L8 23 Q2 16 2 4 Z" fill="' + INK + '"/>';
}

const SIGNS = { H: heart, D: diamond, C: club, S: spade };
const SUIT_NAMES = { H: "Hearts", D: "Diamonds", C: "Clubs", S: "Spades" };
const RANK_NAMES = { 1: "Ace", 11: "Jack", 12: "Queen", 13: "King" };
const LABELS = { 1: "A", 10: "10", 11: "J", 12: "Q", 13: "K" };

// The usual places of the pips, [x, y]; those below the middle are drawn upside down.
const L = 62;
const M = 100;
const R = 138;
const LAYOUTS = {
  2: [[M, 62], [M, 238]],
  3: [[M, 62], [M, 150], [M, 238]],
  4: [[L, 62], [R, 62], [L, 238], [R, 238]],
  5: [[L, 62], [R, 62], [M, 150], [L, 238], [R, 238]],
  6: [[L, 62], [R, 62], [L, 150], [R, 150], [L, 238], [R, 238]],
  7: [[L, 62], [R, 62], [M, 106], [L, 150], [R, 150], [L, 238], [R, 238]],
  8: [[L, 62], [R, 62], [M, 106], [L, 150], [R, 150], [M, 194], [L, 238], [R, 238]],
  9: [[L, 62], [R, 62], [L, 121], [R, 121], [M, 150], [L, 179], [R, 179], [L, 238], [R, 238]],
  10: [[L, 62], [R, 62], [M, 92], [L, 121], [R, 121], [L, 179], [R, 179], [M, 208], [L, 238], [R, 238]],
};

function pips(rank, suit) {
  const sign = SIGNS[suit]();
  if (rank === 1) {
    const ring = suit === "S"
      ? '<circle cx="100" cy="150" r="62" fill="none" stroke="' + INK + '" stroke-width="1.5" stroke-dasharray="2 4"/>'
      : "";
    return ring + place(sign, 100, 150, { scale: 2.5, cls: "pip" });
  }
  return LAYOUTS[rank].map(([x, y]) => place(sign, x, y, { scale: 0.92, angle: y > 150 ? 180 : 0, cls: "pip" })).join("");
}

const PALETTES = {
  H: { robe: RED, trim: "#f1c40f", band: "#2e5fa8" },
  D: { robe: "#f1c40f", trim: "#2e5fa8", band: RED },
  C: { robe: "#2e5fa8", trim: RED, band: "#f1c40f" },
  S: { robe: "#2a2a2a", trim: "#f1c40f", band: RED },
};

// One half of a court card: a bust from the waist up with its headgear and the suit sign.
function bust(rank, suit) {
  const { robe, trim, band } = PALETTES[suit];
  const eyes = '<circle cx="93" cy="74" r="1.8" fill="' + INK + '"/><circle cx="107" cy="74" r="1.8" fill="' + INK + '"/>' +
    '<path d="M95 86 Q100 89 105 86" fill="none" stroke="' + INK + '" stroke-width="1.5"/>';
  let hair = "";
  let headgear = "";
  let beard = "";
  if (rank === 13) {
    headgear = '<path d="M79 62 L78 36 L89 48 L100 30 L111 48 L122 36 L121 62 Z" fill="#f1c40f" stroke="' + INK +
      '" stroke-width="1.5"/><circle cx="100" cy="50" r="3" fill="' + band + '"/>';
    beard = '<path d="M81 76 Q82 104 100 108 Q118 104 119 76 Q110 92 100 90 Q90 92 81 76 Z" fill="#6b4a2a" stroke="' +
      INK + '" stroke-width="1.2"/>';
  } else if (rank === 12) {
    hair = '<path d="M80 66 Q72 100 70 112 L86 106 Q82 90 84 70 Z M120 66 Q128 100 130 112 L114 106 Q118 90 116 70 Z" ' +
      'fill="#8a5a2b" stroke="' + INK + '" stroke-width="1.2"/>';
    headgear = '<path d="M82 60 Q100 40 118 60 L114 50 L107 54 L100 42 L93 54 L86 50 Z" fill="#f1c40f" stroke="' + INK +
      '" stroke-width="1.5"/><circle cx="100" cy="47" r="2.5" fill="' + band + '"/>' +
      shape('path d="M60 112 Q52 98 60 90 Q68 96 64 108 Z"', band, 1);
  } else {
    headgear = '<path d="M78 64 Q78 42 102 42 Q124 44 124 64 Z" fill="' + trim + '" stroke="' + INK +
      '" stroke-width="1.5"/><path d="M80 48 Q62 30 52 38 Q66 40 76 56 Z" fill="' + band + '" stroke="' + INK +
      '" stroke-width="1"/>';
  }
  return hair +
    '<path d="M40 150 L40 130 Q44 108 74 102 L126 102 Q156 108 160 130 L160 150 Z" fill="' + robe + '" stroke="' +
    INK + '" stroke-width="2"/>' +
    shape('path d="M62 150 L84 104 L96 104 L74 150 Z"', trim, 1) +
    shape('path d="M138 150 L116 104 L104 104 L126 150 Z"', band, 1) +
    shape('path d="M78 102 Q100 122 122 102 Z"', "#fbfbf5", 1.5) +
    shape('circle cx="100" cy="76" r="20"', SKIN, 2) + eyes + beard +
    headgear + place(SIGNS[suit](), 146, 50, { scale: 0.62, cls: "emblem" });
}

function court(rank, suit) {
  const half = bust(rank, suit);
  const frameColor = suit === "H" || suit === "D" ? RED : INK;
  return '<g class="figure court">' +
    '<rect x="34" y="26" width="132" height="248" fill="#fbf3df" stroke="' + frameColor + '" stroke-width="1.5"/>' +
    '<g>' + half + '</g><g transform="rotate(180 100 150)">' + half + "</g>" +
    '<path d="M34 150 L166 150" stroke="' + frameColor + '" stroke-width="1.5"/></g>';
}

function joker() {
  const stacked = (color, x, y) => '<text x="' + x + '" y="' + y + '" text-anchor="middle" font-family="sans-serif" ' +
    'font-weight="bold" font-size="17" fill="' + color + '">' +
    ["J", "O", "K", "E", "R"].map((ch, i) => '<tspan x="' + x + '" dy="' + (i ? 17 : 0) + '">' + ch + "</tspan>").join("") +
    "</text>";
  let ruff = "M62 188";
  for (let i = 0; i < 8; i++) ruff += " L" + (67 + i * 9.5) + " " + (i % 2 ? 188 : 204) + " L" + (71.75 + i * 9.5) + " 188";
  return '<g class="figure joker">' +
    shape('path d="M52 270 Q56 206 100 196 Q144 206 148 270 Z"', "#2e7d4f", 2) +
    '<path d="M100 196 L100 270" stroke="#f1c40f" stroke-width="5"/>' +
    '<path d="' + ruff + ' Z" fill="#fbfbf5" stroke="' + INK + '" stroke-width="1.5"/>' +
    shape('circle cx="100" cy="160" r="26"', SKIN, 2) +
    '<circle cx="91" cy="156" r="2.2" fill="' + INK + '"/><circle cx="109" cy="156" r="2.2" fill="' + INK + '"/>' +
    '<path d="M86 170 Q100 184 114 170" fill="none" stroke="' + RED + '" stroke-width="2.5"/>' +
    '<circle cx="100" cy="165" r="3.5" fill="' + RED + '"/>' +
    shape('path d="M74 146 Q60 110 46 92 Q80 100 92 140 Z"', RED, 1.5) +
    shape('path d="M88 138 Q92 96 100 70 Q108 96 112 138 Z"', "#f1c40f", 1.5) +
    shape('path d="M126 146 Q140 110 154 92 Q120 100 108 140 Z"', "#2e5fa8", 1.5) +
    shape('path d="M72 146 Q100 128 128 146 L128 140 Q100 122 72 140 Z"', "#2e7d4f", 1.5) +
    shape('circle cx="46" cy="92" r="6"', "#f1c40f", 1.2) +
    shape('circle cx="100" cy="68" r="6"', "#f1c40f", 1.2) +
    shape('circle cx="154" cy="92" r="6"', "#f1c40f", 1.2) +
    '<path d="M100 34 L104 44 L115 44 L106 51 L109 62 L100 55 L91 62 L94 51 L85 44 L96 44 Z" fill="' + RED + '"/>' +
    "</g>" + '<g class="index">' + stacked(RED, 20, 30) + '<g transform="rotate(180 100 150)">' + stacked(INK, 20, 30) +
    "</g></g>";
}

// The French face of rank 1..13 and suit H, D, C or S, or the joker (rank 0, suit X).
export function frenchFace(rank, suit) {
  if (suit === "X") return card(joker(), { title: "Joker", kind: "face french" });
  const color = suit === "H" || suit === "D" ? RED : INK;
  const label = LABELS[rank] ?? String(rank);
  const index = cornerIndex(label, {
    color, size: rank === 10 ? 21 : 25, x: 19, y: 32, family: "sans-serif",
    sign: SIGNS[suit](), signScale: 0.42,
  });
  const body = rank <= 10 ? pips(rank, suit) : court(rank, suit);
  const title = (RANK_NAMES[rank] ?? String(rank)) + " of " + SUIT_NAMES[suit];
  return card(body + index, { title, kind: "face french" });
}
