// bestiary web client: lobby, waiting room, live table over WebSocket, replays. No build step.
"use strict";

// h("button", {onclick}, "text", child...) -> element
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

const App = {
  games: [],
  socket: null,
  table: null, // lobby info of the current table
  state: null, // latest `state` message
  me: null, // {seat, player}
  keyHandler: null,
  ui: {}, // per-game UI state kept across renders (selected card...)
};

function toast(text) {
  const el = document.getElementById("toast");
  el.textContent = text;
  el.classList.add("show");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => el.classList.remove("show"), 3500);
}

async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const detail = typeof data.detail === "string" ? data.detail : "the server refused that request.";
    throw new Error(detail);
  }
  return data;
}

const seatsKey = "bestiary.seats";
function savedSeat(code) { return JSON.parse(localStorage.getItem(seatsKey) || "{}")[code] || null; }
function saveSeat(code, seat) {
  const all = JSON.parse(localStorage.getItem(seatsKey) || "{}");
  all[code] = seat;
  localStorage.setItem(seatsKey, JSON.stringify(all));
}
function defaultName() { return localStorage.getItem("bestiary.name") || ""; }

function mount(...children) {
  const main = document.getElementById("main");
  main.replaceChildren(...children);
}

function closeSocket() {
  if (App.socket) { App.socket.onclose = null; App.socket.close(); App.socket = null; }
  App.state = null; App.table = null; App.me = null; App.ui = {};
}

// ---------------------------------------------------------------- lobby

