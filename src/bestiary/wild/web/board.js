// Call of the Wild at the table: your hand and Calls, every other Call with its Meet button, the
// food chain, what each of your Calls would do, Dens, the Watering Hole, and the log's sentences.
// Creatures, their order on the food chain, sounds and verbs all come from /api/games.
import { html } from "/static/lib.js";
import { Control, Countdown, HowToPlay, Ruling, controlId } from "/static/ui.js";
import { Term } from "/static/howto.js";
import { Examples, WildGlossary } from "./help.js";
import { Sound } from "/static/sound.js";
import { changed } from "/static/store.js";
import { Who, a, capital, listing, plural, verb, who } from "/static/words.js";

// Presentation only: shape + colour + sound text tell the Calls apart without colour or sound.
const SHAPES = ["▲", "◆", "✸", "●", "■"];
const VOICES = [ // [waveform, start Hz, end Hz, pulses, seconds per pulse]
  ["sawtooth", 110, 70, 1, 0.45], ["square", 880, 660, 2, 0.09], ["sawtooth", 1800, 2400, 1, 0.35],
  ["sine", 300, 600, 2, 0.25], ["triangle", 1500, 1200, 3, 0.07],
];
const CALL_KEYS = ["q", "w", "e", "r", "t"];
const ui = { card: 0, callsShown: false }; // the selected hand card (index), kept across updates; the phone's Call table tapped open

function words(vocab) {
  const chain = vocab.creatures;
  const index = (c) => chain.indexOf(c);
  const eats = (a, b) => vocab.eats[a] === b;
  return {
    chain, index, eats,
    shape: (c) => SHAPES[index(c) % SHAPES.length],
    sound: (c) => vocab.sounds[c] || c,
    name: (c) => ((vocab.cards && vocab.cards[c]) || c).toLowerCase(),
    verb: (c) => (vocab.eating_verbs && vocab.eating_verbs[c]) || "eats",
    eaterOf: (c) => chain.find((x) => vocab.eats[x] === c),
    voice: (c) => VOICES[index(c) % VOICES.length],
  };
}


// ------------------------------------------------------------------ sentences

function meetingSentence(m, w, me) {
  const [p, q] = m.players;
  const cp = m.cards[p], cq = m.cards[q];
  const met = `${Who(p, me)} (${w.name(cp)}) and ${who(q, me)} (${w.name(cq)}) meet on ${w.sound(m.call)}`;
  if (m.outcome === "mate") return `${met}: two ${w.name(cp)}s mate, and each Den takes the other's card.`;
  if (m.outcome === "eat") {
    const [eater, eaten] = m.eater === p ? [p, q] : [q, p];
    const hunter = m.cards[eater], prey = m.cards[eaten];
    return `${met}: the ${w.name(hunter)} ${w.verb(hunter)} the ${w.name(prey)}; ${who(eater, me)} ${verb(eater, me, "take")} both cards.`;
  }
  if (cp === cq) return `${met}: two ${w.name(cp)}s off their own Call avoid each other; both cards go face-up to the Watering Hole.`;
  return `${met}: too far apart on the food chain, they avoid each other; both cards go face-up to the Watering Hole.`;
}

