// The client's one store: what the server said, what the player chose, and the table's socket.
// Components read `store` and re-render when `changed()` is called; nothing else holds state.
import { sentence } from "./words.js";

export const store = {
  games: [], // GET /api/games: every game's title, summary, options, vocabulary, bots
  route: { page: "lobby" },
  table: null, // lobby info of the table on screen
  state: null, // latest `state` message
  me: null, // {seat, player}
  log: [], // [{seq, text, by}] plain sentences, oldest first
  logFrom: null, // seq the log starts at, when joined mid-game
  notes: {}, // control id -> sentence: why the server refused what that control sent
  received: 0, // performance.now() when the latest state arrived (timers count from it)
  tableReceived: 0, // ... and the latest table message (grace periods count from it)
  toast: "",
};

const listeners = new Set();
export function subscribe(fn) { listeners.add(fn); return () => listeners.delete(fn); }
export function changed() { for (const fn of listeners) fn(); }

export function gameInfo(name) {
  return store.games.find((g) => g.name === name) || null;
}

let toastTimer = null;
export function toast(text) {
  store.toast = text;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { store.toast = ""; changed(); }, 4000);
  changed();
}

export async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const detail = typeof data.detail === "string" ? data.detail : "the server refused that request.";
    // the server's refusals start in lower case (a player's name stays as it is written)
    throw new Error(sentence(detail, store.table ? store.table.seats.map((s) => s.name) : []));
  }
  return data;
}

const seatsKey = "bestiary.seats";
export function savedSeat(code) { return JSON.parse(localStorage.getItem(seatsKey) || "{}")[code] || null; }
export function saveSeat(code, seat) {
  const all = JSON.parse(localStorage.getItem(seatsKey) || "{}");
  if (seat) all[code] = seat; else delete all[code];
  localStorage.setItem(seatsKey, JSON.stringify(all));
}
export function defaultName() { return localStorage.getItem("bestiary.name") || ""; }

// ------------------------------------------------------------------ the table's socket

let socket = null;
let nextRef = 1;
const sentBy = new Map(); // ref -> control id, to show a refusal next to its control
let onEvents = null; // (events, before, after) -> [{text, by}] from the game's board module

export function closeTable() {
  if (socket) { socket.onclose = null; socket.close(); socket = null; }
  Object.assign(store, { table: null, state: null, me: null, log: [], logFrom: null, notes: {} });
  sentBy.clear();
}

export function openTable(code, token, narrate) {
  closeTable();
  onEvents = narrate;
  connect(code, token);
}

