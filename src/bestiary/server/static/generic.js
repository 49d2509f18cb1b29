// The generic board: any game with no board of its own is playable at once. Its view is shown
// one field a row, its legal actions are buttons (keys 1-9 press them), the log tells each event
// as it is; the rules are the game's own summary from /api/games.
import { html } from "./lib.js";
import { Control, HowToPlay, controlId } from "./ui.js";

const words = (k) => String(k).replace(/_/g, " ");

// A view's value in words: lists joined, objects as "key: value", nothing as a dash.
function shown(v) {
  if (v === null || v === undefined || (Array.isArray(v) && !v.length)) return "-";
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (Array.isArray(v)) return v.map(shown).join(", ");
  if (typeof v === "object") return Object.entries(v).map(([k, x]) => `${k}: ${shown(x)}`).join("; ") || "-";
  return String(v);
}

// One action or event in words: what it does and its other fields.
function label(a) {
  const rest = Object.entries(a).filter(([k]) => k !== "by" && k !== "do").map(([k, v]) => `${words(k)} ${shown(v)}`);
  return `${a.do || "?"}${rest.length ? ` (${rest.join(", ")})` : ""}`;
}

function Fields({ id, title, fields }) {
  return html`<section class="box" id=${id} aria-label=${title}><h2>${title}</h2>
    <dl class="fields">${Object.entries(fields || {}).map(([k, v]) => html`<div key=${k} class="field"><dt>${words(k)}</dt><dd>${shown(v)}</dd></div>`)}</dl>
  </section>`;
}

function Board({ view, legal, me }) {
  const moves = legal || [];
  return html`<div id="generic-board" class="board generic">
    <${Fields} id="view" title=${me ? "What you see" : "What the table shows"} fields=${view}/>
    ${me ? html`<section class="box" aria-labelledby="moves-title"><h2 id="moves-title">${moves.length ? "Your move" : "Waiting for the others..."}</h2>
      <div class="row" id="moves" role="group" aria-label="your legal moves">${moves.map((a, i) => html`<${Control} key=${i}
        id=${controlId("move", i)} action=${a} label=${`${i < 9 ? `${i + 1}: ` : ""}${label(a)}`}>${label(a)}</${Control}>`)}</div>
    </section>` : null}
  </div>`;
}

function narrate(events, before, after, me) {
  return events.map((e) => ({ text: `${e.by ? (e.by === me ? "You" : e.by) : "The table"}: ${label(e)}.`, by: e.by || null }));
}

function keys(e, { legal, send }) {
  const n = Number(e.key);
  if (!legal || !(n >= 1 && n <= Math.min(9, legal.length))) return false;
  send(legal[n - 1], controlId("move", n - 1));
  return true;
}

function Rules({ info }) {
  return html`<${HowToPlay} title=${info.title}><p>${info.summary}</p></${HowToPlay}>`;
}

function Results({ summary }) {
  return html`<${Fields} id="summary" title="How it ended" fields=${summary}/>`;
}

export default { Board, Rules, Results, narrate, hear: () => {}, keys };
