// The middle of the table, game by game: Scopa, Briscola and Tressette have their own layout;
// every other game is drawn by the generic layout from the zones of the seat's view.
//
// A layout is { name, draw(view, helpers) } and returns one element, #middle.

import { CARD_CODE, cardEl, cardRow, el, trickCards } from "./draw.js";
import { t } from "./words.js";

function zone(view, key) {
  return view.zones.find((z) => z.key === key) || null;
}

// "you 3 · Bob [1] 2": one number per seat or per side, with whose each is.
function perWho(view, values, seatName) {
  if (!Array.isArray(values)) return values === null || values === undefined ? "—" : String(values);
  const names = values.length === view.seats.length && values.length !== view.sides.length
    ? view.seats.map((s) => seatName(view, s.seat)) : view.sides;
  return values.map((v, i) => `${names[i] || i} ${typeof v === "object" ? JSON.stringify(v) : v}`).join(" · ");
}

function info(label, value, key) {
  const node = el("div", { class: "info", "data-key": key || label });
  node.append(el("span", { class: "label" }, label), el("span", { class: "value" }, value));
  return node;
}

function pile(label, count, family, key) {
  const node = el("div", { class: "pile", "data-key": key });
  if (count > 0) node.append(cardEl("??", family, "small"));
  node.append(el("span", { class: "label" }, `${label}: ${count}`));
  return node;
}

function cardZone(id, label, codes, family, size = "") {
  const node = el("div", { class: "zone", id: `zone-${id}` });
  node.append(el("h4", {}, label));
  node.append(codes.length ? cardRow(codes, family, size) : el("div", { class: "empty" }, "—"));
  return node;
}

function trickZone(view, id, label, value, seatName) {
  const node = el("div", { class: "zone trick", id: `zone-${id}` });
  node.append(el("h4", {}, label));
  const row = el("div", { class: "cards" });
  for (const played of trickCards(value)) {
    const slot = el("figure", { class: "played", "data-seat": String(played.seat) });
    slot.append(cardEl(played.code, view.deck));
    if (played.seat !== null && played.seat !== undefined) {
      slot.append(el("figcaption", {}, seatName(view, played.seat)));
    }
    row.append(slot);
  }
  node.append(trickCards(value).length ? row : el("div", { class: "empty" }, "—"));
  return node;
}

const scopa = {
  name: "scopa",
  draw(view, { seatName }) {
    const obs = view.observation;
    const middle = el("section", { id: "middle", class: "felt scopa" });
    middle.append(cardZone("table", t("on the table"), (zone(view, "table") || { cards: [] }).cards, view.deck));
    const row = el("div", { class: "infos" });
    row.append(pile(t("stock"), Number(obs.stock || 0), view.deck, "stock"));
    if (obs.captured !== undefined) row.append(info(t("captured"), perWho(view, obs.captured, seatName), "captured"));
    if (obs.scope !== undefined) row.append(info(t("scope"), perWho(view, obs.scope, seatName), "scope"));
    if (obs.last_capturer !== null && obs.last_capturer !== undefined) {
      row.append(info(t("last capture"), seatName(view, obs.last_capturer), "last_capturer"));
    }
    middle.append(row);
    return middle;
  },
};

const briscola = {
  name: "briscola",
  draw(view, { seatName }) {
    const obs = view.observation;
    const middle = el("section", { id: "middle", class: "felt briscola" });
    middle.append(trickZone(view, "trick", t("trick"), obs.trick, seatName));
    const side = el("div", { class: "trump-stock" });
    const trump = el("div", { class: "zone", id: "zone-trump_card" });
    trump.append(el("h4", {}, t("briscola")));
    trump.append(obs.trump_card ? cardEl(obs.trump_card, view.deck) : el("div", { class: "empty" },
      obs.trump_suit ? t("suit {suit}", { suit: obs.trump_suit }) : "—"));
    side.append(trump, pile(t("stock"), Number(obs.stock_size || 0), view.deck, "stock"));
    middle.append(side);
    const row = el("div", { class: "infos" });
    if (obs.captured_points !== undefined) row.append(info(t("card points"), perWho(view, obs.captured_points, seatName), "captured_points"));
    if (obs.hands_won !== undefined) row.append(info(t("hands won"), perWho(view, obs.hands_won, seatName), "hands_won"));
    if (Array.isArray(obs.partner_hand) && obs.partner_hand.length) {
      row.append(cardZone("partner_hand", t("your partner's cards"), obs.partner_hand, view.deck, "small"));
    }
    middle.append(row);
    if (obs.last_trick) middle.append(trickZone(view, "last_trick", t("last trick"), obs.last_trick, seatName));
    return middle;
  },
};

