// bestiary web client: one Preact tree rendered from the store (no build step). Pages: the lobby,
// a table (waiting room, board, results, log, rules), a finished game's replay.
import { html, render, useEffect, useLayoutEffect, useMemo, useReducer, useState } from "./lib.js";
import { store, subscribe, changed, api, gameInfo, openTable, closeTable, savedSeat, send, toast } from "./store.js";
import { boardFor, loadBoards } from "./boards.js";
import { Lobby, botLabel } from "./lobby.js";
import { Countdown, MoveLog, Ticker } from "./ui.js";
import { listing } from "./words.js";
import { Sound } from "./sound.js";
import { FillChoice, JoinForm, Reactions, Rematch, Watching, followed, savedFill, startGame } from "./friends.js";
import { AlertToggle, startAlerts } from "./alerts.js";
import { FirstGameHint } from "./howto.js";

// ------------------------------------------------------------------ a table

function startTable(code, token) {
  const table = store.table;
  const board = boardFor(table ? table.game : "");
  const info = table ? gameInfo(table.game) : null;
  store.route = { page: "table", code };
  openTable(code, token, (events, before, after, me, quiet = false) => {
    if (!board || !info) return [];
    if (!quiet) board.hear(events, info.vocabulary, me); // missed moves told at once stay silent
    return board.narrate(events, before, after, me, info.vocabulary);
  });
  store.table = table;
  changed();
}

// The table's link, and how friends on other machines reach it: from /api/reach (the address
// the server listens on), never a guess.
function ShareLink({ table }) {
  const [reach, setReach] = useState(null);
  useEffect(() => { api("/api/reach").then(setReach).catch(() => setReach(null)); }, []);
  const link = `${location.origin}/#/t/${table.code}`;
  const local = ["localhost", "127.0.0.1", "[::1]"].includes(location.hostname);
  const port = (reach && reach.port) || location.port || (location.protocol === "https:" ? 443 : 80);
  let friends = null;
  if (local && reach && reach.friends.length) {
    friends = html`Friends on your network open ${reach.friends.map((url, i) => html`${i ? " or " : ""}<code key=${url}>${url.replace(/\/$/, "")}/#/t/${table.code}</code>`)}.`;
  } else if (local && !(reach && reach.local_only === false)) {
    friends = html`This address works on this computer only. For friends on other machines, stop the server and start it again with <code>make run HOST=0.0.0.0 PORT=${port}</code>, then share the network address it prints.`;
  }
  return html`<p class="share">Share this link: <a href=${link} id="share-link">${link}</a>
    <button type="button" onClick=${() => navigator.clipboard && navigator.clipboard.writeText(link).then(() => toast("Link copied."))}>copy</button>
    ${friends ? html`<br/><span class="muted" id="share-local">${friends}</span>` : null}</p>`;
}

function Waiting({ table }) {
  const mine = store.me && store.me.seat !== null;
  const token = mine ? (savedSeat(table.code) || {}).token : null;
  const info = gameInfo(table.game) || { bots: [], title: table.game };
  const [bots, setBots] = useState({});
  const isHost = mine && store.me.seat === 0;
  return html`<section class="box">
    <h1>${info.title} · table <span class="code" id="table-code">${table.code}</span></h1>
    <${ShareLink} table=${table}/>
    ${mine ? null : html`<${JoinForm} table=${table} onSeated=${(seated) => startTable(table.code, seated)}/>`}
    <ul class="plain" id="seats">${table.seats.map((s) => html`<li key=${s.seat} data-player=${s.name || undefined}>Seat ${s.seat + 1}: ${s.name ? html`${s.name}${s.bot ? ` (bot: ${(info.bots.find((b) => b.name === s.bot) || { level: "" }).level} ${s.bot})` : s.connected ? " ✓ here" : " (away)"}` : "empty"}
      ${!s.name && mine && info.bots.length ? html` <label class="sr-only" for=${`bot-${s.seat}`}>bot for seat ${s.seat + 1}</label>
        <select id=${`bot-${s.seat}`} value=${bots[s.seat] || info.default_bot} onChange=${(e) => setBots({ ...bots, [s.seat]: e.target.value })}>
          ${info.bots.map((b) => html`<option key=${b.name} value=${b.name}>${botLabel(b, info)}</option>`)}</select>
        <button type="button" class="add-bot" onClick=${() => api(`/api/tables/${table.code}/bots`, { token, bot: bots[s.seat] || info.default_bot, seat: s.seat }).catch((e) => toast(e.message))}>add bot</button>` : null}
      ${isHost && s.name && s.seat !== 0 ? html` <${RemoveSeat} table=${table} token=${token} seat=${s} label="Remove"/>` : null}</li>`)}</ul>
    ${isHost ? html`<${FillChoice} table=${table} info=${info}/><p><button class="primary" id="start" type="button" disabled=${table.seats.some((s) => !s.name) && !savedFill(table.code)}
        onClick=${() => startGame(table, token)}>Start the game</button>
        ${table.seats.some((s) => !s.name) && !savedFill(table.code) ? html` <span class="muted">Every seat needs a player or a bot first.</span>` : null}</p>`
      : html`<p class="muted">${mine ? "Waiting for the host to start..." : "Watching: the game has not started yet."}</p>`}
    <${Reactions} table=${table}/>
  </section>`;
}