async function showLobby() {
  closeSocket();
  document.getElementById("where").textContent = "lobby";
  App.games = await api("/api/games");
  const listing = await api("/api/tables");
  const gameSelect = h("select", { id: "game", "aria-label": "game" },
    h("option", { value: "wild" }, "Call of the Wild (real time, 2-6)"),
    h("option", { value: "critters" }, "Critters (turn-based, 2-8)"));
  const seats = h("input", { id: "seats", type: "number", min: 2, max: 8, value: 3, "aria-label": "seats" });
  const name = h("input", { id: "name", placeholder: "your name", value: defaultName(), maxlength: 24, "aria-label": "your name" });
  const botSelect = h("select", { id: "fill-bot", "aria-label": "bot for empty seats" });
  const options = h("div", { id: "options", class: "row" });
  const refreshBots = () => {
    const game = App.games.find((g) => g.name === gameSelect.value);
    botSelect.replaceChildren(h("option", { value: "" }, "leave empty seats for friends"),
      ...game.bots.map((b) => h("option", { value: b.name, title: b.description }, `fill with bots: ${b.name}`)));
    if (game.bots.length) botSelect.value = game.bots[0].name;
    seats.max = game.max_players;
    options.replaceChildren(...(gameSelect.value === "wild" ? [
      h("label", {}, h("input", { type: "checkbox", id: "opt-mating_bonus" }), " mating bonus"),
      h("label", {}, h("input", { type: "checkbox", id: "opt-objectives" }), " objectives"),
      h("label", {}, "nightfall after ", h("input", { type: "number", id: "opt-nightfall_seconds", value: 120, min: 10, style: "width:6em" }), " s without a meeting"),
    ] : [
      h("label", {}, "set size ", h("select", { id: "opt-set_size" }, h("option", {}, "3"), h("option", {}, "4"))),
      h("label", {}, "sets to win ", h("select", { id: "opt-sets_to_win" }, h("option", {}, "3"), h("option", {}, "4"))),
    ]));
  };
  gameSelect.addEventListener("change", refreshBots);
  refreshBots();
  const create = async (event) => {
    event.preventDefault();
    const game = gameSelect.value;
    const opts = {};
    if (game === "wild") {
      if (document.getElementById("opt-mating_bonus").checked) opts.mating_bonus = true;
      if (document.getElementById("opt-objectives").checked) opts.objectives = true;
      const night = Number(document.getElementById("opt-nightfall_seconds").value);
      if (night && night !== 120) opts.nightfall_seconds = night;
    } else {
      const size = Number(document.getElementById("opt-set_size").value);
      const win = Number(document.getElementById("opt-sets_to_win").value);
      if (size !== 3) opts.set_size = size;
      if (win !== 3) opts.sets_to_win = win;
    }
    const count = Number(seats.value);
    const bots = botSelect.value ? Array.from({ length: count - 1 }, () => ({ bot: botSelect.value })) : [];
    try {
      localStorage.setItem("bestiary.name", name.value.trim());
      const made = await api("/api/tables", { game, seats: count, name: name.value.trim() || "player", options: opts, bots });
      saveSeat(made.code, { token: made.token, seat: made.seat });
      location.hash = `#/t/${made.code}`;
    } catch (err) { toast(err.message); }
  };
  const codeInput = h("input", { id: "join-code", placeholder: "table code", maxlength: 6, "aria-label": "table code" });
  const tableItem = (t, verb) => h("li", {},
    h("a", { href: `#/t/${t.code}` }, h("span", { class: "code" }, t.code)), ` ${t.game} · `,
    t.seats.map((s) => s.name || "(empty)").join(", "), " ",
    h("a", { href: `#/t/${t.code}` }, verb));
  mount(
    h("section", { class: "box" },
      h("h1", {}, "Play a game"),
      h("form", { onsubmit: create, id: "create-form" },
        h("div", { class: "row" }, gameSelect, h("label", {}, "seats ", seats), name),
        h("div", { class: "row" }, botSelect),
        options,
        h("p", {}, h("button", { class: "primary", type: "submit", id: "create" }, "Create table")),
        h("p", { class: "muted" }, "You get a code and a link to share. Friends join with it; bots fill any seat you like."))),
    h("section", { class: "box" },
      h("h2", {}, "Join with a code"),
      h("form", { class: "row", onsubmit: (e) => { e.preventDefault(); location.hash = `#/t/${codeInput.value.trim().toUpperCase()}`; } },
        codeInput, h("button", { type: "submit" }, "Go"))),
    h("div", { class: "grid" },
      h("section", { class: "box" }, h("h2", {}, "Open tables"),
        h("ul", { class: "plain", id: "open-tables" }, listing.open.map((t) => tableItem(t, "join")))),
      h("section", { class: "box" }, h("h2", {}, "Games in play"),
        h("ul", { class: "plain" }, listing.playing.map((t) => tableItem(t, "watch")))),
      h("section", { class: "box" }, h("h2", {}, "Finished games"),
        h("ul", { class: "plain" }, listing.finished.map((t) => h("li", {},
          `${t.game} · ${t.players.join(", ")} · won by ${t.winners.join(" & ") || "nobody"} `,
          h("a", { href: `#/replay/${t.code}` }, "replay")))))),
  );
}

// ---------------------------------------------------------------- a table

async function showTable(code) {
  closeSocket();
  document.getElementById("where").textContent = `table ${code}`;
  let info;
  try { info = await api(`/api/tables/${code}`); } catch (err) { mount(h("p", {}, err.message)); return; }
  App.table = info;
  const seat = savedSeat(code);
  if (!seat && info.status === "open") { showJoin(info); return; }
  connect(code, seat ? seat.token : null);
}

function showJoin(info) {
  const name = h("input", { id: "join-name", placeholder: "your name", value: defaultName(), maxlength: 24, "aria-label": "your name" });
  const join = async (e) => {
    e.preventDefault();
    try {
      localStorage.setItem("bestiary.name", name.value.trim());
      const made = await api(`/api/tables/${info.code}/join`, { name: name.value.trim() || "player" });
      saveSeat(info.code, { token: made.token, seat: made.seat });
      connect(info.code, made.token);
    } catch (err) { toast(err.message); }
  };
  mount(h("section", { class: "box" },
    h("h1", {}, `Join table `, h("span", { class: "code" }, info.code), ` (${info.game})`),
    h("p", {}, "Seated: ", info.seats.map((s) => s.name || "(empty)").join(", ")),
    h("form", { class: "row", onsubmit: join }, name, h("button", { class: "primary", type: "submit", id: "join" }, "Take a seat")),
    h("p", {}, h("button", { type: "button", onclick: () => connect(info.code, null) }, "Just watch"))));
}