function connect(code, token) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${code}`);
  socket = ws;
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello", v: 1, token }));
  ws.onmessage = (event) => receive(JSON.parse(event.data));
  ws.onclose = () => {
    if (socket !== ws) return;
    toast("Connection lost; reconnecting...");
    setTimeout(() => { if (socket === ws) connect(code, token); }, 1000);
  };
}

// Send one action for the control `control` (an id string); returns the request's ref.
export function send(action, control) {
  return sendMessage({ type: "action", action }, control);
}

// Send any client message (docs/protocol.md) for `control`; returns its ref.
export function sendMessage(message, control) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    note(control, "Not connected to the table right now; try again in a moment.");
    return null;
  }
  const ref = nextRef++;
  sentBy.set(ref, control);
  if (sentBy.size > 200) sentBy.delete(sentBy.keys().next().value);
  socket.send(JSON.stringify({ ...message, ref }));
  return ref;
}

// What other modules do with a server message type of their own (reactions, rematch).
export const handlers = {};

// A sentence shown next to a control: the server's refusal, or why the control is disabled.
const noteTimers = {};
export function note(control, text) {
  if (!control) { toast(text); return; }
  store.notes = { ...store.notes, [control]: text };
  clearTimeout(noteTimers[control]);
  noteTimers[control] = setTimeout(() => { forget(control); changed(); }, 6000);
  changed();
}
function forget(control) {
  if (!(control in store.notes)) return;
  const { [control]: _, ...rest } = store.notes;
  store.notes = rest;
}

const logKey = (code) => `bestiary.log.${code}`;

function receive(message) {
  if (handlers[message.type]) {
    handlers[message.type](message);
  } else if (message.type === "welcome") {
    store.me = { seat: message.seat, player: message.player };
    store.table = message.table;
  } else if (message.type === "table") {
    store.table = message.table;
    store.tableReceived = performance.now();
  } else if (message.type === "state") {
    const before = store.state;
    if (store.me && store.me.seat !== null && !localStorage.getItem("bestiary.played")) { // lobby.js PLAYED
      localStorage.setItem("bestiary.played", "1");
      localStorage.setItem("bestiary.first-table", store.table ? store.table.code : ""); // howto.js: the first game
    }
    store.state = message;
    store.received = performance.now();
    if (message.ref !== undefined && sentBy.has(message.ref)) {
      const control = sentBy.get(message.ref);
      sentBy.delete(message.ref);
      forget(control);
    }
    record(before, message);
  } else if (message.type === "away") {
    recordAway(message);
  } else if (message.type === "error") {
    const control = sentBy.get(message.ref);
    sentBy.delete(message.ref);
    if ((message.code === "bad_token" || message.code === "unseated") && store.table) saveSeat(store.table.code, null);
    // the server closes the socket after these: reconnecting would only be refused again
    if (["bad_token", "unseated", "no_table", "full", "too_many", "bad_version"].includes(message.code)) socket = null;
    note(control, sentence(message.message, store.table ? store.table.seats.map((s) => s.name) : []));
    return;
  }
  changed();
}

// The move log: sentences for the new events; kept per table for a reload in the same tab.
function record(before, message) {
  const code = store.table ? store.table.code : "";
  const gap = (n) => ({ seq: message.seq, by: null, gap: true, text: `(${n} ${n === 1 ? "move" : "moves"} made while you were away ${n === 1 ? "is" : "are"} not in this log.)` });
  if (!before) {
    const saved = JSON.parse(sessionStorage.getItem(logKey(code)) || "null");
    if (saved && saved.seq <= message.seq) {
      store.log = saved.log;
      store.logFrom = saved.from;
      if (saved.seq < message.seq) store.log.push(gap(message.seq - saved.seq));
    } else {
      store.log = [];
      store.logFrom = message.seq;
    }
  } else {
    const missed = message.seq - before.seq - message.events.length;
    if (missed > 0) store.log.push(gap(missed));
    if (onEvents && message.events.length) {
      const lines = onEvents(message.events, before.view, message.view, store.me && store.me.player);
      // each line is numbered by its own event's seq: the replay's move numbers
      const first = message.seq - message.events.length + 1;
      for (const line of lines) {
        const ev = message.events[line.at ?? message.events.length - 1];
        store.log.push({ seq: first + (line.at ?? message.events.length - 1), standIn: Boolean(ev && ev.stand_in && line.by === ev.by), ...line });
      }
    }
    if (store.log.length > 300) store.log.splice(0, store.log.length - 300);
  }
  keepLog(code, message.seq);
}

function keepLog(code, seq) {
  try {
    sessionStorage.setItem(logKey(code), JSON.stringify({ seq, log: store.log, from: store.logFrom }));
  } catch (err) { /* storage full: the log lives on in memory */ }
}

// Back at the table: the server kept what this seat missed (its own form of each event, each
// with its seq; a stand-in bot's moves marked `stand_in`) and the view it left with. Its
// sentences replace the "made while you were away" gap, the stand-in's moves marked.
function recordAway(message) {
  if (!onEvents || !store.state || !message.events.length) return;
  const me = store.me && store.me.player;
  const lines = onEvents(message.events, message.view, store.state.view, me, true);
  const kept = store.log.filter((l) => !l.gap && l.seq <= message.since);
  const stood = message.events.some((e) => e.stand_in);
  const skipped = message.dropped ? ` (the first ${message.dropped} are not kept)` : "";
  const head = { seq: message.since + 1, by: null, away: true,
    text: `While you were away, ${message.events.length + message.dropped} moves were made${skipped}${stood ? "; a stand-in bot played your seat: its moves are marked" : ""}.` };
  const missed = lines.map((line) => {
    const ev = message.events[line.at ?? message.events.length - 1];
    return { seq: ev.seq, standIn: Boolean(ev.stand_in && line.by === ev.by), ...line };
  });
  const later = store.log.filter((l) => !l.gap && l.seq > message.since);
  store.log = [...kept, head, ...missed, ...later];
  if (store.log.length > 300) store.log.splice(0, store.log.length - 300);
  if (!kept.length) store.logFrom = message.since + 1;
  keepLog(store.table ? store.table.code : "", store.state.seq);
}
