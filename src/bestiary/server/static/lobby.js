// The lobby: the games described, a table created from each game's served options, tables to
// join or watch, and finished games (date, players, winner) to replay.
import { html, useEffect, useState } from "./lib.js";
import { store, api, saveSeat, defaultName, gameInfo, toast } from "./store.js";
import { capital, listing } from "./words.js";
import { saveFill } from "./friends.js";

function OptionField({ spec, value, set }) {
  const id = `opt-${spec.name}`;
  const label = capital(spec.description || spec.name);
  if (spec.kind === "bool") {
    return html`<label class="option" for=${id}><input type="checkbox" id=${id} checked=${!!value} onChange=${(e) => set(e.target.checked)}/> ${label}</label>`;
  }
  if (spec.kind === "choice") {
    return html`<label class="option" for=${id}>${label} <select id=${id} value=${String(value)} onChange=${(e) => set(spec.choices.find((c) => String(c) === e.target.value))}>
      ${spec.choices.map((c) => html`<option key=${String(c)} value=${String(c)}>${String(c)}${c === spec.default ? " (default)" : ""}</option>`)}</select></label>`;
  }
  if (spec.kind === "int" || spec.kind === "number") {
    return html`<label class="option" for=${id}>${label} <input type="number" id=${id} class="narrow" value=${value ?? ""}
      placeholder=${spec.default === null ? "default" : String(spec.default)} min=${spec.minimum ?? undefined} max=${spec.maximum ?? undefined}
      step=${spec.kind === "int" ? 1 : "any"} onInput=${(e) => set(e.target.value === "" ? null : Number(e.target.value))}/></label>`;
  }
  return null; // decks are chosen by name on the command line, not from the browser
}

// Set once this browser has sat at a game (store.js): it is no longer a first-timer.
export const PLAYED = "bestiary.played";

const LEVEL_TITLES = { easy: "Easy", medium: "Medium", hard: "Hard", practice: "Practice" };

// "Hard: reader (default)": a bot's level, its name, and whether the table would pick it.
export function botLabel(b, info) {
  return `${LEVEL_TITLES[b.level] || capital(b.level || "")}: ${b.name}${b.name === info.default_bot ? " (default)" : ""}`;
}

// Bots as people choose them (BGA-style levels): easy to hard by the ladder's measured strength,
// then the practice bots with set habits; the default says so, and the chosen bot's persona is
// written out under the menu (not in it: the menu stays as narrow as its shortest line allows).
function BotChoice({ info, chosen, choose }) {
  const groups = ["easy", "medium", "hard", "practice"].map((level) => [level, info.bots.filter((b) => b.level === level)]).filter(([, bs]) => bs.length);
  const label = (b) => botLabel(b, info);
  const picked = info.bots.find((b) => b.name === chosen);
  return html`<div class="bot-choice">
    <label for="fill-bot">Empty seats at the start <select id="fill-bot" value=${chosen} onChange=${(e) => choose(e.target.value)}>
      <option value="">leave them for friends</option>
      ${groups.map(([level, bs]) => html`<optgroup key=${level} label=${level === "practice" ? "Practice (set habits to learn against)" : `${LEVEL_TITLES[level]} bots`}>
        ${bs.map((b) => html`<option key=${b.name} value=${b.name}>${label(b)}</option>`)}</optgroup>`)}
    </select></label>
    <p class="muted" id="bot-persona">${picked ? html`<b>${label(picked)}</b>: ${picked.persona} Friends with the link take seats first; this bot fills the rest when you start.` : "Friends take the empty seats with the table's link; you can still add bots before the start."}</p>
  </div>`;
}

