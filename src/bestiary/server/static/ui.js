// Pieces every page and board shares: controls that say why they are off, notes, timers, the log.
import { html, useEffect, useRef, useState } from "./lib.js";
import { store, send, note } from "./store.js";

// A control id that is safe in an HTML id, whatever a player's name is.
export function controlId(...parts) {
  return parts.map((p) => String(p).replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0)}`)).join("-");
}

// A button that sends `action` once per press. Without an action it stays focusable and
// pressable (so a press is never silently lost) and says `reason` next to itself instead.
export function Control({ id, action, reason, onPress, cls = "", title, label, children, ...rest }) {
  const off = !action;
  const press = () => {
    if (off) { note(id, reason || "You cannot do that right now."); return; }
    if (onPress) onPress(action);
    send(action, id);
  };
  const text = store.notes[id];
  return html`<span class="control">
    <button type="button" id=${id} class=${`${cls} ${off ? "off" : ""}`} aria-disabled=${off ? "true" : "false"}
      aria-label=${label} title=${off ? reason || title : title} aria-describedby=${text ? `${id}-note` : undefined}
      onClick=${press} ...${rest}>${children}</button>
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

// The move log: plain sentences, the latest highlighted and announced politely.
export function MoveLog({ lines, from, id = "log", title = "Moves" }) {
  const list = useRef(null);
  useEffect(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight; // scrolls the log box only, never the page or focus
  }, [lines.length]);
  const last = lines.length ? lines[lines.length - 1] : null;
  return html`<section class="box log-box" aria-labelledby=${`${id}-title`}>
    <h2 id=${`${id}-title`}>${title}</h2>
    ${from ? html`<p class="muted">You came in at move ${from}.</p>` : null}
    <ol class="log" id=${id} ref=${list} tabindex="0" aria-label="move log">
      ${lines.map((line, i) => html`<li key=${i} class=${i === lines.length - 1 ? "last" : ""}>${line.text}</li>`)}
    </ol>
    <p class="sr-only" aria-live="polite">${last ? last.text : ""}</p>
  </section>`;
}

// "How to play": the rules in the project's words; rulings (the sheet is silent) are marked.
export function HowToPlay({ title, children, open = false }) {
  return html`<details class="box rules" id="how-to-play" open=${open}>
    <summary><h2>How to play ${title}</h2></summary>
    <p class="muted">Where the printed rule sheet is silent, bestiary had to decide: those rulings are marked <span class="ruling">ruling</span>.</p>
    ${children}
  </details>`;
}

export const Ruling = ({ children }) => html`<span class="ruling-text"><span class="ruling">ruling</span> ${children}</span>`;

export function plural(n, word, many = `${word}s`) { return `${n} ${n === 1 ? word : many}`; }
export function listing(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}