function connect(code, token) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${proto}://${location.host}/ws/${code}`);
  App.socket = socket;
  socket.onopen = () => socket.send(JSON.stringify({ type: "hello", v: 1, token }));
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
    if (App.socket !== socket) return;
    toast("connection lost; reconnecting...");
    setTimeout(() => { if (App.socket === socket) connect(code, token); }, 1000);
  };
}

function send(action) {
  if (App.socket && App.socket.readyState === WebSocket.OPEN) {
    App.socket.send(JSON.stringify({ type: "action", action, ref: Date.now() }));
  }
}

function receive(message) {
  if (message.type === "welcome") {
    App.me = { seat: message.seat, player: message.player };
    App.table = message.table;
  } else if (message.type === "table") {
    App.table = message.table;
  } else if (message.type === "state") {
    const previous = App.state;
    App.state = message;
    if (App.table && App.table.game === "wild") Wild.onEvents(message.events, previous);
  } else if (message.type === "error") {
    toast(message.message);
    if (message.code === "bad_token" || message.code === "unseated") { saveSeat(App.table ? App.table.code : "", null); }
    // the server closes the socket after these: reconnecting would only be refused again
    if (["bad_token", "unseated", "no_table", "full", "too_many", "bad_version"].includes(message.code)) { App.socket = null; }
    return;
  }
  render();
}

function render() {
  const table = App.table;
  if (!table) return;
  if (table.status === "open" || !App.state) { renderWaiting(table); return; }
  const ctx = {
    view: App.state.view, legal: App.state.legal, me: App.me ? App.me.player : null,
    over: App.state.over, summary: App.state.summary, send, ui: App.ui, table,
  };
  const board = table.game === "wild" ? Wild.render(ctx) : Critters.render(ctx);
  const children = [board];
  if (App.state.over) children.unshift(renderResults(table.game, App.state.summary, App.state.winners));
  mount(...children);
  App.keyHandler = table.game === "wild" ? (e) => Wild.key(e, ctx) : (e) => Critters.key(e, ctx);
}

function renderWaiting(table) {
  const mine = App.me && App.me.seat !== null;
  const token = mine ? (savedSeat(table.code) || {}).token : null;
  const game = App.games.find((g) => g.name === table.game) || { bots: [] };
  const link = `${location.origin}/#/t/${table.code}`;
  const seatRow = (s) => {
    if (s.name) {
      return h("li", {}, `Seat ${s.seat + 1}: ${s.name}`, s.bot ? ` (bot: ${s.bot})` : (s.connected ? " ✓ here" : " (away)"));
    }
    const select = h("select", { "aria-label": `bot for seat ${s.seat + 1}` }, game.bots.map((b) => h("option", { value: b.name }, b.name)));
    return h("li", {}, `Seat ${s.seat + 1}: empty `, mine && game.bots.length ? [select, h("button", {
      type: "button", class: "add-bot",
      onclick: () => api(`/api/tables/${table.code}/bots`, { token, bot: select.value, seat: s.seat }).catch((e) => toast(e.message)),
    }, "add bot")] : null);
  };
  const isHost = mine && App.me.seat === 0;
  mount(h("section", { class: "box" },
    h("h1", {}, `${table.game === "wild" ? "Call of the Wild" : "Critters"} · table `, h("span", { class: "code", id: "table-code" }, table.code)),
    h("p", {}, "Share this link: ", h("a", { href: link, id: "share-link" }, link), " ",
      h("button", { type: "button", onclick: () => navigator.clipboard && navigator.clipboard.writeText(link).then(() => toast("link copied")) }, "copy")),
    h("ul", { class: "plain", id: "seats" }, table.seats.map(seatRow)),
    isHost ? h("p", {}, h("button", {
      class: "primary", id: "start", type: "button", disabled: table.seats.some((s) => !s.name),
      onclick: () => api(`/api/tables/${table.code}/start`, { token }).catch((e) => toast(e.message)),
    }, "Start the game")) : h("p", { class: "muted" }, mine ? "Waiting for the host to start..." : "Watching: the game has not started yet."),
  ));
}

