// Game Changer's choice in two steps, as at a real table: first which of your Down Cards to
// give, then which of an opponent's to take (grouped by opponent), instead of one long button
// for every pair. Only the engine's legal moves are offered. A swap of a card for the same
// card of the same set changes nothing at all (the sheet never makes a player play an action
// card; passing or discarding is always there instead), so such swaps are left out unless they
// are the only ones.
import { html } from "/static/lib.js";
import { Control } from "/static/ui.js";
import { changed } from "/static/store.js";
import { capital } from "/static/words.js";

const chosen = { give: null }; // the Down Card picked to give ("card|kind"), kept across updates
const key = (part) => `${part.card}|${part.kind}`;
const same = (m) => m.give.card === m.take.card && m.give.kind === m.take.kind;

export function changerMoves(moves) {
  const useful = moves.filter((m) => !same(m));
  return { shown: useful.length ? useful : moves, left: useful.length ? moves.length - useful.length : 0 };
}

export function GameChanger({ moves, w, played, label }) {
  const { shown, left } = changerMoves(moves);
  const gives = [...new Map(shown.map((m) => [key(m.give), m.give])).values()];
  // the first Down Card is picked until another is: its swaps are a press away, as every
  // other card's moves are (the first button under a card is always a move)
  if (!gives.some((g) => key(g) === chosen.give)) chosen.give = gives.length ? key(gives[0]) : null;
  const part = (p) => `${w.name(p.card)} (${w.name(p.kind)} set)`;
  const takes = shown.filter((m) => key(m.give) === chosen.give);
  const targets = [...new Set(takes.map((m) => m.target))];
  return html`<div class="changer" id="changer">
    <fieldset class="row give"><legend>1. Give one of your Down Cards:</legend>
      ${gives.map((g, i) => html`<label key=${key(g)} for=${`give-${i}`} class=${chosen.give === key(g) ? "chosen" : ""}><input type="radio" name="give" id=${`give-${i}`}
        checked=${chosen.give === key(g)} onChange=${() => { chosen.give = key(g); changed(); }}/> ${capital(part(g))}</label>`)}</fieldset>
    ${targets.map((t) => html`<div class="row" key=${t} role="group" aria-label=${`2. take one of ${t}'s Down Cards`}><span>2. Take one of ${t}'s:</span>
      ${takes.filter((m) => m.target === t).map((m) => html`<${Control} key=${key(m.take)} id=${`take-${t}-${key(m.take)}`.replace(/[^A-Za-z0-9_-]/g, "_")} action=${m} data-do="game_changer"
        onPress=${() => { chosen.give = null; played(); }} title=${label(m)} label=${label(m)}>${capital(part(m.take))}</${Control}>`)}</div>`)}
    ${left ? html`<p class="muted" id="changer-same">${left === 1 ? "One swap" : `${left} swaps`} of a card for the same card in the same set would change nothing: not offered.</p>` : null}
  </div>`;
}
