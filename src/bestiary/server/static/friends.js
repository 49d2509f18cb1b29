// A table of friends: the invite link's join form (live: it watches the table's socket, so a
// seat freed or a bot removed shows at once), the bots that fill the empty seats at the start,
// reactions shown by the sender's row, and the rematch that brings everyone to a new table.
import { html, useEffect, useLayoutEffect, useRef, useState } from "./lib.js";
import { store, api, changed, defaultName, gameInfo, handlers, saveSeat, savedSeat, sendMessage, toast } from "./store.js";
import { botLabel } from "./lobby.js";
import { listing } from "./words.js";

// ------------------------------------------------------------------ seats for people first

const fillKey = "bestiary.fill";
// The bot the host chose for the seats still empty at the start ("" : wait for friends).
export function savedFill(code) { return JSON.parse(localStorage.getItem(fillKey) || "{}")[code] ?? null; }
export function saveFill(code, bot) {
  const all = JSON.parse(localStorage.getItem(fillKey) || "{}");
  all[code] = bot;
  localStorage.setItem(fillKey, JSON.stringify(all));
}

// The host's choice, beside Start: which bot takes each seat still empty when the game starts.
export function FillChoice({ table, info }) {
  const [fill, setFill] = useState(savedFill(table.code) ?? "");
  const empty = table.seats.filter((s) => !s.name).length;
  const choose = (bot) => { saveFill(table.code, bot); setFill(bot); changed(); };
  if (!empty || !info.bots.length) return null;
  return html`<p class="fill"><label for="fill-at-start">The ${empty} empty ${empty === 1 ? "seat" : "seats"} at the start
    <select id="fill-at-start" value=${fill} onChange=${(e) => choose(e.target.value)}>
      <option value="">stay for friends (wait)</option>
      ${info.bots.map((b) => html`<option key=${b.name} value=${b.name}>${botLabel(b, info)}</option>`)}</select></label></p>`;
}

// Start: the seats still empty get the host's fill bot (none chosen: every seat must be taken).
export function startGame(table, token) {
  const fill = savedFill(table.code) || null;
  return api(`/api/tables/${table.code}/start`, fill ? { token, fill } : { token }).catch((e) => toast(e.message));
}

// What a friend who opened the link sees before sitting: the seats as they are now, and either
// the form to take one or the one sentence that says why not.
export function JoinForm({ table, onSeated }) {
  const [name, setName] = useState(defaultName());
  const open = table.seats.filter((s) => !s.name).length;
  const join = async (e) => {
    e.preventDefault();
    try {
      localStorage.setItem("bestiary.name", name.trim());
      const made = await api(`/api/tables/${table.code}/join`, { name: name.trim() || "player" });
      saveSeat(table.code, { token: made.token, seat: made.seat });
      onSeated(made.token);
    } catch (err) { toast(err.message); }
  };
  const host = table.seats[0] && table.seats[0].name;
  return html`<div class="join" id="join-box">
    <h2>Join this table</h2>
    ${open ? html`<form class="row" onSubmit=${join}><label for="join-name">Your name <input id="join-name" value=${name} maxlength="24" onInput=${(e) => setName(e.target.value)}/></label>
        <button class="primary" type="submit" id="join">Take a seat</button></form>
        <p class="muted">${open} ${open === 1 ? "seat is" : "seats are"} free. Until you sit down you are watching.</p>`
      : html`<p id="join-why">Every seat is taken; ${host ? `ask ${host} (the host)` : "ask the host"} to free one. Until then you are watching.</p>`}
  </div>`;
}

// A visitor without a seat at a game in play: why they are watching.
export function Watching({ table }) {
  if (!store.me || store.me.seat !== null || table.status !== "playing") return null;
  return html`<p class="muted" id="watching">This game began before you took a seat: you are watching it.</p>`;
}

// ------------------------------------------------------------------ reactions

const SHOWN_MS = 4000;
store.reactions = []; // [{seat, player, reaction, at}] the ones on screen now

handlers.reaction = (message) => {
  const at = performance.now();
  store.reactions = [...store.reactions.filter((r) => r.seat !== message.seat), { ...message, at }];
  setTimeout(() => { store.reactions = store.reactions.filter((r) => r.at !== at); changed(); }, SHOWN_MS);
  changed();
};

