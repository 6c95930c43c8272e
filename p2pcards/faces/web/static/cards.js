// Card faces for the web table, drawn as SVG markup by hand (no images, no fonts, no requests).
//
// Contract, used by the page:
//   cardSvg(code, family) -> string   SVG markup of one card face, viewBox "0 0 200 300";
//                                       code is a card code of p2pcards.cards ("7D", "KB", "QH1",
//                                       "X2"), family is "italian", "spanish" or "french".
//                                       "??" draws the back.
//   cardBack() -> string              SVG markup of the back of a card, same viewBox.
//
// The two copies of a French card ("QH1", "QH2") draw the same face, as do the four jokers. A
// code the family does not know (or a family this module does not know) draws a clearly marked
// "unknown card" face; neither function ever throws. The suit signs a pip card counts carry the
// class "pip" (the Ace has one); the root element has the classes "card-art face <family>",
// "card-art back" or "card-art face unknown" (not "card": the page wraps each face in its own
// element of class "card").

import { back } from "./cards/back.js";
import { frenchFace } from "./cards/french.js";
import { italianFace } from "./cards/italian.js";
import { spanishFace } from "./cards/spanish.js";
import { unknownCard } from "./cards/svg.js";

const ITALIAN_RANKS = { A: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, J: 8, Q: 9, K: 10 };
const FRENCH_RANKS = { A: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, T: 10, J: 11, Q: 12, K: 13 };

export function cardBack() {
  return back();
}

// The rank (1..10) and suit of an Italian or Spanish code, or null.
function parseForty(code) {
  const match = /^([A2-7JQK])([DCSB])$/.exec(code);
  return match ? { rank: ITALIAN_RANKS[match[1]], suit: match[2] } : null;
}

// The rank (1..13, 0 for a joker) and suit of a French code, whichever copy; or null.
function parseFrench(code) {
  if (/^X[1-4]$/.test(code)) return { rank: 0, suit: "X" };
  const match = /^([A2-9TJQK])([HDCS])([12])$/.exec(code);
  return match ? { rank: FRENCH_RANKS[match[1]], suit: match[2] } : null;
}

function draw(code, family) {
  if (code === "??") return back();
  if (typeof code !== "string") return null;
  if (family === "italian") {
    const parsed = parseForty(code);
    return parsed ? italianFace(parsed.rank, parsed.suit) : null;
  }
  if (family === "spanish") {
    const parsed = parseForty(code);
    return parsed ? spanishFace(parsed.rank, parsed.suit) : null;
  }
  if (family === "french") {
    const parsed = parseFrench(code);
    return parsed ? frenchFace(parsed.rank, parsed.suit) : null;
  }
  return null;
}

// Faces already drawn, by family and code (a table redraws the same few cards again and again);
// only real cards are kept, so the map never grows past the decks' faces.
const drawn = new Map();

export function cardSvg(code, family) {
  const key = typeof code === "string" && typeof family === "string" ? family + " " + code : null;
  if (key !== null && drawn.has(key)) return drawn.get(key);
  let markup = null;
  try {
    markup = draw(code, family);
  } catch {
    markup = null;
  }
  if (markup === null) {
    try {
      return unknownCard(code);
    } catch {
      return unknownCard("");
    }
  }
  if (key !== null) drawn.set(key, markup);
  return markup;
}