function Results({ board, info, summary, winners, me, replayLink, table }) {
  const head = winners.length ? `${listing(winners)} ${winners.length > 1 ? "share the win" : "wins"}` : "no winner";
  return html`<section class="box results" id="results" aria-labelledby="results-title">
    <h2 id="results-title">Game over: ${head}</h2>
    <${board.Results} summary=${summary} winners=${winners} me=${me} info=${info}/>
    ${table ? html`<${Rematch} table=${table}/>` : null}
    <p>${replayLink ? html`<a href=${replayLink}>Replay this game step by step</a> · ` : null}<a href="#/">Back to the lobby</a></p>
  </section>`;
}

// The host takes a seat back: before the start it opens again; after it, a player who stays
// away loses the seat to a bot for the rest of the game (the server says no to anything else).
function RemoveSeat({ table, token, seat, label }) {
  return html`<button type="button" class="remove-seat" id=${`remove-${seat.seat}`}
    aria-label=${`${label}: ${seat.name}, seat ${seat.seat + 1}`}
    onClick=${() => api(`/api/tables/${table.code}/remove`, { token, seat: seat.seat }).catch((e) => toast(e.message))}>${label}</button>`;
}

function Graces({ table }) {
  const away = table.seats.filter((s) => s.grace_seconds !== undefined);
  const standing = table.seats.filter((s) => s.stand_in);
  if (!away.length && !standing.length) return null;
  const host = store.me && store.me.seat === 0 ? (savedSeat(table.code) || {}).token : null;
  return html`<p class="muted" id="graces">${away.map((s) => html`<span key=${s.seat}>${s.name} is away:
    <${Countdown} label="a bot stands in in" seconds=${s.grace_seconds} since=${store.tableReceived}/>.
    ${host && s.seat !== 0 ? html`<${RemoveSeat} table=${table} token=${host} seat=${s} label="Give the seat to a bot"/>` : null} </span>`)}
    ${standing.map((s) => html`<span key=${`b${s.seat}`}>A bot plays for ${s.name} until they come back. </span>`)}</p>`;
}

function TablePage() {
  const table = store.table;
  if (!table) return html`<p>Connecting...</p>`;
  const info = gameInfo(table.game);
  const board = boardFor(table.game);
  if (!info || !board) return html`<p>This browser client has no board for the game ${table.game} yet.</p>`;
  if (table.status === "open" || !store.state) return html`<${Waiting} table=${table}/>`;
  const s = store.state;
  const me = store.me ? store.me.player : null;
  const ctx = { view: s.view, legal: s.legal, me, info, timers: s.timers || {}, events: s.events, ticker: html`<${Ticker} lines=${store.log}/>` };
  const log = html`<${MoveLog} lines=${store.log} from=${store.logFrom}/>`;
  return html`<div class=${`table-page ${board.logBeside ? "beside" : ""}`}>
    ${s.over ? html`<${Results} board=${board} info=${info} summary=${s.summary} winners=${s.winners} me=${me} replayLink=${`#/replay/${table.code}`} table=${table}/>` : null}
    <${Graces} table=${table}/>
    <${Watching} table=${table}/>
    <${FirstGameHint}/>
    <div class="board-col">
      <${board.Board} ...${ctx}/>
      <${Reactions} table=${table}/>
      ${board.logBeside ? html`<${board.Rules} info=${info}/>` : html`<div class="grid">${log}<${board.Rules} info=${info}/></div>`}
    </div>
    ${board.logBeside ? html`<aside class="side" aria-label="moves">${log}</aside>` : null}
  </div>`;
}

// ------------------------------------------------------------------ replays

