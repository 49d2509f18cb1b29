// Alerts for a player in another tab: the tab's title says when it is your turn, someone asks to
// meet you (wild) or an answer clock runs for you; a short sound too, if this browser turned
// alert sounds on (off by default, remembered here, apart from the game's own sounds).
import { html } from "./lib.js";
import { store, subscribe, gameInfo, changed } from "./store.js";
import { Sound } from "./sound.js";

const KEY = "bestiary.alert_sound";
const VOICE = ["sine", 660, 990, 2, 0.12];
const TITLE = document.title;
let last = null;

export const alertSound = { on: () => localStorage.getItem(KEY) === "1" };

// Why this player is wanted at the table now, or null.
export function wanted() {
  const s = store.state;
  const me = store.me ? store.me.player : null;
  if (store.route.page !== "table" || !s || s.over || !me || !store.table) return null;
  const info = gameInfo(store.table.game) || {};
  const asker = ((s.view && s.view.asks) || []).find((ask) => ask[1] === me);
  if (asker) return `${asker[0]} asks to meet you`;
  if (info.real_time || !s.legal.length) return null; // real time: every moment is yours
  if (s.timers && s.timers.answer !== undefined) return "Answer now";
  return "Your turn";
}

function alert() {
  const why = wanted();
  document.title = why ? `(!) ${why} · ${TITLE}` : TITLE;
  if (why && why !== last && alertSound.on()) Sound.play(VOICE, true);
  last = why;
}

export function startAlerts() { subscribe(alert); }

export function AlertToggle() {
  const on = alertSound.on();
  const flip = () => { localStorage.setItem(KEY, on ? "0" : "1"); changed(); };
  return html`<button id="alert-sound" type="button" aria-pressed=${on ? "true" : "false"}
    title="A short sound when it is your turn, someone asks to meet you, or an answer clock runs" onClick=${flip}>alerts: ${on ? "sound" : "title only"}</button>`;
}
