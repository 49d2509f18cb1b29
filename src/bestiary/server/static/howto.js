// "How to play" for a newcomer: whether this is the browser's first game (How to play then
// opens by itself, and a line at the top of the table points to it), and the glossary pieces a
// game's rules use to explain each of its words where it first comes up.
import { html } from "./lib.js";
import { store } from "./store.js";

const PLAYED = "bestiary.played"; // set by store.js when a seated player first gets a state
const FIRST = "bestiary.first-table"; // ... with that table's code

// The first game of this browser: it never sat at a game, or this is the table it first sat
// at (a reload in the middle of that first game keeps it the first).
export function firstGame() {
  const code = store.table ? store.table.code : null;
  return !localStorage.getItem(PLAYED) || (code !== null && localStorage.getItem(FIRST) === code);
}

// A word of the game where it first comes up: the word, and what it means in brackets.
export const Term = ({ word, children }) => html`<span class="term"><dfn>${word}</dfn> <span class="gloss">(${children})</span></span>`;

// The game's words, each with what it means: [[word, meaning], ...].
export function Glossary({ terms }) {
  return html`<section class="glossary" aria-labelledby="glossary-title"><h3 id="glossary-title">Words of the game</h3>
    <dl id="glossary">${terms.map(([word, meaning]) => html`<div key=${word}><dt>${word}</dt><dd>${meaning}</dd></div>`)}</dl></section>`;
}

// At the top of a first game's table: How to play is open below, one press away.
export function FirstGameHint() {
  if (!store.me || store.me.seat === null || !firstGame() || (store.state && store.state.over)) return null;
  const go = () => {
    const rules = document.getElementById("how-to-play");
    if (!rules) return;
    rules.open = true;
    rules.scrollIntoView({ block: "start" });
    const summary = rules.querySelector("summary");
    if (summary) summary.focus({ preventScroll: true });
  };
  return html`<p class="first-game" id="first-game-hint">Your first game here: <b>How to play</b> is open below the board, with an example of each move.
    <button type="button" class="linkish" id="read-rules" onClick=${go}>Read how to play</button></p>`;
}