function renderResults(game, summary, winners) {
  const players = Object.keys(summary.hands || summary.scores || {});
  const rows = game === "wild"
    ? players.map((p) => h("tr", {}, h("td", { class: winners.includes(p) ? "winner" : "" }, winners.includes(p) ? `🏆 ${p}` : p),
      h("td", {}, summary.scores[p]), h("td", {}, (summary.dens[p] || []).map((c) => `${c.creature} (${c.owner})`).join(", "))))
    : players.map((p) => h("tr", {}, h("td", { class: winners.includes(p) ? "winner" : "" }, winners.includes(p) ? `🏆 ${p}` : p),
      h("td", {}, summary.tableaus[p].filter((s) => s.full).length), h("td", {}, summary.hands[p].join(", ") || "-")));
  return h("section", { class: "box results", id: "results" },
    h("h2", {}, `Game over: ${winners.length ? winners.join(" & ") + (winners.length > 1 ? " share the win" : " wins") : "no winner"}`),
    h("table", {}, h("tr", {}, h("th", {}, "player"), h("th", {}, game === "wild" ? "score" : "full sets"), h("th", {}, game === "wild" ? "Den" : "hand at the end")), rows),
    game === "wild" ? Wild.reveal(summary) : null,
    h("p", {}, h("a", { href: "#/" }, "back to the lobby")));
}

// ---------------------------------------------------------------- replays

async function showReplay(code) {
  closeSocket();
  document.getElementById("where").textContent = `replay ${code}`;
  let data;
  try { data = await api(`/api/tables/${code}/replay`); } catch (err) { mount(h("p", {}, err.message)); return; }
  let step = 0;
  const last = data.frames.length - 1;
  const draw = () => {
    const frame = data.frames[step];
    const ctx = { view: frame.view, legal: [], me: null, over: false, send: () => {}, ui: {}, table: { game: data.game } };
    const board = data.game === "wild" ? Wild.render(ctx) : Critters.render(ctx);
    const ev = frame.event ? JSON.stringify(frame.event) : "the deal";
    mount(h("section", { class: "box" },
      h("div", { class: "row" },
        h("button", { type: "button", onclick: () => go(0) }, "⏮"),
        h("button", { type: "button", id: "prev", onclick: () => go(step - 1) }, "◀ back"),
        h("input", { type: "range", min: 0, max: last, value: step, "aria-label": "step", oninput: (e) => go(Number(e.target.value)) }),
        h("button", { type: "button", id: "next", onclick: () => go(step + 1) }, "next ▶"),
        h("button", { type: "button", id: "end", onclick: () => go(last) }, "⏭"),
        h("span", { id: "step" }, `step ${step} / ${last}`)),
      h("p", { class: "muted" }, ev)),
      step === last ? renderResults(data.game, data.summary, data.summary.winners) : null,
      board);
  };
  const go = (n) => { step = Math.max(0, Math.min(last, n)); draw(); };
  App.keyHandler = (e) => {
    if (e.key === "ArrowRight") go(step + 1);
    else if (e.key === "ArrowLeft") go(step - 1);
    else if (e.key === "End") go(last);
    else if (e.key === "Home") go(0);
  };
  draw();
}

// ---------------------------------------------------------------- routing and keys

function route() {
  App.keyHandler = null;
  const hash = location.hash || "#/";
  const table = hash.match(/^#\/t\/([A-Za-z0-9]+)/);
  const replay = hash.match(/^#\/replay\/([A-Za-z0-9]+)/);
  if (table) showTable(table[1].toUpperCase());
  else if (replay) showReplay(replay[1].toUpperCase());
  else showLobby();
}

document.addEventListener("keydown", (e) => {
  const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName);
  if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === "m") { Sound.toggle(); return; }
  if (App.keyHandler) App.keyHandler(e);
});
document.getElementById("mute").addEventListener("click", () => Sound.toggle());
Sound.setMuted(Sound.isMuted());
window.addEventListener("hashchange", route);
api("/api/games").then((games) => { App.games = games; route(); });