const tressette = {
  name: "tressette",
  draw(view, { seatName }) {
    const obs = view.observation;
    const middle = el("section", { id: "middle", class: "felt tressette" });
    // the trick laid out around the table: each card on its player's side
    const round = el("div", { class: "round", id: "zone-trick" });
    round.append(el("h4", {}, t("trick")));
    const n = view.seats.length;
    const me = view.me === null ? 0 : view.me;
    const places = n === 4 ? ["south", "east", "north", "west"] : n === 3 ? ["south", "east", "west"] : ["south", "north"];
    for (const played of trickCards(obs.trick)) {
      const place = places[((played.seat - me) % n + n) % n] || "north";
      const slot = el("figure", { class: `played ${place}`, "data-seat": String(played.seat) });
      slot.append(cardEl(played.code, view.deck), el("figcaption", {}, seatName(view, played.seat)));
      round.append(slot);
    }
    middle.append(round);
    const row = el("div", { class: "infos" });
    if (obs.captured_counts !== undefined) row.append(info(t("cards taken"), perWho(view, obs.captured_counts, seatName), "captured_counts"));
    if (obs.captured_points !== undefined) row.append(info(t("points"), perWho(view, obs.captured_points, seatName), "captured_points"));
    if (obs.stock_size !== undefined) row.append(pile(t("stock"), Number(obs.stock_size || 0), view.deck, "stock"));
    if (Array.isArray(obs.declarations) && obs.declarations.length) {
      row.append(info(t("declarations"), obs.declarations.map((d) => typeof d === "object" ? JSON.stringify(d) : String(d)).join("; "), "declarations"));
    }
    middle.append(row);
    if (trickCards(obs.last_trick).length) middle.append(trickZone(view, "last_trick", t("last trick"), obs.last_trick, seatName));
    return middle;
  },
};

// Every other game: each zone of the view as cards when it holds cards, else as text.
const generic = {
  name: "generic",
  draw(view, { seatName }) {
    const middle = el("section", { id: "middle", class: "felt generic" });
    const row = el("div", { class: "infos" });
    for (const z of view.zones) {
      const raw = view.observation[z.key];
      if (z.key === "hand_sizes") continue; // drawn with the seats
      const trick = trickCards(raw);
      if (z.cards.length && z.cards.every((c) => CARD_CODE.test(c))) {
        middle.append(cardZone(z.key, z.label, z.cards, view.deck));
      }
      else if (z.cards.length) row.append(info(z.label, z.text, z.key));
      else if (trick.length && trick.length === (Array.isArray(raw) ? raw.length : trick.length)) {
        middle.append(trickZone(view, z.key, z.label, raw, seatName));
      } else if (Array.isArray(raw) && raw.every((v) => typeof v === "number")) {
        row.append(info(z.label, perWho(view, raw, seatName), z.key));
      } else {
        row.append(info(z.label, z.text, z.key));
      }
    }
    middle.append(row);
    // cards lying in front of each seat (one list per seat), when the observation has them
    for (const [key, raw] of Object.entries(view.observation)) {
      if (key === "hand" || view.zones.some((z) => z.key === key)) continue;
      if (!perSeatCards(view, raw)) continue;
      const box = el("div", { class: "zone per-seat", id: `zone-${key}` });
      box.append(el("h4", {}, key.replace(/_/g, " ")));
      raw.forEach((codes, seat) => {
        if (!codes.length) return;
        const line = el("div", { class: "cards", "data-seat": String(seat) });
        line.append(el("span", { class: "who" }, seatName(view, seat)));
        for (const code of codes) line.append(cardEl(code, view.deck, "small"));
        box.append(line);
      });
      middle.append(box);
    }
    return middle;
  },
};

// [[codes of seat 0], [codes of seat 1], ...] with at least one card.
function perSeatCards(view, raw) {
  return Array.isArray(raw) && raw.length === view.seats.length &&
    raw.every((v) => Array.isArray(v) && v.every((c) => typeof c === "string" && CARD_CODE.test(c))) &&
    raw.some((v) => v.length);
}

const LAYOUTS = { scopa, briscola, tressette, tresette: tressette };

export function layoutFor(game) {
  return LAYOUTS[game] || generic;
}
