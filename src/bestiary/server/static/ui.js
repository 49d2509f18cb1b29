// Pieces every page and board shares: controls that say why they are off, notes, timers, the log.
import { html, useEffect, useLayoutEffect, useRef, useState } from "./lib.js";
import { store, send, note } from "./store.js";
import { firstGame } from "./howto.js";

// A control id that is safe in an HTML id, whatever a player's name is.
export function controlId(...parts) {
  return parts.map((p) => String(p).replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0)}`)).join("-");
}

// A button that sends `action` once per press. Without an action it stays focusable and
// pressable (so a press is never silently lost) and says `reason` next to itself instead: a
// tap on a phone shows it as well as a click (no hover needed). With `why`, an off control
// also keeps its reason written beside it all the time.
export function Control({ id, action, reason, onPress, cls = "", title, label, why = false, children, ...rest }) {
  const off = !action;
  const box = useRef(null);
  const press = () => {
    if (off) { note(id, reason || "You cannot do that right now."); return; }
    if (onPress) onPress(action);
    send(action, id);
  };
  const text = store.notes[id];
  useLayoutEffect(() => { // a note near the screen's right edge moves left: it never widens the page
    const el = box.current && box.current.querySelector(".note");
    if (!el) return;
    el.style.left = "0px";
    const over = el.getBoundingClientRect().right - (document.documentElement.clientWidth - 4);
    if (over > 0) el.style.left = `${-over}px`;
  });
  const shown = off && why && reason;
  return html`<span class="control" ref=${box}>
    <button type="button" id=${id} class=${`${cls} ${off ? "off" : ""}`} aria-disabled=${off ? "true" : "false"}
      aria-label=${label} title=${off ? reason || title : title}
      aria-describedby=${text ? `${id}-note` : shown ? `${id}-why` : undefined}
      onClick=${press} ...${rest}>${children}</button>
    ${shown ? html`<span class="why" id=${`${id}-why`}>${reason}</span>` : null}
    ${text ? html`<span class="note" id=${`${id}-note`} role="status">${text}</span>` : null}
  </span>`;
}

// A visible countdown from `seconds` (as of the latest state message); ticks by itself.
export function Countdown({ seconds, label, id, urgent = 10, since = store.received }) {
  const [, tick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => tick((n) => n + 1), 250);
    return () => clearInterval(timer);
  }, []);
  if (seconds === undefined || seconds === null) return null;
  const left = Math.max(0, seconds - (performance.now() - since) / 1000);
  const whole = Math.ceil(left);
  const shown = whole >= 60 ? `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}` : `${whole} s`;
  return html`<span class="timer ${left <= urgent ? "urgent" : ""}" id=${id} role="timer" aria-live="off">${label} ${shown}</span>`;
}

// The move log: plain sentences numbered by move (the replay's numbers), the latest (or the
// replay's `current` move) highlighted and announced politely. With `pick`, each line is a
// button that jumps there (the replay).
export function MoveLog({ lines, from, id = "log", title = "Moves", current = null, pick = null, head = null }) {
  const list = useRef(null);
  useEffect(() => {
    const el = list.current;
    if (!el) return;
    const hot = current === null ? null : el.querySelector(".current");
    // scrolls the log box only, never the page or focus
    if (hot) el.scrollTop = hot.offsetTop - el.offsetTop - el.clientHeight / 2;
    else if (current === null) el.scrollTop = el.scrollHeight;
  }, [lines.length, current]);
  const last = lines.length ? lines[lines.length - 1] : null;
  const shown = (line, i) => (current === null ? i === lines.length - 1 : line.seq === current);
  return html`<section class="box log-box" id=${`${id}-box`} aria-labelledby=${`${id}-title`}>
    <h2 id=${`${id}-title`}>${title}</h2>
    ${from ? html`<p class="muted" id=${`${id}-from`}>${lines.some((l) => l.away) ? `This log starts at move ${from}, when you left.` : `You came in at move ${from}.`}</p>` : null}
    ${head ? html`<p class="log-head">${head}</p>` : null}
    <ol class="log" id=${id} ref=${list} tabindex="0" aria-label="move log">
      ${lines.map((line, i) => html`<li key=${i} value=${line.seq || undefined} data-move=${line.seq}
        class=${`${shown(line, i) ? "last current" : ""} ${current !== null && line.seq > current ? "later" : ""}`}>
        ${line.standIn ? html`<span class="stand-in-tag">${line.by === store.me?.player ? "your stand-in" : `${line.by}'s stand-in`}</span> ` : null}${pick ? html`<button type="button" class="linkish" onClick=${() => pick(line.seq)} aria-label=${`Go to move ${line.seq}: ${line.text}`}>${line.text}</button>` : line.text}</li>`)}
    </ol>
    ${current === null ? html`<p class="sr-only" aria-live="polite">${last ? last.text : ""}</p>` : null}
  </section>`;
}

// The latest moves in two lines near the hand (phones, or a board without the log beside it);
// a tap opens the full log.
export function Ticker({ lines }) {
  const recent = lines.slice(-2);
  const open = () => {
    const log = document.getElementById("log");
    if (log) { log.scrollIntoView({ block: "center" }); log.focus({ preventScroll: true }); }
  };
  return html`<div class="ticker" id="ticker">
    <ol class="ticker-lines" aria-hidden="true">${recent.map((line, i) => html`<li key=${lines.length - recent.length + i}>${line.text}</li>`)}</ol>
    <button type="button" id="full-log" onClick=${open}>Full log</button>
  </div>`;
}

// "How to play": the rules in the project's words; rulings (the sheet is silent) are marked.
// Open by itself at this browser's first game (howto.js), else one press away.
export function HowToPlay({ title, children, open = firstGame() }) {
  return html`<details class="box rules" id="how-to-play" open=${open}>
    <summary><h2>How to play ${title}</h2></summary>
    <p class="muted">Where the printed rule sheet is silent, bestiary had to decide: those rulings are marked <span class="ruling">ruling</span>.</p>
    ${children}
  </details>`;
}

export const Ruling = ({ children }) => html`<span class="ruling-text"><span class="ruling">ruling</span> ${children}</span>`;

export { plural, listing } from "./words.js";