function narrate(events, before, after, me, vocab) {
  const w = words(vocab);
  const fresh = (after.meetings || []).slice((before.meetings || []).length);
  const lines = [];
  for (const [at, ev] of events.entries()) {
    const by = ev.by, s = ev.by === me ? "" : "s"; // "you call", "ann calls"
    let text;
    switch (ev.do) {
      case "call":
        text = ev.card ? `${Who(by, me)} call${s} ${w.sound(ev.call)} (${w.name(ev.call)}) with ${by === me ? "your" : "their"} ${w.name(ev.card)}.`
          : `${Who(by, me)} call${s} ${w.sound(ev.call)} (${w.name(ev.call)}).`;
        break;
      case "draw": text = `${Who(by, me)} draw${s} a card.`; break;
      case "withdraw": text = `${Who(by, me)} take${s} ${by === me ? "your" : "their"} offer back.`; break;
      case "discard": text = ev.card ? `${Who(by, me)} discard${s} ${by === me ? "your" : "their"} ${w.name(ev.card)} face-down to the Watering Hole.`
        : `${Who(by, me)} discard${s} a card face-down to the Watering Hole.`; break;
      case "reveal_own": text = `${Who(by, me)} flip${s} ${by === me ? "your" : "their"} own offer: it goes to the Watering Hole.`; break;
      case "nightfall": text = "Nightfall: nobody met for too long, and the game ends."; break;
      case "meet": {
        const k = fresh.findIndex((m) => m.players.includes(by) && m.players.includes(ev.with));
        if (k >= 0) { text = meetingSentence(fresh[k], w, me); fresh.splice(k, 1); }
        else text = `${Who(by, me)} ask${s} ${who(ev.with, me)} to meet.`;
        break;
      }
      default: text = `${Who(by || "The table", me)}: ${ev.do}.`;
    }
    lines.push({ text, by, with: ev.with, at });
  }
  if (after.over && !before.over) {
    const ended = after.ended_by || [];
    if (ended.length) lines.push({ text: `Sundown: ${listing(ended.map((p) => who(p, me)))} used ${ended.length === 1 && ended[0] !== me ? "their" : "the"} last card. The game is over.`, by: null, at: events.length - 1 });
    lines.push({ text: winnersSentence(after.winners || [], me), by: null, at: events.length - 1 });
  }
  return lines;
}

// Every Call heard at a live table plays its creature's sound (your own plays as you press).
function hear(events, vocab, me) {
  const w = words(vocab);
  for (const ev of events) if (ev.do === "call" && ev.by !== me) Sound.play(w.voice(ev.call));
}

function winnersSentence(winners, me) {
  if (!winners.length) return "Nobody wins.";
  const names = listing(winners.map((p) => who(p, me)));
  return winners.length > 1 ? `${capital(names)} share the win.` : `${names === "you" ? "You win" : `${names} wins`}.`;
}

// ------------------------------------------------------------------ pieces

function Card({ creature, w, small, selected, onClick, id, title, label }) {
  const cls = `card ${small ? "small" : ""} c${w.index(creature)} ${selected ? "selected" : ""}`;
  const inner = html`<span class="shape" aria-hidden="true">${w.shape(creature)}</span><b>${w.name(creature)}</b><span class="sound">${w.sound(creature)}</span>`;
  const tip = title || `${w.name(creature)}: calls ${w.sound(creature)}, eats the ${w.name(w.chain.find((x) => w.eats(creature, x)))}, eaten by the ${w.name(w.eaterOf(creature))}`;
  if (onClick) return html`<button type="button" class=${cls} id=${id} onClick=${onClick} aria-pressed=${selected ? "true" : "false"} data-card=${creature} title=${tip} aria-label=${label}>${inner}</button>`;
  return html`<span class=${cls} title=${tip} role="img" aria-label=${label || w.name(creature)}>${inner}</span>`;
}

