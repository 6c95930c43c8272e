// Where the suit signs of the pip cards 2..7 of the 40-card decks lie, shared by the Italian and
// Spanish faces: coins (D) and cups (C) by position, swords and batons as a lattice.

import { place } from "./svg.js";

// Where the signs of a pip card lie: [x, y] per sign, for coins and cups.
export const ROUND_LAYOUTS = {
  D: {
    2: [[100, 88], [100, 212]],
    3: [[62, 78], [100, 150], [138, 222]],
    4: [[65, 88], [135, 88], [65, 212], [135, 212]],
    5: [[65, 80], [135, 80], [100, 150], [65, 220], [135, 220]],
    6: [[65, 75], [135, 75], [65, 150], [135, 150], [65, 225], [135, 225]],
    7: [[65, 62], [135, 62], [100, 106], [65, 150], [135, 150], [65, 238], [135, 238]],
  },
  C: {
    2: [[100, 92], [100, 208]],
    3: [[65, 95], [135, 95], [100, 205]],
    4: [[65, 95], [135, 95], [65, 205], [135, 205]],
    5: [[65, 80], [135, 80], [100, 150], [65, 220], [135, 220]],
    6: [[65, 75], [135, 75], [65, 150], [135, 150], [65, 225], [135, 225]],
    7: [[50, 75], [100, 75], [150, 75], [65, 150], [135, 150], [65, 225], [135, 225]],
  },
};

// Swords and batons: long signs crossing in pairs ([x, y, angle, scale]), the short ones upright
// in the middle of the lattice.
export const LONG_LAYOUTS = (() => {
  const pair = (x, spread) => [[x, 150, -spread, 1.0], [x, 150, spread, 1.0]];
  const lattice = [...pair(66, 16), ...pair(134, 16)];
  const short = (x) => [x, 150, 0, 0.36];
  return {
    2: pair(100, 22),
    3: [...pair(100, 24), [100, 150, 0, 1.0]],
    4: lattice,
    5: [...lattice, short(100)],
    6: [...lattice, short(89), short(111)],
    7: [...lattice, short(82), short(100), short(118)],
  };
})();

// The pips of a sword or baton card of `value` 2..7: the long signs of the lattice, then, on an
// oval of paper in its middle, the short upright ones. `flipLeft` mirrors the signs leaning left
// (curved blades bow outwards); `shrink` scales every sign.
export function longPips(value, sign, { flipLeft = false, shrink = 1, paper = "#fffdf5", rim = "#9a8a6a" } = {}) {
  const items = LONG_LAYOUTS[value];
  const shorts = items.filter(([, , , scale]) => scale < 1);
  const draw = ([x, y, angle, scale]) =>
    place(sign, x, y, { angle, scale: scale * shrink, flip: flipLeft && angle < 0, cls: "pip" });
  let out = items.filter(([, , , scale]) => scale >= 1).map(draw).join("");
  if (shorts.length) {
    const rx = 10 + shorts.length * 9;
    out += '<ellipse cx="100" cy="150" rx="' + rx + '" ry="48" fill="' + paper + '" stroke="' + rim +
      '" stroke-width="1.5"/>' + shorts.map(draw).join("");
  }
  return out;
}
