// The critter set-collection game at the table: pick a card, then what to do with it (and the kind
// a wild becomes); tableaus with full sets marked; the NO!/allow prompt with its countdown; the
// log's sentences. Card names and descriptions come from /api/games.
import { html } from "/static/lib.js";
import { Control, Countdown, HowToPlay, Ruling, listing, plural } from "/static/ui.js";
import { changed } from "/static/store.js";

const ICONS = {
  fox: "🦊", owl: "🦉", frog: "🐸", hedgehog: "🦔", otter: "🦦", rabbit: "🐇", raccoon: "🦝", squirrel: "🐿️",
  turtle: "🐢", wild: "🃏", no: "✋", hop_over: "🦘", game_changer: "🔄", ultimate_collector: "👑",
};
const ui = { card: -1 }; // the selected hand card (index), kept across updates

// What a card does, for its tooltip (the rules in docs/critters.md, in short).
const DOES = {
  wild: "Stands for any critter kind, declared when it goes down.",
  no: "Cancels an action card played against you.",
  hop_over: "Take one Down Card from an opponent's incomplete set.",
  game_changer: "Swap one of your Down Cards with one of an opponent's (neither from a full set).",
  ultimate_collector: "Steal an opponent's full set, whole.",
};

function words(vocab) {
  const names = vocab.cards || {};
  const name = (c) => {
    const n = names[c] || c;
    return (vocab.kinds || []).includes(c) ? n.toLowerCase() : n;
  };
  const tip = (c) => DOES[c] || `A ${name(c)}: three of a kind make a full set.`;
  return { name, tip, wild: vocab.wild, actions: vocab.actions || [] };
}
const who = (p, me) => (p === me ? "you" : p);
const Who = (p, me) => (p === me ? "You" : p);
const whose = (p, me) => (p === me ? "your" : `${p}'s`);

// One move in words, for its button and for the log.
function describe(a, me, w, by = me) {
  const s = by === me ? "" : "s";
  const their = by === me ? "your" : "their";
  switch (a.do) {
    case "down": return a.card === w.wild ? `${Who(by, me)} put${s} down a wild as a ${w.name(a.as)}` : `${Who(by, me)} put${s} down a ${w.name(a.card)}`;
    case "set": return `${Who(by, me)} play${s} a full ${w.name(a.kind)} set (${a.cards.map(w.name).join(", ")})`;
    case "complete": return `${Who(by, me)} complete${s} ${their} ${w.name(a.kind)} set with ${a.cards.map(w.name).join(" and ")}`;
    case "hop_over": return `${Who(by, me)} play${s} Hop Over on ${who(a.target, me)}, to take the ${w.name(a.card)} from ${whose(a.target, me)} ${w.name(a.kind)} set`;
    case "game_changer": return `${Who(by, me)} play${s} Game Changer on ${who(a.target, me)}, to swap ${their} ${w.name(a.give.card)} (${w.name(a.give.kind)} set) for ${whose(a.target, me)} ${w.name(a.take.card)} (${w.name(a.take.kind)} set)`;
    case "ultimate_collector": return `${Who(by, me)} play${s} Ultimate Collector on ${who(a.target, me)}, to steal ${whose(a.target, me)} full ${w.name(a.kind)} set`;
    case "swap_wild": return `${Who(by, me)} swap${s} a ${w.name(a.kind)} in for the wild of ${their} full ${w.name(a.kind)} set; the wild joins ${their} ${w.name(a.to)} set`;
    case "pass": return `${Who(by, me)} pass${by === me ? "" : "es"}`;
    case "discard": return `${Who(by, me)} discard${s} a ${w.name(a.card)} (too many cards in hand)`;
    case "no": return `${Who(by, me)} say${s} NO!`;
    case "allow": return `${Who(by, me)} allow${s} it`;
    case "reshuffle": return "The centre pile is shuffled into a new Draw Pile";
    default: return `${Who(by || "The table", me)}: ${a.do}`;
  }
}