function CallBadge({ call, w }) {
  return html`<span class="call-badge c${w.index(call)}" data-call=${call} title=${`Calling ${w.sound(call)}: the ${w.name(call)}'s Call`}>
    <span class="shape" aria-hidden="true">${w.shape(call)}</span> ${w.sound(call)} <small>(${w.name(call)})</small></span>`;
}

// The food chain as a ring: each creature eats the next one round.
function FoodChain({ w, highlight }) {
  const n = w.chain.length, r = 92, cx = 130, cy = 124;
  const at = (i) => [cx + r * Math.sin((2 * Math.PI * i) / n), cy - r * Math.cos((2 * Math.PI * i) / n)];
  const said = w.chain.map((c) => `the ${w.name(c)} (${w.sound(c)}) eats the ${w.name(w.chain.find((x) => w.eats(c, x)))}`).join("; ");
  return html`<figure class="box food-chain" id="food-chain">
    <h2>Food chain</h2>
    <svg viewBox="0 0 260 244" role="img" aria-label=${`Food chain: ${said}.`}>
      <defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker></defs>
      ${w.chain.map((c, i) => {
        const [x1, y1] = at(i), [x2, y2] = at((i + 1) % n);
        const k = 0.28;
        return html`<line key=${`l${c}`} x1=${x1 + (x2 - x1) * k} y1=${y1 + (y2 - y1) * k} x2=${x2 - (x2 - x1) * k} y2=${y2 - (y2 - y1) * k} stroke="#555" stroke-width="2" marker-end="url(#arrow)"/>`;
      })}
      ${w.chain.map((c, i) => {
        const [x, y] = at(i);
        return html`<g key=${c} class=${`node c${i} ${highlight === c ? "hot" : ""}`}>
          <circle cx=${x} cy=${y} r="27" class="ring"/>
          <text x=${x} y=${y - 6} text-anchor="middle" class="shape-t">${w.shape(c)}</text>
          <text x=${x} y=${y + 8} text-anchor="middle" class="name-t">${w.name(c)}</text>
          <text x=${x} y=${y + 19} text-anchor="middle" class="sound-t">${w.sound(c)}</text></g>`;
      })}
    </svg>
    <figcaption class="muted">Each creature eats the next one along the arrows: ${said}.</figcaption>
  </figure>`;
}

// What meeting `other` on `call` does for the holder of `card` (the cards decide; the Call
// only decides who may meet you, and whether two of a kind mate: only on their own Call).
function outcome(card, call, other, w) {
  if (card === other) return call === card ? "mate" : "avoid";
  if (w.eats(card, other)) return "you eat";
  if (w.eats(other, card)) return "eaten";
  return "avoid";
}
const OUTCOME_WORDS = { mate: "you mate", "you eat": "you eat it", eaten: "it eats you", avoid: "you avoid each other" };

// What a Call with `card` is: honest (the card's own Call), a hunt (the Call of what the card
// eats), a double-cross (the Call that draws a hunter the card eats), or a bluff (any other).
// The Call table and the results both say it with these words.
export function kindOfCall(card, call, w) {
  if (call === card) return "honest";
  if (w.eats(card, call)) return "hunt";
  if (w.eats(card, w.eaterOf(call))) return "double-cross";
  return "bluff";
}
const KIND_NOUNS = { honest: "an honest Call", hunt: "a hunt", "double-cross": "a double-cross", bluff: "a bluff" };

// Open on a wide screen; on a phone (no hover, no room) it hides until the "what each Call
// does" button beside the Call buttons' title is tapped (ui.callsShown), and that button closes it.
function CallsTable({ card, w }) {
  if (!card) return null;
  return html`<details class=${`calls-table ${ui.callsShown ? "shown" : ""}`} id="calls-table" open=${window.innerWidth > 800 || ui.callsShown}
    onToggle=${(e) => { if (!e.target.open && ui.callsShown) { ui.callsShown = false; changed(); } }}>
    <summary>What your Calls would do with your ${w.name(card)}</summary>
    <p class="muted">Your Call decides <b>who may meet you</b>: only a player making the same Call. What happens then depends on the two cards. Someone answering a Call honestly holds that Call's creature; a hunter holds the creature that eats it.</p>
    <table>
      <caption class="sr-only">Rows: your Call. Columns: what it is, and what happens with the two players most likely to answer it.</caption>
      <thead><tr><th scope="col">your Call</th><th scope="col">what it is</th><th scope="col">an honest answer</th><th scope="col">a hunter answers</th></tr></thead>
      <tbody>${w.chain.map((call) => {
        const honest = outcome(card, call, call, w);
        const hunter = w.eaterOf(call);
        const hunted = outcome(card, call, hunter, w);
        return html`<tr key=${call} data-call=${call}>
          <th scope="row">${w.shape(call)} ${w.sound(call)}</th><td>${kindOfCall(card, call, w)}</td>
          <td class=${`o-${honest.replace(" ", "-")}`}>${capital(a(w.name(call)))}: ${OUTCOME_WORDS[honest]}</td>
          <td class=${`o-${hunted.replace(" ", "-")}`}>${capital(a(w.name(hunter)))}: ${OUTCOME_WORDS[hunted]}</td>
        </tr>`;
      })}</tbody>
    </table>
  </details>`;
}

// ------------------------------------------------------------------ the board

// Your score and your latest meeting's result, beside your hand (where your eyes are after
// pressing Meet), announced as it changes.
function MyResult({ view, me, w, events }) {
  const mineMet = (view.meetings || []).filter((m) => m.players.includes(me));
  const last = mineMet[mineMet.length - 1];
  const fresh = last && (events || []).some((e) => e.do === "meet" && [e.by, e.with].includes(me)) && (view.meetings || [])[view.meetings.length - 1] === last;
  return html`<div class=${`my-result ${fresh ? "fresh" : ""}`} id="my-result" aria-live="polite">
    <b id="my-score">Your score: ${plural(view.scores[me] || 0, "point")}</b>
    ${last ? html`<br/><span id="my-meeting">Your last meeting: ${meetingSentence(last, w, me)}</span>` : null}</div>`;
}

// The sheet's Sundown: the game ends when a player meets with the last card in their hand and
// their Pack is empty. A player with an empty Pack and one card left (in hand or on offer) ends
// the game with their next meeting: everyone is warned.
export function nearSundown(view) {
  return view.over ? [] : view.players.filter((p) => view.packs[p] === 0 && view.hand_sizes[p] + (view.calls[p] ? 1 : 0) === 1);
}

function SundownNear({ view, me }) {
  const near = nearSundown(view);
  if (!near.length) return null;
  const names = listing(near.map((p) => who(p, me)));
  const theirs = near.length === 1 ? (near[0] === me ? "your" : "their") : "their";
  return html`<span class="sundown-near" id="sundown-near" role="status">⚠ ${names.startsWith("you") ? capital(names) : names} ${near.length === 1 && near[0] !== me ? "is" : "are"} one card from Sundown: a meeting with ${theirs} last card ends the game.</span>`;
}

function legalWhere(legal, pred) { return legal.find(pred) || null; }

function Board({ view, legal, me, info, timers, events, ticker = null }) {
  const w = words(info.vocabulary);
  const mine = me && view.hand;
  const hand = view.hand || [];
  if (ui.card >= hand.length) ui.card = Math.max(0, hand.length - 1);
  const selected = hand[ui.card] || (view.offer ? view.offer.card : null);
  const over = view.over;
  const asks = view.asks || [];
  const lastBy = new Set((events || []).flatMap((e) => [e.by, e.with]).filter(Boolean));
  const offerCall = view.offer ? view.offer.call : null;
  const full = hand.length + (view.offer ? 1 : 0) >= view.hand_limit;
  const reasonOver = "The game is over.";

  const callAction = (c) => legalWhere(legal, (a) => a.do === "call" && a.card === selected && a.call === c);
  const meetReason = (p) => {
    if (over) return reasonOver;
    if (!view.calls[p]) return `${p} has no Call out: wait for ${p} to call.`;
    if (!view.offer) return `You have no offer out: make ${w.sound(view.calls[p])} with a card first.`;
    if (view.offer.call !== view.calls[p]) return `You meet only on the same Call: ${p} calls ${w.sound(view.calls[p])}, you call ${w.sound(view.offer.call)}.`;
    if (asks.some(([a, b]) => a === me && b === p)) return `You have asked ${p} already; wait for ${p} to agree.`;
    return "You cannot meet now.";
  };

  const meBox = mine ? html`<section class="box me" id="my-hand" aria-label="your hand and Calls">
    <div class="hand-row">
      <div><h3>Your hand</h3><div class="cards">${hand.length ? hand.map((c, i) => html`<${Card} key=${i} creature=${c} w=${w}
        id=${`hand-${i}`} selected=${i === ui.card} onClick=${() => { ui.card = i; changed(); }}/>`) : html`<p class="muted">empty</p>`}</div></div>
      <div class="offer-col"><h3>Your offer</h3>${view.offer ? html`<div class="offer-mine"><${Card} creature=${view.offer.card} w=${w} small/> <${CallBadge} call=${view.offer.call} w=${w}/></div>` : html`<p class="muted">none</p>`}
        <${MyResult} view=${view} me=${me} w=${w} events=${events}/></div>
      <div class="pack muted" id="my-pack" title="Draw from your Pack while your hand and offer together hold fewer cards than the limit.">Your Pack: ${view.packs[me]} to draw · hand limit ${view.hand_limit} (your offer counts)</div>
    </div>
    <div class="calls-head"><h3 class="calls-title">${selected ? `Call with your ${w.name(selected)}:` : "No card to call with."}</h3>
      ${selected ? html`<button type="button" class="linkish calls-toggle" id="calls-toggle" aria-expanded=${ui.callsShown ? "true" : "false"} aria-controls="calls-table"
        onClick=${() => { ui.callsShown = !ui.callsShown; changed(); }}>${ui.callsShown ? "hide what each Call does" : "what each Call does"}</button>` : null}</div>
    <div class="calls" role="group" aria-label="Calls">
      ${w.chain.map((c, i) => html`<${Control} key=${c} id=${`call-${c}`} cls=${`callbtn c${i} ${offerCall === c ? "current" : ""}`}
        action=${callAction(c)} reason=${over ? reasonOver : "You have no card to call with."}
        title=${selected ? `${w.sound(c)} with your ${w.name(selected)}: ${KIND_NOUNS[kindOfCall(selected, c, w)]} (key ${CALL_KEYS[i]})` : ""}
        data-call=${c} label=${`${w.sound(c)} (the ${w.name(c)}'s Call, key ${CALL_KEYS[i]})`}
        onPress=${() => Sound.play(w.voice(c))}>
        <span class="shape" aria-hidden="true">${w.shape(c)}</span> ${w.sound(c)}</${Control}>`)}
    </div>
    <div class="actions row">
      <${Control} id="draw" action=${legalWhere(legal, (a) => a.do === "draw")} data-action="draw"
        reason=${over ? reasonOver : view.packs[me] === 0 ? "Your Pack is empty." : full ? `Your hand and offer already hold ${view.hand_limit} cards, the limit.` : "You cannot draw now."}>Draw (d)</${Control}>
      <${Control} id="withdraw" action=${legalWhere(legal, (a) => a.do === "withdraw")} data-action="withdraw"
        reason=${over ? reasonOver : "You have no offer out to take back."}>Take offer back (b)</${Control}>
      <${Control} id="discard" action=${legalWhere(legal, (a) => a.do === "discard" && a.card === hand[ui.card])} data-action="discard"
        title="Throw the selected card face-down to the Watering Hole; it scores nothing."
        reason=${over ? reasonOver : "Select a card in your hand to discard (your offer cannot be discarded)."}>Discard ${hand[ui.card] ? w.name(hand[ui.card]) : ""} (x)</${Control}>
      <${Control} id="reveal-own" action=${legalWhere(legal, (a) => a.do === "reveal_own")} data-action="reveal_own"
        title="Turn your own offer face-up: it goes to the Watering Hole, scores nothing, and your asks lapse."
        reason=${over ? reasonOver : "You have no offer out to flip."}>Flip own offer</${Control}>
    </div>
    ${view.objective ? html`<p>Your objective: <b>${view.objective.title}</b> (${plural(view.objective.points, "point")})</p>` : null}
    <${CallsTable} card=${selected} w=${w}/>
    <p class="keys">Keys: <kbd>1</kbd>-<kbd>3</kbd> pick a card · <kbd>q w e r t</kbd> Call ${w.chain.map((c) => w.shape(c)).join("")} · <kbd>g</kbd> meet · <kbd>d</kbd> draw · <kbd>b</kbd> take back · <kbd>x</kbd> discard · <kbd>m</kbd> sound</p>
  </section>` : null;

  const others = view.players.filter((p) => p !== me);
  const playersBox = html`<section class="box players-box" aria-label="players and their Calls">
    <ul class="players plain" id="players">${others.map((p, i) => {
      const askedMe = asks.some(([a, b]) => a === p && b === me);
      const iAsked = asks.some(([a, b]) => a === me && b === p);
      const meet = mine ? legalWhere(legal, (a) => a.do === "meet" && a.with === p) : null;
      const call = view.calls[p];
      return html`<li key=${p} class=${`player ${lastBy.has(p) ? "last-move" : ""}`} data-player=${p}>
        <span class="pname"><b>${p}</b></span>
        <span class="pstats">${askedMe ? html`<small class="ask">asks to meet you!</small>`
          : iAsked ? html`<small class="asked">you asked to meet</small>`
            : html`<small class="muted" title="points · cards in hand · cards left in their Pack">${plural(view.scores[p], "point")} · hand ${view.hand_sizes[p]} · Pack ${view.packs[p]}</small>`}</span>
        <span class="pcall">${call ? html`<span class="facedown" aria-hidden="true">?</span> <${CallBadge} call=${call} w=${w}/>` : html`<span class="muted">no Call</span>`}</span>
        ${mine ? html`<${Control} id=${controlId("meet", i)} cls=${`meet ${askedMe ? "primary" : ""}`} action=${meet} reason=${meetReason(p)}
          data-meet=${p} title=${askedMe ? `${p} asked you: meet now (key g)` : `Ask ${p} to meet (key g)`}>${askedMe ? "Meet now" : "Meet"}</${Control}>` : null}
      </li>`;
    })}</ul>
  </section>`;

  const hole = view.watering_hole;
  const status = html`<div class="status row" id="status">
    <span class="banner" id="turn">${over ? "The game is over." : mine ? `You are ${me}. Offer a card with a Call; meet a player making the same Call.` : "Watching: every Call is heard, every card is face-down until it meets."}</span>
    ${timers && timers.quiet !== undefined && !over ? html`<${Countdown} id="nightfall" label="Nightfall in" seconds=${timers.quiet} urgent=${20}/>` : null}
    <${SundownNear} view=${view} me=${me}/>
  </div>`;

  return html`<div id="wild-board" class="board wild">
    ${status}
    <div class="wild-top">${meBox}${playersBox}</div>
    ${ticker}
    <div class="grid">
      <section class="box" id="dens"><h2>Dens</h2>
        <ul class="plain">${view.players.map((p) => html`<li key=${p} data-den=${p}><b>${p === me ? "You" : p}</b> (${plural(view.scores[p], "point")}): <span class="den">${(view.dens[p] || []).length ? view.dens[p].map((c, i) => html`<${Card} key=${i} small creature=${c.creature} w=${w} title=${`${w.name(c.creature)} from ${c.owner}'s Pack`}/>`) : html`<span class="muted">empty</span>`}</span></li>`)}</ul>
      </section>
      <${FoodChain} w=${w} highlight=${selected}/>
      <section class="box" id="watering-hole"><h2>Watering Hole</h2>
        <div>${hole.face_up.map((c, i) => html`<${Card} key=${i} small creature=${c.creature} w=${w} title=${`${c.owner}'s ${w.name(c.creature)}`}/>`)}</div>
        <p class="muted">Face-down: ${Object.entries(hole.face_down).map(([p, n]) => `${p} ${n}`).join(", ")}</p>
      </section>
    </div>
  </div>`;
}

// ------------------------------------------------------------------ keys

function keys(e, { view, legal, me, send, info }) {
  if (!me || !view.hand) return false;
  const w = words(info.vocabulary);
  const hand = view.hand;
  const n = Number(e.key);
  if (n >= 1 && n <= hand.length) { ui.card = n - 1; changed(); return true; }
  const selected = hand[ui.card] || (view.offer ? view.offer.card : null);
  const once = (pred, control) => { const a = legal.find(pred); if (a) send(a, control); return true; };
  const i = CALL_KEYS.indexOf(e.key);
  if (i >= 0 && i < w.chain.length) {
    const call = w.chain[i];
    Sound.play(w.voice(call));
    return once((a) => a.do === "call" && a.card === selected && a.call === call, `call-${call}`);
  }
  if (e.key === "d") return once((a) => a.do === "draw", "draw");
  if (e.key === "b") return once((a) => a.do === "withdraw", "withdraw");
  if (e.key === "x") return once((a) => a.do === "discard" && a.card === hand[ui.card], "discard");
  if (e.key === "g") {
    // one message: agree with whoever asked you, else ask the first player on your Call
    const asked = (view.asks || []).filter(([, b]) => b === me).map(([a]) => a);
    const meet = legal.find((a) => a.do === "meet" && asked.includes(a.with)) || legal.find((a) => a.do === "meet");
    if (meet) send(meet, controlId("meet", view.players.filter((p) => p !== me).indexOf(meet.with)));
    return true;
  }
  return false;
}

function Rules({ info }) {
  const w = words(info.vocabulary);
  return html`<${HowToPlay} title="Call of the Wild">
    <p>There are no turns: everyone acts whenever they like. You start with 2 cards drawn from your <${Term} word="Pack">your own 10 face-down cards</${Term}>.</p>
    <ol>
      <li><b>Offer</b>: put a card from your hand face-down and make one of the five <${Term} word="Calls">a creature's sound</${Term}>. It need not be your card's own Call: that is the bluff. <${Ruling}>You have one offer at a time; calling again takes the old offer back first.</${Ruling}></li>
      <li><b>Meet</b>: when another player makes the same Call as you, press <b>Meet</b>. <${Ruling}>Both must ask: the first ask is public and waits, the second is the agreement and the meeting happens at once. An ask lapses when either of you calls again, takes the offer back or meets someone else.</${Ruling}></li>
      <li>Both cards turn up. <b>Two of the same creature</b> on that creature's own Call <b>Mate</b>: each <${Term} word="Den">your face-up pile of won cards; each scores</${Term}> takes the other's card. <b>Neighbours on the <${Term} word="food chain">each creature eats the next one along the ring</${Term}></b>: the eater's owner takes both cards. <b>Two apart</b>, or two of a kind on another Call: they <b>Avoid</b> each other and both cards go face-up to the <${Term} word="Watering Hole">the middle of the table; cards there score nothing</${Term}>.</li>
      <li><b>Hunting</b>: call as the creature your card eats, and eat the honest one who answers. <b>Double-Crossing</b>: call two steps along the chain from your card, and eat the hunter who answers.</li>
      <li><b>Draw</b> from your Pack while hand plus offer is under the limit. <${Ruling}>The limit is 2 cards, 3 with exactly three players, and your offer counts.</${Ruling}> <b>Discard</b> throws a hand card face-down to the Watering Hole. <b>Flip own offer</b> turns your offer up and discards it.</li>
      <li><${Term} word="Sundown">the game's end</${Term}>: the game ends the moment a player meets with the last card in their hand and their Pack is empty (the board warns everyone when a player is one card away). <${Ruling}><${Term} word="Nightfall">the other end</${Term}> ends it too when nobody meets for a while (the table's countdown).</${Ruling}> Hands and offers then score nothing.</li>
      <li>1 point per card in your Den (with the mating bonus: 2 per card from another player's Pack). Highest wins; a tie goes to the most Den cards from others' Packs. <${Ruling}>Still tied: the tied players share the win.</${Ruling}></li>
    </ol>
    <${Examples} w=${w}/>
    <${WildGlossary}/>
  </${HowToPlay}>`;
}

function Results({ summary, winners, me, info }) {
  const w = words(info.vocabulary);
  const players = Object.keys(summary.scores || {});
  const kind = (m, p) => KIND_NOUNS[kindOfCall(m.cards[p], m.call, w)];
  const ms = summary.meetings || [];
  return html`<table class="results-table">
      <thead><tr><th scope="col">player</th><th scope="col">score</th><th scope="col">Den</th></tr></thead>
      <tbody>${players.map((p) => html`<tr key=${p}><td class=${winners.includes(p) ? "winner" : ""}>${winners.includes(p) ? "🏆 " : ""}${p}</td>
        <td>${summary.scores[p]}</td><td>${(summary.dens[p] || []).map((c) => `${w.name(c.creature)} (from ${c.owner})`).join(", ") || "empty"}</td></tr>`)}</tbody>
    </table>
    <div id="reveal"><h3>Who hunted whom</h3>
      <p class="muted">Each Call was honest (the card's own Call), a hunt (the Call of what the card eats), a double-cross (the Call that draws a hunter the card eats) or a bluff.</p>
      ${ms.length ? html`<ol>${ms.map((m, i) => html`<li key=${i}>${meetingSentence(m, w, me)} (${m.players.map((p) => `${p} held ${a(w.name(m.cards[p]))}: ${kind(m, p)}`).join("; ")})</li>`)}</ol>` : html`<p>Nobody met.</p>`}
      <p>${summary.ended_by && summary.ended_by.length ? `Sundown brought by ${listing(summary.ended_by)}.` : "The game ended without a Sundown (Nightfall, or nobody had cards left)."}</p>
    </div>`;
}

// A move a replay can jump to: one that made a meeting.
const landmark = (ev, before, after) => (after.meetings || []).length > (before.meetings || []).length;

export default { Board, Rules, Results, narrate, hear, keys, landmark, landmarkName: "meeting" };
