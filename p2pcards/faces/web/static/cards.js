// Card faces for the web table, drawn as SVG markup (placeholder faces: the code on a blank card).
//
// Contract, used by the page:
//   cardSvg(code, family) -> string   SVG markup of one card face, viewBox "0 0 200 300";
//                                       code is a card code of p2pcards.cards ("7D", "KB", "QH1",
//                                       "X2"), family is "italian", "spanish" or "french".
//                                       "??" draws the back.
//   cardBack() -> string              SVG markup of the back of a card, same viewBox.

function frame(inner) {
  return '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 300">' +
    '<rect x="2" y="2" width="196" height="296" rx="14" fill="#fffdf6" stroke="#333" stroke-width="3"/>' +
    inner + '</svg>';
}

export function cardBack() {
  return '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 300">' +
    '<rect x="2" y="2" width="196" height="296" rx="14" fill="#7a1f2b" stroke="#333" stroke-width="3"/>' +
    '</svg>';
}

export function cardSvg(code, family) {
  if (code === "??") {
    return cardBack();
  }
  const text = String(code).replace(/[^0-9A-Za-z]/g, "");
  return frame('<text x="100" y="165" font-size="64" text-anchor="middle" font-family="serif">' +
    text + '</text>' + '<desc>' + family + '</desc>');
}