// What an allowed action card did, in the past tense of the log.
function effect(p, me, w) {
  const by = p.by;
  switch (p.do) {
    case "hop_over": return `${Who(by, me)} ${by === me ? "take" : "takes"} the ${w.name(p.card)} from ${whose(p.target, me)} ${w.name(p.kind)} set.`;
    case "game_changer": return `${Who(by, me)} and ${who(p.target, me)} swap: ${whose(by, me)} ${w.name(p.give.card)} for ${whose(p.target, me)} ${w.name(p.take.card)}.`;
    case "ultimate_collector": return `${Who(by, me)} ${by === me ? "steal" : "steals"} ${whose(p.target, me)} full ${w.name(p.kind)} set!`;
    default: return "";
  }
}

function narrate(events, before, after, me, vocab) {
  const w = words(vocab);
  let pending = before.pending;
  const lines = [];
  for (const ev of events) {
    let text;
    if (ev.do === "allow" && pending) text = `${describe(ev, me, w, ev.by)}: ${effect(pending, me, w)}`;
    else if (ev.do === "no" && pending) text = `${Who(ev.by, me)} ${ev.by === me ? "say" : "says"} NO!: ${whose(pending.by, me)} ${w.name(pending.do)} is cancelled.`;
    else text = `${describe(ev, me, w, ev.by)}.`;
    if (["hop_over", "game_changer", "ultimate_collector"].includes(ev.do)) {
      pending = ev;
      text += ` ${Who(ev.target, me)} ${ev.target === me ? "must" : "must"} answer: NO! or allow.`;
    } else if (ev.do === "allow" || ev.do === "no") pending = null;
    lines.push({ text, by: ev.by, with: ev.target });
  }
  if (after.over && !before.over) {
    const ws = after.winners || [];
    const names = listing(ws.map((p) => who(p, me)));
    lines.push({ text: ws.length ? (ws.length > 1 ? `${names} share the win.` : `${names === "you" ? "You win" : `${names} wins`} with full sets of three kinds.`) : "Nobody wins.", by: null });
  }
  return lines;
}

// ------------------------------------------------------------------ pieces

function Card({ card, w, small, selected, onClick, id, label }) {
  const cls = `card ${small ? "small" : ""} ${selected ? "selected" : ""} k-${w.actions.includes(card) ? "action" : card === w.wild ? "wild" : "critter"}`;
  const inner = html`<span class="shape" aria-hidden="true">${ICONS[card] || "?"}</span><b>${w.name(card)}</b>`;
  if (onClick) return html`<button type="button" class=${cls} id=${id} onClick=${onClick} aria-pressed=${selected ? "true" : "false"} data-card=${card} title=${w.tip(card)} aria-label=${label}>${inner}</button>`;
  return html`<span class=${cls} title=${w.tip(card)} role="img" aria-label=${w.name(card)}>${inner}</span>`;
}

function uses(a, card) {
  switch (a.do) {
    case "down": case "discard": return a.card === card;
    case "set": case "complete": return a.cards.includes(card);
    case "swap_wild": return a.kind === card;
    default: return a.do === card;
  }
}

function cardReason(card, view, me, w) {
  if (view.over) return "The game is over.";
  if (view.awaiting) return view.awaiting === me ? "Answer the action first: NO! or allow." : `Waiting for ${view.awaiting} to answer.`;
  if (view.turn !== me) return `It is ${view.turn}'s turn.`;
  const others = view.players.filter((p) => p !== me);
  const incomplete = (p) => view.tableaus[p].some((s) => !s.full);
  switch (card) {
    case "no": return "NO! is played only when someone plays an action card on you.";
    case "hop_over": return "No opponent has an incomplete set to hop over from.";
    case "game_changer": return incomplete(me) ? "No opponent has an incomplete set to swap with." : "You need an incomplete set of your own to swap from.";
    case "ultimate_collector": return "No opponent has a full set to steal.";
    default: return `No move uses this ${w.name(card)} now.`;
  }
}