function ReplayPage({ code }) {
  const [data, setData] = useState(null);
  const [problem, setProblem] = useState(null);
  const [step, setStep] = useState(0);
  useEffect(() => {
    api(`/api/tables/${code}/replay`).then(setData).catch(async (err) => {
      const live = await api(`/api/tables/${code}`).catch(() => null);
      setProblem(live && live.status !== "finished" ? "live" : err.message);
    });
  }, [code]);
  const info = data ? gameInfo(data.game) : null;
  const board = data ? boardFor(data.game) : null;
  // Every move's sentences once (numbered by move, as the live log is), and the moves that a
  // board marks as worth a jump (wild: meetings).
  const [lines, marks] = useMemo(() => {
    if (!data || !info || !board) return [[], []];
    const out = [];
    const marked = [];
    for (let i = 1; i < data.frames.length; i++) {
      const f = data.frames[i], before = data.frames[i - 1].view;
      for (const line of board.narrate([f.event], before, f.view, null, info.vocabulary)) out.push({ ...line, seq: i });
      if (board.landmark && board.landmark(f.event, before, f.view)) marked.push(i);
    }
    return [out, marked];
  }, [data]);
  useEffect(() => {
    // from the step as it is when the key is handled (keys can come faster than renders)
    const moves = {
      ArrowRight: (n) => n + 1, ArrowLeft: (n) => n - 1, End: () => Infinity, Home: () => 0,
      PageDown: (n) => marks.find((m) => m > n) ?? n, PageUp: (n) => [...marks].reverse().find((m) => m < n) ?? n,
    };
    store.replayKeys = (e) => {
      if (!data || !moves[e.key]) return false;
      const last = data.frames.length - 1;
      setStep((n) => Math.max(0, Math.min(last, moves[e.key](n))));
      return true;
    };
    return () => { store.replayKeys = null; };
  }, [data, marks]);
  if (problem === "live") return html`<section class="box"><h1>Table ${code} is still in play</h1><p>Replays open once a game is over. <a href=${`#/t/${code}`}>Watch it live</a>.</p></section>`;
  if (problem) return html`<section class="box"><p>${problem}</p><p><a href="#/">Back to the lobby</a></p></section>`;
  if (!data) return html`<p>Loading the replay...</p>`;
  if (!info || !board) return html`<p>This browser client has no board for the game ${data.game} yet.</p>`;
  const last = data.frames.length - 1;
  const frame = data.frames[step];
  const go = (n) => setStep(Math.max(0, Math.min(last, n)));
  const dealt = `The cards are dealt to ${listing(data.players)}.`;
  const now = step === 0 ? [{ text: dealt }] : lines.filter((l) => l.seq === step);
  const nextMark = marks.find((m) => m > step), prevMark = [...marks].reverse().find((m) => m < step);
  const markName = board.landmarkName || "key move";
  const log = html`<${MoveLog} lines=${lines} id="replay-log" current=${step} pick=${go} head=${dealt}/>`;
  return html`<div class=${`replay table-page ${board.logBeside ? "beside" : ""}`}>
    <section class="box replay-bar"><h1>Replay · ${info.title} · <span class="code">${code}</span></h1>
      <div class="row" role="group" aria-label="replay steps">
        <button type="button" id="first" onClick=${() => go(0)}>⏮ start</button>
        <button type="button" id="prev" onClick=${() => go(step - 1)}>◀ back</button>
        <button type="button" id="next" onClick=${() => go(step + 1)}>next ▶</button>
        <button type="button" id="end" onClick=${() => go(last)}>end ⏭</button>
        ${marks.length ? html`<button type="button" id="prev-mark" disabled=${prevMark === undefined} onClick=${() => go(prevMark)}>⏪ previous ${markName}</button>
          <button type="button" id="next-mark" disabled=${nextMark === undefined} onClick=${() => go(nextMark)}>next ${markName} ⏩</button>` : null}
        <span id="step" aria-live="polite">Move ${step} of ${last}</span>
      </div>
      <p id="step-text">${now.map((l) => l.text).join(" ")}</p>
      <p class="keys">Keys: <kbd>←</kbd> <kbd>→</kbd> step · <kbd>Home</kbd> <kbd>End</kbd>${marks.length ? html` · <kbd>PgUp</kbd> <kbd>PgDn</kbd> ${markName}s` : null} · click a line of the log to go there</p>
    </section>
    ${step === last ? html`<${Results} board=${board} info=${info} summary=${data.summary} winners=${data.summary.winners || []} me=${null}/>` : null}
    <div class="board-col">
      <${board.Board} view=${frame.view} legal=${[]} me=${null} info=${info} timers=${{}} events=${frame.event ? [frame.event] : []}/>
      ${board.logBeside ? html`<${board.Rules} info=${info}/>` : html`<div class="grid">${log}<${board.Rules} info=${info}/></div>`}
    </div>
    ${board.logBeside ? html`<aside class="side" aria-label="moves">${log}</aside>` : null}
  </div>`;
}

// ------------------------------------------------------------------ the frame