function CreateForm() {
  const games = store.games;
  const [game, setGame] = useState(games[0] ? games[0].name : "");
  const info = gameInfo(game);
  const [seats, setSeats] = useState(4);
  const [name, setName] = useState(defaultName());
  const [bot, setBot] = useState(null);
  const [values, setValues] = useState({});
  if (!info) return html`<p>No games are registered.</p>`;
  // A browser that has never sat at a game here starts at a gentle table: Easy bots and the
  // slow pace, said plainly above the choices (a returning one gets the served defaults).
  const first = !localStorage.getItem(PLAYED);
  const easy = first ? info.bots.find((b) => b.level === "easy") : null;
  const chosenBot = bot === null ? (easy ? easy.name : info.default_bot || "") : bot;
  const gentle = (spec) => (first && spec.name === "pace" && (spec.choices || []).includes("slow") ? "slow" : spec.default);
  const optionValue = (spec) => (spec.name in values ? values[spec.name] : gentle(spec));
  const create = async (e) => {
    e.preventDefault();
    const options = {};
    for (const spec of info.options) {
      const v = optionValue(spec);
      if (v !== null && v !== undefined && v !== spec.default) options[spec.name] = v;
    }
    const count = Math.max(info.min_players, Math.min(info.max_players, Number(seats)));
    try {
      localStorage.setItem("bestiary.name", name.trim());
      // the seats stay open for friends until the start; then the chosen bot fills the rest
      const body = { game, seats: count, name: name.trim() || "player", options };
      for (const spec of info.table_options || []) body[spec.name] = optionValue(spec); // the bots' pace
      const made = await api("/api/tables", body);
      saveSeat(made.code, { token: made.token, seat: made.seat });
      saveFill(made.code, chosenBot);
      location.hash = `#/t/${made.code}`;
    } catch (err) { toast(err.message); }
  };
  return html`<form id="create-form" onSubmit=${create}>
    <fieldset class="games"><legend>Game</legend>
      ${games.map((g) => html`<label key=${g.name} class=${`game-choice ${g.name === game ? "chosen" : ""}`}>
        <input type="radio" name="game" value=${g.name} checked=${g.name === game} onChange=${() => { setGame(g.name); setValues({}); setBot(null); }}/>
        <b>${g.title}</b> <span class="muted">(${g.real_time ? "real time" : "turn-based"}, ${g.min_players}-${g.max_players} players)</span>
        <span class="summary">${g.summary}</span></label>`)}
    </fieldset>
    <div class="row">
      <label for="name">Your name <input id="name" value=${name} maxlength="24" autocomplete="nickname" onInput=${(e) => setName(e.target.value)}/></label>
      <label for="seats">Seats <input id="seats" type="number" class="narrow" min=${info.min_players} max=${info.max_players} value=${seats} onInput=${(e) => setSeats(e.target.value)}/></label>
    </div>
    ${first ? html`<p class="first-game" id="first-game">Your first game here? This table starts gentle: ${easy ? html`<b>Easy bots</b>` : "the default bots"}${(info.table_options || []).some((t) => t.name === "pace") ? html` at a <b>slow pace</b>` : null}. Change them below when you like.</p>` : null}
    <div class="row">
      <${BotChoice} info=${info} chosen=${chosenBot} choose=${setBot}/>
      ${(info.table_options || []).map((spec) => html`<${OptionField} key=${`${game}-${spec.name}`} spec=${spec} value=${optionValue(spec)}
        set=${(v) => setValues({ ...values, [spec.name]: v })}/>`)}
    </div>
    <div class="options" id="options">${info.options.map((spec) => html`<${OptionField} key=${`${game}-${spec.name}`} spec=${spec} value=${optionValue(spec)}
      set=${(v) => setValues({ ...values, [spec.name]: v })}/>`)}</div>
    <p><button class="primary" type="submit" id="create">Create table</button></p>
    <p class="muted">You get a code and a link to share. Friends join with it; bots fill the seats still empty when you start.</p>
  </form>`;
}

function when(seconds) {
  if (!seconds) return "";
  return new Date(seconds * 1000).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

export function Lobby() {
  const [tables, setTables] = useState({ open: [], playing: [], finished: [] });
  const [code, setCode] = useState("");
  useEffect(() => {
    let live = true;
    const load = () => api("/api/tables").then((t) => { if (live) setTables(t); }).catch(() => {});
    load();
    const timer = setInterval(load, 5000);
    return () => { live = false; clearInterval(timer); };
  }, []);
  const title = (g) => (gameInfo(g) || { title: g }).title;
  const seatNames = (t) => t.seats.map((s) => s.name || "(empty)").join(", ");
  return html`<div class="lobby">
    <section class="box"><h1>Play a game</h1><${CreateForm}/></section>
    <section class="box"><h2>Join with a code</h2>
      <form class="row" onSubmit=${(e) => { e.preventDefault(); location.hash = `#/t/${code.trim().toUpperCase()}`; }}>
        <label for="join-code">Table code <input id="join-code" value=${code} maxlength="6" onInput=${(e) => setCode(e.target.value)}/></label>
        <button type="submit">Go</button></form></section>
    <div class="grid">
      <section class="box"><h2>Open tables</h2>
        <ul class="plain" id="open-tables">${tables.open.map((t) => html`<li key=${t.code}><a href=${`#/t/${t.code}`}><span class="code">${t.code}</span> join</a> · ${title(t.game)} · ${seatNames(t)}</li>`)}</ul>
        ${tables.open.length ? null : html`<p class="muted">None right now.</p>`}</section>
      <section class="box"><h2>Games in play</h2>
        <ul class="plain" id="playing-tables">${tables.playing.map((t) => html`<li key=${t.code}><a href=${`#/t/${t.code}`}><span class="code">${t.code}</span> watch</a> · ${title(t.game)} · ${seatNames(t)}</li>`)}</ul>
        ${tables.playing.length ? null : html`<p class="muted">None right now.</p>`}</section>
      <section class="box"><h2>Finished games</h2>
        <ul class="plain" id="finished">${tables.finished.map((t) => html`<li key=${t.code}>
          <a href=${`#/replay/${t.code}`}>replay <span class="code small">${t.code}</span></a> · ${title(t.game)} · ${when(t.finished)}<br/>
          ${listing(t.players)} · ${t.winners.length ? `won by ${listing(t.winners)}` : "no winner"}</li>`)}</ul>
        ${tables.finished.length ? null : html`<p class="muted">None yet.</p>`}</section>
    </div>
  </div>`;
}
