// The browser table of p2pcards: draws the seat's view pushed by its own peer over a WebSocket
// and sends back the index of the move clicked. Plain ES module, no build step.
//
// Messages from the peer (see p2pcards/faces/web/hub.py): seating, view, status, end, error,
// links, notice, series, again, and for `p2pcards show --web` (p2pcards/faces/web/replay.py) replay.

import { cardBack } from "./cards.js";
import { layoutFor } from "./layouts.js";
import { el, clock, cardEl } from "./draw.js";
import { t, LANG } from "./words.js";

document.documentElement.lang = LANG;

const state = {
  view: null, prompt: null, status: null, end: null, error: null, seating: null,
  replay: null, frame: 0, promptAt: 0, statusAt: 0, asked: null, chooser: null, socket: null, closed: false,
  links: [], notice: null, series: null, again: false,
};

function connect() {
  const url = new URL("ws", location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(url.href);
  state.socket = socket;
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", () => { state.closed = true; render(); });
}

function receive(message) {
  switch (message.type) {
    case "seating": state.seating = message.text; break;
    case "view":
      state.view = message.view;
      if (JSON.stringify(message.prompt) !== JSON.stringify(state.prompt)) {
        state.chooser = null;
      }
      state.prompt = message.prompt;
      state.asked = null;
      state.promptAt = performance.now();
      state.error = null;
      break;
    case "status": state.status = message; state.statusAt = performance.now(); break;
    case "end": state.end = message; break;
    case "error": // the peer refused the answer: the question stands
      state.error = message.message;
      if (!state.prompt && state.asked) { state.prompt = state.asked; }
      break;
    case "replay": state.replay = message; state.frame = 0; break;
    case "links": state.links = message.links; break;
    case "notice": state.notice = message.text; break;
    case "series": state.series = message; break;
    case "again": state.again = message.open; break;
    default: return;
  }
  render();
}

function send(kind, index) {
  if (!state.socket || state.socket.readyState !== WebSocket.OPEN) return;
  state.socket.send(JSON.stringify({ type: kind, index: index }));
  state.asked = state.prompt;
  state.prompt = null; // answered: nothing is clickable until the peer asks again
  state.chooser = null;
  render();
}

// ------------------------------------------------------------------------------ moves

function movesByCard(view) {
  const map = new Map();
  for (const move of view.moves) {
    if (move.card && view.hand.includes(move.card)) {
      if (!map.has(move.card)) map.set(move.card, []);
      map.get(move.card).push(move);
    }
  }
  return map;
}

function playable() {
  return state.prompt && state.prompt.kind === "move" && state.view && !state.replay;
}

function clickCard(code) {
  const moves = movesByCard(state.view).get(code) || [];
  if (moves.length === 1) send("move", moves[0].index);
  else if (moves.length > 1) { state.chooser = code; render(); }
}

function highlight(codes, on) {
  for (const node of document.querySelectorAll(".zone .card")) {
    if (codes.includes(node.dataset.code)) node.classList.toggle("taken", on);
  }
}

function moveButton(move, kind) {
  const button = el("button", { class: "move", "data-index": String(move.index),
                                "data-kind": move.kind }, move.text);
  if (move.cards && move.cards.length) {
    const row = el("span", { class: "mini" });
    for (const code of move.cards) row.append(cardEl(code, state.view.deck, "small"));
    button.append(row);
    button.addEventListener("mouseenter", () => highlight(move.cards, true));
    button.addEventListener("mouseleave", () => highlight(move.cards, false));
  }
  button.addEventListener("click", () => send(kind, move.index));
  return button;
}

function drawMoves(view) {
  const box = el("section", { id: "moves" });
  if (state.prompt && state.prompt.kind === "claim") {
    box.append(el("h3", {}, t("you may claim out of turn")));
    for (const claim of state.prompt.claims) box.append(moveButton(claim, "claim"));
    const pass = el("button", { class: "move pass", id: "let-pass" }, t("let it pass"));
    pass.addEventListener("click", () => send("claim", null));
    box.append(pass);
    return box;
  }
  if (!playable()) return box;
  const byCard = movesByCard(view);
  if (state.chooser) {
    box.append(el("h3", {}, t("play {card}: choose what it takes", { card: state.chooser })));
    for (const move of byCard.get(state.chooser) || []) box.append(moveButton(move, "move"));
    const back = el("button", { class: "move pass" }, t("another card"));
    back.addEventListener("click", () => { state.chooser = null; render(); });
    box.append(back);
    return box;
  }
  const others = view.moves.filter((m) => !(m.card && view.hand.includes(m.card)));
  if (!others.length) return box;
  box.append(el("h3", {}, t("your moves")));
  if (others.length > 60) { // a very long list (a discard of several cards): a chooser
    const select = el("select", { id: "move-list" });
    for (const move of others) select.append(el("option", { value: String(move.index) }, move.text));
    const go = el("button", { class: "move", id: "move-go" }, t("play the selected move"));
    go.addEventListener("click", () => send("move", Number(select.value)));
    box.append(select, go);
    return box;
  }
  for (const group of amountRuns(others)) {
    if (group.length >= 3) box.append(amountPicker(group));
    else for (const move of group) box.append(moveButton(move, "move"));
  }
  return box;
}

// Moves that differ only by consecutive amounts (a bet of 1 to 50) become one picker.
function amountRuns(moves) {
  const runs = [];
  for (const move of moves) {
    const last = runs.length ? runs[runs.length - 1] : null;
    const prev = last ? last[last.length - 1] : null;
    if (prev && move.amount > 0 && prev.amount > 0 && move.amount === prev.amount + 1 &&
        move.kind === prev.kind && move.card === prev.card &&
        JSON.stringify(move.cards) === JSON.stringify(prev.cards)) {
      last.push(move);
    } else {
      runs.push([move]);
    }
  }
  return runs;
}

function amountPicker(group) {
  const first = group[0];
  const last = group[group.length - 1];
  const word = first.text.replace(/\s*\d+\s*$/, "") || first.kind;
  const box = el("span", { class: "amount", "data-kind": first.kind });
  const input = el("input", { type: "number", min: String(first.amount), max: String(last.amount),
                              value: String(first.amount), step: "1", class: "amount-value" });
  const button = el("button", { class: "move amount-go", "data-kind": first.kind },
                    `${word} (${first.amount}–${last.amount})`);
  button.addEventListener("click", () => {
    const wanted = Number(input.value);
    const move = group.find((m) => m.amount === wanted);
    if (move) send("move", move.index);
    else { state.error = t("choose an amount from {low} to {high}", { low: first.amount, high: last.amount }); render(); }
  });
  box.append(el("label", {}, word, " ", input), button);
  return box;
}

// ------------------------------------------------------------------------------ page parts

function drawHand(view, hands) {
  const box = el("section", { id: "hand", class: "hand" });
  const byCard = movesByCard(view);
  box.append(el("h3", {}, view.me === null ? t("hands") : t("your hand")));
  const row = el("div", { class: "cards" });
  for (const code of view.hand) {
    const node = cardEl(code, view.deck);
    if (playable() && byCard.has(code)) {
      node.classList.add("playable");
      const takes = byCard.get(code).flatMap((m) => m.cards || []);
      node.addEventListener("mouseenter", () => highlight(takes, true));
      node.addEventListener("mouseleave", () => highlight(takes, false));
      node.addEventListener("click", () => clickCard(code));
    }
    if (state.chooser === code) node.classList.add("chosen");
    row.append(node);
  }
  box.append(row);
  if (hands) { // replay: every hand, revealed after the audit
    for (const [seat, codes] of Object.entries(hands)) {
      const line = el("div", { class: "cards revealed", "data-seat": seat });
      line.append(el("span", { class: "who" }, seatName(view, Number(seat))));
      for (const code of codes) line.append(cardEl(code, view.deck, "small"));
      box.append(line);
    }
  }
  return box;
}

export function seatName(view, seat) {
  const info = view.seats[seat];
  if (!info) return t("seat {seat}", { seat });
  return info.label === "you" ? t("you") : `${info.name} [${seat}]`;
}

function drawSeats(view) {
  const box = el("section", { id: "seats" });
  for (const info of view.seats) {
    if (info.seat === view.me) continue;
    const node = el("div", { class: "seat" + (info.to_move ? " to-move" : ""),
                             "data-seat": String(info.seat) });
    node.append(el("div", { class: "who" },
                    `${info.name} [${info.seat}]` +
                    (info.label === "partner" || info.label === "opponent" ? ` · ${t(info.label)}` : "") +
                    (info.public_bot ? ` · ${t("played by the bot")}` : "")));
    const backs = el("div", { class: "backs" });
    const count = info.hand_size === null ? 0 : info.hand_size;
    for (let i = 0; i < Math.min(count, 12); i++) {
      const back = el("span", { class: "card back small" });
      back.innerHTML = cardBack();
      backs.append(back);
    }
    node.append(backs);
    node.append(el("div", { class: "count" },
                    info.hand_size === null ? "" : info.hand_size === 1 ? t("1 card") : t("{count} cards", { count: info.hand_size })));
    box.append(node);
  }
  return box;
}

function drawScores(view) {
  const box = el("section", { id: "scores" });
  box.append(el("h3", {}, t("match")));
  const grid = el("table", { class: "scores" });
  view.sides.forEach((name, i) => {
    const row = el("tr", { "data-side": String(i) });
    row.append(el("td", {}, name), el("td", { class: "points" },
                String(view.match_scores[i] === undefined ? "" : view.match_scores[i])));
    grid.append(row);
  });
  box.append(grid);
  const obs = view.observation || {};
  const ledger = Array.isArray(obs.balances) ? obs.balances : null;
  if (ledger) { // a banking game: the chips each seat holds, and what is at stake
    box.append(el("h3", {}, t("chips")));
    const grid = el("table", { class: "scores", id: "chips" });
    ledger.forEach((amount, seat) => {
      const row = el("tr", { "data-seat": String(seat) });
      const bet = Array.isArray(obs.bets) && obs.bets[seat] ? ` (${t("bet {amount}", { amount: obs.bets[seat] })})` : "";
      row.append(el("td", {}, seatName(view, seat) + bet), el("td", { class: "points" }, String(amount)));
      grid.append(row);
    });
    box.append(grid);
  }
  if (view.last_result) box.append(drawResult(view.last_result));
  return box;
}

function drawResult(result) {
  const box = el("div", { id: "result" });
  box.append(el("h3", {}, t("hand {number}", { number: result.hand })));
  const grid = el("table", { class: "breakdown" });
  const head = el("tr");
  head.append(el("th", {}, ""));
  for (const side of result.sides) head.append(el("th", {}, side));
  grid.append(head);
  for (const [category, values, points] of result.rows) {
    const row = el("tr");
    row.append(el("td", {}, category));
    values.forEach((value, i) => row.append(el("td", {}, `${value} → ${points[i]}`)));
    grid.append(row);
  }
  const total = el("tr", { class: "total" });
  total.append(el("td", {}, t("points")));
  for (const p of result.points) total.append(el("td", {}, String(p)));
  grid.append(total);
  box.append(grid);
  return box;
}

function drawLog(view) {
  const box = el("section", { id: "log" });
  box.append(el("h3", {}, t("log")));
  const list = el("ol");
  for (const line of view.log.slice(-60)) list.append(el("li", {}, line));
  box.append(list);
  return box;
}

// The series tally, kept while the next match is played: matches won and points per side.
function drawSeries() {
  const series = state.series;
  const box = el("section", { id: "series", "data-played": String(series.played) });
  box.append(el("h3", {}, series.played === 1 ? t("series after 1 match")
                                              : t("series after {count} matches", { count: series.played })));
  const grid = el("table", { class: "scores" });
  const head = el("tr");
  head.append(el("th", {}, ""), el("th", {}, t("won")));
  if (series.points) head.append(el("th", {}, t("points")));
  grid.append(head);
  series.sides.forEach((name, i) => {
    const row = el("tr", { "data-side": String(i) });
    row.append(el("td", {}, name), el("td", { class: "wins" }, String(series.wins[i])));
    if (series.points) row.append(el("td", { class: "series-points" }, String(series.points[i])));
    grid.append(row);
  });
  box.append(grid);
  return box;
}

// "Play again?" when a match of the table is over: yes or no, sent to the peer.
function drawAgain() {
  const box = el("section", { id: "again" });
  box.append(el("h3", {}, t("play again?")));
  const yes = el("button", { class: "again", id: "again-yes" }, t("play again"));
  const no = el("button", { class: "again", id: "again-no" }, t("no thanks"));
  const answer = (value) => {
    if (!state.socket || state.socket.readyState !== WebSocket.OPEN) return;
    state.socket.send(JSON.stringify({ type: "again", answer: value }));
    state.again = false;
    render();
  };
  yes.addEventListener("click", () => answer(true));
  no.addEventListener("click", () => answer(false));
  box.append(yes, no);
  return box;
}

function drawEnd() {
  const box = el("section", { id: "end", "data-status": state.end.status });
  box.append(el("h3", {}, t("the match is over")));
  if (state.view && state.view.outcome) box.append(el("p", { class: "outcome" }, state.view.outcome));
  box.append(el("p", { class: "verdict" }, state.end.verdict));
  if (state.end.path) box.append(el("p", { class: "path" }, t("transcript: "), el("code", {}, state.end.path)));
  return box;
}

function drawReplayControls() {
  const frames = state.replay.frames;
  const box = el("nav", { id: "replay" });
  const step = (to) => { state.frame = Math.max(0, Math.min(frames.length - 1, to)); render(); };
  const handStart = (direction) => {
    const here = frames[state.frame].view.hand_number;
    let i = state.frame;
    if (direction < 0) {
      while (i > 0 && frames[i - 1].view.hand_number === here) i--;
      if (i === state.frame && i > 0) { i--; const h = frames[i].view.hand_number; while (i > 0 && frames[i - 1].view.hand_number === h) i--; }
    } else {
      while (i < frames.length - 1 && frames[i].view.hand_number === here) i++;
    }
    step(i);
  };
  const buttons = [["first", () => step(0)], ["prev-hand", () => handStart(-1)],
                   ["prev", () => step(state.frame - 1)], ["next", () => step(state.frame + 1)],
                   ["next-hand", () => handStart(1)], ["last", () => step(frames.length - 1)]];
  const labels = { first: t("start"), "prev-hand": t("◀◀ hand"), prev: t("◀ step"), next: t("step ▶"),
                   "next-hand": t("hand ▶▶"), last: t("end") };
  for (const [name, action] of buttons) {
    const button = el("button", { id: `replay-${name}` }, labels[name]);
    button.addEventListener("click", action);
    box.append(button);
  }
  box.append(el("span", { id: "replay-position" }, t("step {number} of {count}", { number: state.frame + 1, count: frames.length })));
  return box;
}

// ------------------------------------------------------------------------------ render

function headline(view) {
  const title = document.getElementById("title");
  title.textContent = t("{game} · hand {number}", { game: view.game, number: view.hand_number });
  const turn = document.getElementById("turn");
  turn.className = "";
  if (view.over) turn.textContent = view.outcome || t("the match is over");
  else if (state.prompt && state.prompt.kind === "move") { turn.textContent = t("your move"); turn.className = "mine"; }
  else if (state.prompt && state.prompt.kind === "claim") { turn.textContent = t("a claim is open to you"); turn.className = "mine"; }
  else if (view.to_move.length) turn.textContent = t("{who} to play", { who: view.to_move.map((s) => seatName(view, s)).join(", ") });
  else turn.textContent = "";
}

function tick() {
  const node = document.getElementById("clock");
  if (!node) return;
  if (state.prompt && state.prompt.seconds !== null && state.prompt.seconds !== undefined) {
    const left = state.prompt.seconds - (performance.now() - state.promptAt) / 1000;
    node.textContent = t("{time} left", { time: clock(left) });
    node.className = left < 30 ? "urgent" : "";
  } else if (state.status && state.status.waiting_for.length && state.view && !state.view.over) {
    const seconds = state.status.seconds_left;
    const left = typeof seconds === "number"
      ? seconds - (performance.now() - state.statusAt) / 1000 : null;
    node.textContent = t("waiting for {who}", { who: state.status.names.join(", ") }) +
      (left === null ? "" : `: ${t("{time} left", { time: clock(left) })}`);
    node.className = "";
  } else {
    node.textContent = "";
  }
}

// The status bar: how each link is connected (its connection: line) and the latest notice.
function drawStatusBar() {
  const links = document.getElementById("links");
  if (links) {
    links.replaceChildren(...state.links.map((link) => el("span", {
      class: "link", "data-path": link.path, "data-how": link.how || "",
      "data-seat": link.seat === null ? "" : String(link.seat) }, link.text)));
  }
  const notice = document.getElementById("notice-line");
  if (notice) notice.textContent = state.notice || "";
}

function render() {
  drawStatusBar();
  const main = document.getElementById("table");
  main.replaceChildren();
  const frame = state.replay ? state.replay.frames[state.frame] : null;
  const view = frame ? frame.view : state.view;
  if (!view) {
    main.append(el("p", { id: "notice" }, state.closed ? t("the connection to your peer is closed")
                                                       : (state.seating || t("connecting to your peer…"))));
    return;
  }
  document.body.dataset.game = view.game;
  document.body.dataset.layout = layoutFor(view.game).name;
  headline(view);
  if (state.replay) main.append(drawReplayControls());
  const board = el("div", { id: "board" });
  if (state.again && !state.replay) board.append(drawAgain());
  board.append(drawSeats(view));
  // the moves other than a card of the hand (melds, draws, bets, claims) come before the table
  // and the hand, so that a long list (a Burraco hand's melds) is on screen without scrolling
  board.append(drawMoves(view));
  if (state.error) board.append(el("p", { id: "error" }, state.error));
  board.append(layoutFor(view.game).draw(view, { seatName }));
  board.append(drawHand(view, frame ? frame.hands : null));
  const side = el("aside", { id: "side" });
  if (state.series && !state.replay) side.append(drawSeries());
  side.append(drawScores(view));
  if (state.end) side.append(drawEnd());
  if (state.replay) side.append(drawReplayEnd());
  side.append(drawLog(view));
  if (state.closed && !state.replay) side.append(el("p", { id: "closed" }, t("the connection to your peer is closed")));
  main.append(board, side);
  tick();
  const log = document.querySelector("#log ol");
  if (log) log.scrollTop = log.scrollHeight;
}

function drawReplayEnd() {
  const box = el("section", { id: "end", "data-status": state.replay.status });
  box.append(el("h3", {}, t("recorded match")));
  box.append(el("p", { class: "verdict" }, state.replay.verdict));
  box.append(el("p", { class: "path" }, t("transcript: "), el("code", {}, state.replay.path)));
  return box;
}

setInterval(tick, 250);
connect();