function route() {
  const hash = location.hash || "#/";
  const table = hash.match(/^#\/t\/([A-Za-z0-9]+)/);
  const replay = hash.match(/^#\/replay\/([A-Za-z0-9]+)/);
  closeTable();
  if (table) {
    const code = table[1].toUpperCase();
    store.route = { page: "table", code };
    api(`/api/tables/${code}`).then((info) => {
      if (followed(info)) return;
      store.table = info;
      const seat = savedSeat(code);
      startTable(code, seat ? seat.token : null); // without a seat: watching, with the join form
      changed();
    }).catch((err) => { store.route = { page: "missing", message: err.message }; changed(); });
  } else if (replay) store.route = { page: "replay", code: replay[1].toUpperCase() };
  else store.route = { page: "lobby" };
  changed();
  focus.id = null; // a new page starts at its top
  const main = document.getElementById("main");
  if (main) main.focus({ preventScroll: true });
}

// ------------------------------------------------------------------ focus across updates

// The control the player last focused, and the nearest container with an id around it. An
// update may take that control away (a move made, a card played): focus then goes to the next
// sensible control (the same id again, else the first live control in the same container,
// else the hand), never back to the top of the page.
const focus = { id: null, near: null };
document.addEventListener("focusin", (e) => {
  const el = e.target;
  if (!el || !el.id || el.id === "main") return;
  focus.id = el.id;
  const near = el.parentElement && el.parentElement.closest("[id]");
  focus.near = near && near.id !== "main" ? near.id : null;
});
// A press outside any control means the player let go of the focus on purpose.
document.addEventListener("pointerdown", (e) => {
  if (!(e.target instanceof Element) || !e.target.closest("button, a, input, select, summary, [tabindex]")) focus.id = null;
});

function keepFocus() {
  const now = document.activeElement;
  if (!focus.id || (now && now !== document.body && now.id !== "main")) return;
  const live = (el) => el && !el.closest("[hidden]") && el.getClientRects().length > 0;
  const first = (root) => root && [...root.querySelectorAll("button, a[href], input, select, [tabindex='0']")]
    .filter(live).sort((x, y) => (x.getAttribute("aria-disabled") === "true") - (y.getAttribute("aria-disabled") === "true"))[0];
  const same = document.getElementById(focus.id);
  const next = live(same) ? same : first(document.getElementById(focus.near)) || first(document.getElementById("my-hand"));
  if (next) next.focus({ preventScroll: true });
}

function Root() {
  const [, redraw] = useReducer((n) => n + 1, 0);
  useEffect(() => subscribe(redraw), []);
  useLayoutEffect(keepFocus);
  const r = store.route;
  let page;
  let where = "lobby";
  if (r.page === "lobby") page = html`<${Lobby}/>`;
  else if (r.page === "table") { page = html`<${TablePage}/>`; where = `table ${r.code}`; }
  else if (r.page === "replay") { page = html`<${ReplayPage} key=${r.code} code=${r.code}/>`; where = `replay ${r.code}`; }
  else page = html`<section class="box"><p>${r.message}</p><p><a href="#/">Back to the lobby</a></p></section>`;
  const muted = Sound.isMuted();
  return html`<header class="top">
      <a href="#/" class="brand">bestiary</a><span id="where">${where}</span>
      <${AlertToggle}/>
      <button id="mute" type="button" aria-pressed=${muted ? "true" : "false"} title="Sound on/off (key: m)" onClick=${() => { Sound.toggle(); changed(); }}>sound: ${muted ? "off" : "on"}</button>
    </header>
    <main id="main" tabindex="-1">${page}</main>
    <div id="toast" class=${store.toast ? "show" : ""} role="status" aria-live="polite">${store.toast}</div>`;
}

document.addEventListener("keydown", (e) => {
  const el = document.activeElement;
  const typing = el && ["INPUT", "SELECT", "TEXTAREA"].includes(el.tagName);
  if (typing || e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
  if (e.key === "m") { Sound.toggle(); changed(); return; }
  if (store.route.page === "replay") { if (store.replayKeys && store.replayKeys(e)) e.preventDefault(); return; }
  if (store.route.page !== "table" || !store.state || !store.table) return;
  const board = boardFor(store.table.game);
  const info = gameInfo(store.table.game);
  if (!board || !info) return;
  const s = store.state;
  const ctx = { view: s.view, legal: s.legal, me: store.me ? store.me.player : null, info, send };
  if (board.keys(e, ctx)) e.preventDefault();
});

window.addEventListener("hashchange", route);
api("/api/games").then(async (games) => {
  store.games = games;
  await loadBoards(games);
  const app = document.getElementById("app");
  app.replaceChildren();
  render(html`<${Root}/>`, app);
  startAlerts();
  route();
}).catch((err) => { document.getElementById("main").textContent = `The server did not answer: ${err.message}`; });
