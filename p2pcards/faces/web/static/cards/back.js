// The back of every card: a classic pattern of small lozenges in a white border, with an oval
// medallion in the middle. The same markup for every deck family.

import { card } from "./svg.js";

export function back() {
  let lattice = "";
  for (let row = 0; row < 13; row++) {
    for (let col = 0; col < 8; col++) {
      const x = 30 + col * 20;
      const y = 30 + row * 20;
      const fill = (row + col) % 2 ? "#c9a13b" : "#f3e7c9";
      lattice += '<path d="M' + x + " " + (y - 8) + " L" + (x + 8) + " " + y + " L" + x + " " + (y + 8) + " L" +
        (x - 8) + " " + y + ' Z" fill="' + fill + '" opacity="0.85"/>';
    }
  }
  let petals = "";
  for (let k = 0; k < 8; k++) {
    petals += '<ellipse cx="0" cy="-15" rx="6" ry="13" fill="#f3e7c9" stroke="#5a0f19" stroke-width="1" ' +
      'transform="rotate(' + k * 45 + ')"/>';
  }
  return card(
    '<rect x="12" y="12" width="176" height="276" rx="8" fill="#7d1626" stroke="#f3e7c9" stroke-width="4"/>' +
    '<rect x="18" y="18" width="164" height="264" rx="5" fill="none" stroke="#c9a13b" stroke-width="1.5"/>' +
    lattice +
    '<ellipse cx="100" cy="150" rx="46" ry="62" fill="#7d1626" stroke="#f3e7c9" stroke-width="4"/>' +
    '<ellipse cx="100" cy="150" rx="39" ry="55" fill="none" stroke="#c9a13b" stroke-width="1.5"/>' +
    '<g transform="translate(100 150)">' + petals +
    '<circle r="8" fill="#c9a13b" stroke="#5a0f19" stroke-width="1.5"/></g>',
    { title: "back of a card", kind: "back", paper: "#fbf6ea" });
}