function Board({ view, legal, me, info, timers, events }) {
  const w = words(info.vocabulary);
  const turn = view.turn;
  const hand = view.hand || [];
  if (ui.card >= hand.length) ui.card = -1;
  const lastBy = new Set((events || []).flatMap((e) => [e.by, e.target]).filter(Boolean));
  const banner = view.over ? "The game is over."
    : view.awaiting ? `${Who(view.awaiting, me)} must answer ${whose(view.pending ? view.pending.by : turn, me)} ${w.name(view.pending ? view.pending.do : "action")}.`
      : turn === me ? "Your turn: you drew a card; now pick a card and make one move." : `${turn}'s turn.`;
  const top = view.centre_pile.length ? view.centre_pile[view.centre_pile.length - 1] : null;
  const status = html`<div class="status row" id="status">
    <span class="banner" id="turn" aria-live="polite">${banner}</span>
    <span class="muted">Draw Pile ${view.draw_pile} · centre pile ${view.centre_pile.length}${top ? ` (top: ${w.name(top)})` : ""}</span>
    ${timers && timers.answer !== undefined && view.awaiting ? html`<${Countdown} id="answer-timer" label=${view.awaiting === me ? "Answer in" : `${view.awaiting} answers in`} seconds=${timers.answer}/>` : null}
  </div>`;

  let prompt = null;
  if (view.awaiting && view.awaiting === me && view.pending) {
    const no = legal.find((a) => a.do === "no") || null;
    const allow = legal.find((a) => a.do === "allow") || null;
    prompt = html`<div class="prompt" id="no-prompt" role="alert">
      <h2>${describe(view.pending, me, w, view.pending.by)}.</h2>
      <div class="row">
        <${Control} id="say-no" cls="primary" action=${no} reason="You hold no NO! card.">✋ Say NO! (n)</${Control}>
        <${Control} id="allow" action=${allow} reason="There is nothing to allow.">Allow (a)</${Control}>
      </div>
    </div>`;
  }

  let mine = null;
  if (view.hand) {
    const selected = hand[ui.card];
    const forCard = selected ? legal.filter((a) => uses(a, selected) && a.do !== "no") : [];
    const downs = forCard.filter((a) => a.do === "down" && a.card === w.wild);
    const others = forCard.filter((a) => !(a.do === "down" && a.card === w.wild));
    const pass = legal.find((a) => a.do === "pass") || null;
    const myTurn = turn === me && !view.awaiting && !view.over;
    mine = html`<section class="box me" id="my-hand" aria-label="your hand and moves">
      <h2>Your hand (${me})</h2>
      <div class="cards">${hand.map((c, i) => html`<${Card} key=${i} card=${c} w=${w} id=${`hand-${i}`} selected=${i === ui.card}
        onClick=${() => { ui.card = i === ui.card ? -1 : i; changed(); }}/>`)}</div>
      <div class="moves" id="moves" role="group" aria-label="moves for the selected card">
        ${selected ? html`<h3>${w.name(selected)}: ${w.tip(selected)}</h3>` : html`<h3>${myTurn ? "Pick a card to see what you can do with it." : banner}</h3>`}
        ${selected && !forCard.length ? html`<p class="muted" id="card-reason">${cardReason(selected, view, me, w)}</p>` : null}
        ${downs.length ? html`<div class="row" role="group" aria-label="put the wild down as"><span>Put the wild down as:</span>
          ${downs.map((a) => html`<${Control} key=${a.as} id=${`down-as-${a.as}`} action=${a} data-do="down" title=${`Put the wild down as a ${w.name(a.as)}`}>${ICONS[a.as] || ""} ${w.name(a.as)}</${Control}>`)}</div>` : null}
        ${others.map((a, k) => html`<div key=${k}><${Control} id=${`move-${k}`} action=${a} data-do=${a.do}>${describe(a, me, w)}</${Control}></div>`)}
      </div>
      <div class="row">
        <${Control} id="pass" action=${pass} data-do="pass" reason=${!myTurn ? cardReason("pass", view, me, w) : `You hold more than ${view.options.hand_limit} cards: play or discard one instead.`}>Pass (p)</${Control}>
      </div>
      <p class="keys">Keys: <kbd>1</kbd>-<kbd>9</kbd> pick a card (then <kbd>Tab</kbd>/<kbd>Enter</kbd> a move) · <kbd>p</kbd> pass · <kbd>n</kbd> NO! · <kbd>a</kbd> allow · <kbd>m</kbd> sound</p>
    </section>`;
  }

  const tableaus = html`<div class="players" id="tableaus">${view.players.map((p) => html`<section key=${p}
      class=${`player box ${p === me ? "me" : ""} ${p === turn ? "turn" : ""} ${lastBy.has(p) ? "last-move" : ""}`} data-player=${p} aria-label=${`${p}'s cards`}>
    <h3>${p === me ? `${p} (you)` : p} <span>${view.tableaus[p].filter((s) => s.full).length} full</span></h3>
    <div class="muted">hand ${view.hand_sizes[p]}${p === turn ? " · to play" : ""}</div>
    ${view.tableaus[p].map((s, i) => html`<span key=${`${s.kind}-${i}`} class=${`set ${s.full ? "full" : ""}`} title=${s.full ? `full ${w.name(s.kind)} set: only Ultimate Collector can take it` : `${w.name(s.kind)} set, not full`}>
      <span class="label">${s.full ? "✔ full " : ""}${w.name(s.kind)}</span>${s.cards.map((c, j) => html`<${Card} key=${j} card=${c} w=${w} small/>`)}</span>`)}
  </section>`)}</div>`;

  return html`<div id="critters-board" class="board critters">${status}${prompt}${mine}${tableaus}</div>`;
}

