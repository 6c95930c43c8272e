// Small drawing helpers of the browser table: elements, cards (faces from cards.js), a clock.

import { cardBack, cardSvg } from "./cards.js";

// A card code of p2pcards.cards ("7D", "TS2", "X1") or the back ("??").
export const CARD_CODE = /^[A2-9JQKT][DCSBH]\d?$|^X\d?$|^\?\?$/;

// An element with attributes and children (strings become text, never markup).
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children) node.append(child);
  return node;
}

// One card: the SVG face from cards.js ("??" or null: the back), its code in data-code.
export function cardEl(code, family, size = "") {
  const node = el("span", { class: "card" + (size ? " " + size : ""), title: code || "",
                            "data-code": code || "??" });
  node.innerHTML = !code || code === "??" ? cardBack() : cardSvg(code, family);
  return node;
}

// A row of cards.
export function cardRow(codes, family, size = "") {
  const row = el("div", { class: "cards" });
  for (const code of codes) row.append(cardEl(code, family, size));
  return row;
}

// "9:58" for 598 seconds, rounded up so 0:00 only shows when the time is out.
export function clock(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

// The cards of a trick as the observation holds it: [seat, card] pairs, {seat, card} objects,
// a {cards, winner} record, or plain codes.
export function trickCards(value) {
  if (!value) return [];
  if (!Array.isArray(value) && Array.isArray(value.cards)) return trickCards(value.cards);
  if (!Array.isArray(value)) return [];
  return value.map((item) => {
    if (Array.isArray(item) && item.length === 2) return { seat: item[0], code: String(item[1]) };
    if (item && typeof item === "object" && "card" in item) return { seat: item.seat, code: String(item.card) };
    return { seat: null, code: String(item) };
  }).filter((c) => CARD_CODE.test(c.code));
}