function reactionOf(info, key) {
  return ((info && info.reactions) || []).find((r) => r.key === key) || { sign: "?", words: key };
}

// The buttons (a seated player only: spectators watch) and each shown reaction by its sender's
// row (the board's or the waiting room's `[data-player]`), or in the bar when there is no row.
export function Reactions({ table }) {
  const info = gameInfo(table.game);
  const seated = store.me && store.me.seat !== null;
  const [, placed] = useState(0);
  const layer = useRef(null);
  useLayoutEffect(() => {
    const el = layer.current;
    if (!el) return;
    for (const bubble of el.querySelectorAll(".reaction-bubble")) {
      const row = document.querySelector(`[data-player="${CSS.escape(bubble.dataset.from)}"]`);
      const box = row && row.getBoundingClientRect();
      if (!box || !box.width) { bubble.classList.add("unplaced"); continue; }
      bubble.classList.remove("unplaced");
      bubble.style.top = `${box.top + 2}px`;
      bubble.style.left = `${Math.max(0, Math.min(box.right - 8, document.documentElement.clientWidth - 150))}px`;
    }
  });
  useEffect(() => {
    const again = () => placed((n) => n + 1);
    window.addEventListener("resize", again);
    window.addEventListener("scroll", again, { passive: true });
    return () => { window.removeEventListener("resize", again); window.removeEventListener("scroll", again); };
  }, []);
  if (!info || !(info.reactions || []).length) return null;
  return html`<div class="reactions" id="reactions">
    ${seated ? html`<div class="row reaction-bar" role="group" aria-label="reactions">
      ${info.reactions.map((r) => html`<button type="button" key=${r.key} id=${`react-${r.key}`} class="react" title=${r.words}
        aria-label=${`React: ${r.words}`} onClick=${() => sendMessage({ type: "react", reaction: r.key }, `react-${r.key}`)}>${r.sign}</button>`)}
      ${Object.keys(store.notes).filter((k) => k.startsWith("react-")).slice(0, 1).map((k) => html`<span key=${k} class="note-inline" role="status">${store.notes[k]}</span>`)}
    </div>` : null}
    <div ref=${layer} aria-live="polite">
      ${store.reactions.map((r) => { const shown = reactionOf(info, r.reaction); return html`<span key=${r.at} class="reaction-bubble" data-from=${r.player} data-reaction=${r.reaction}>
        <span aria-hidden="true">${shown.sign}</span> <span class="sr-only">${r.player}: </span><span class="words">${shown.words}</span></span>`; })}
    </div>
  </div>`;
}

// ------------------------------------------------------------------ the rematch

// Every socket at the finished table is told where its players went: a seated player's page
// keeps the new seat's token and moves there, a spectator's follows to watch.
handlers.rematch = (message) => {
  if (message.token) saveSeat(message.code, { token: message.token, seat: message.seat });
  toast(`Rematch: on to table ${message.code}.`);
  location.hash = `#/t/${message.code}`;
};

export function Rematch({ table }) {
  const token = store.me && store.me.seat !== null ? (savedSeat(table.code) || {}).token : null;
  const [asked, setAsked] = useState(false);
  if (table.next) return html`<p id="rematch-made">The players went on to <a href=${`#/t/${table.next}`}>table ${table.next}</a>.</p>`;
  if (!token) return null;
  const people = table.seats.filter((s) => !s.bot && s.connected).map((s) => s.name);
  const press = async () => {
    setAsked(true);
    try {
      const made = await api(`/api/tables/${table.code}/rematch`, { token });
      if (made.token) saveSeat(made.code, { token: made.token, seat: made.seat });
      location.hash = `#/t/${made.code}`;
    } catch (err) { setAsked(false); toast(err.message); }
  };
  return html`<p class="rematch"><button type="button" class="primary" id="rematch" disabled=${asked} onClick=${press}>Play again</button>
    <span class="muted"> Same game and seats${people.length ? ` with ${listing(people)}` : ""}; the next player starts, and bots take the seats of anyone who left.</span></p>`;
}

// The link of a finished table whose players went on to a rematch leads to the new table.
export function followed(info) {
  if (info.status !== "finished" || !info.next) return false;
  toast(`Table ${info.code} went on to a rematch: table ${info.next}.`);
  location.replace(`#/t/${info.next}`);
  return true;
}