function keys(e, { view, legal, send }) {
  const once = (pred, control) => { const a = legal.find(pred); if (a) send(a, control); return true; };
  const n = Number(e.key);
  if (view.hand && n >= 1 && n <= Math.min(9, view.hand.length)) {
    ui.card = n - 1;
    changed();
    setTimeout(() => { const first = document.querySelector("#moves button"); if (first) first.focus(); }, 0);
    return true;
  }
  if (e.key === "p") return once((a) => a.do === "pass", "pass");
  if (e.key === "n") return once((a) => a.do === "no", "say-no");
  if (e.key === "a") return once((a) => a.do === "allow", "allow");
  return false;
}

function Rules({ info }) {
  const w = words(info.vocabulary);
  return html`<${HowToPlay} title="Critters">
    <p>Take turns in seat order. Collect <b>full sets</b> (3 cards of a kind, 4 in the longer variant) in front of you; full sets of <b>three different kinds</b> win (4 in the other longer variant).</p>
    <ol>
      <li>Your turn starts with a card from the Draw Pile, then you make <b>one move</b>: put a critter down (it joins your set of that kind), put a <b>wild</b> down as any kind, play a full set from your hand, complete a set, play an action card, or pass. <${Ruling}>One move ends the turn even if you still hold more than the hand limit.</${Ruling}></li>
      <li>Action cards: <b>${w.name("hop_over")}</b> takes one Down Card from an opponent's incomplete set; <b>${w.name("game_changer")}</b> swaps one of your Down Cards with one of theirs (not from full sets); <b>${w.name("ultimate_collector")}</b> steals a full set, whole.</li>
      <li>The target answers with <b>NO!</b> (a card from hand: the action is cancelled) or <b>allow</b>. <${Ruling}>The target is always asked, even without a NO! card, so nobody learns who holds one; an unanswered action counts as allowed when the countdown ends.</${Ruling}></li>
      <li>A set never holds more than 3 cards and needs at least one critter. <${Ruling}>You have at most one incomplete set per kind; a fourth fox starts a new fox set.</${Ruling}> Full sets are safe from Hop Over and Game Changer.</li>
      <li>If a full set holds a wild and you hold that kind, you may swap the critter in and move the wild to another set (one move). <${Ruling}>That is the only way a wild changes kind.</${Ruling}></li>
      <li>Pass only with no more than the hand limit (${plural(5, "card")}, 4 with six or more players); over it, you must play or discard. <${Ruling}>When the Draw Pile and centre pile run out and a round passes with nobody able to move, the most different full sets wins, then the most Down Cards.</${Ruling}></li>
    </ol>
  </${HowToPlay}>`;
}

function Results({ summary, winners, info }) {
  const w = words(info.vocabulary);
  const players = Object.keys(summary.tableaus || {});
  return html`<table class="results-table">
    <thead><tr><th scope="col">player</th><th scope="col">full sets</th><th scope="col">hand at the end</th></tr></thead>
    <tbody>${players.map((p) => {
      const full = summary.tableaus[p].filter((s) => s.full);
      return html`<tr key=${p}><td class=${winners.includes(p) ? "winner" : ""}>${winners.includes(p) ? "🏆 " : ""}${p}</td>
        <td>${full.length}${full.length ? ` (${full.map((s) => w.name(s.kind)).join(", ")})` : ""}</td>
        <td>${((summary.hands || {})[p] || []).map(w.name).join(", ") || "none"}</td></tr>`;
    })}</tbody>
  </table>`;
}

export default { Board, Rules, Results, narrate, hear: () => {}, keys };
