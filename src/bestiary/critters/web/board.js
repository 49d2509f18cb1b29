// The critter set-collection game at the table: pick a card, then what to do with it (and the kind
// a wild becomes); tableaus with full sets marked; the NO!/allow prompt with its countdown; the
// log's sentences. Card names and descriptions come from /api/games.
import { html } from "/static/lib.js";
import { Control, Countdown, HowToPlay, Ruling } from "/static/ui.js";
import { Glossary, Term } from "/static/howto.js";
import { GameChanger } from "./changer.js";
import { changed } from "/static/store.js";
import { Who, a, capital, command, listing, plural, verb, who, whose } from "/static/words.js";

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

// `own`: a deck's own action cards (a view's `cards`: title, description, effects).
function words(vocab, own = {}) {
  const names = { ...(vocab.cards || {}) };
  for (const [c, d] of Object.entries(own || {})) names[c] = d.title;
  const name = (c) => {
    const n = names[c] || c;
    return (vocab.kinds || []).includes(c) ? n.toLowerCase() : n;
  };
  const tip = (c) => (own && own[c] ? own[c].description : DOES[c]) || `Put it down to grow your ${name(c)} set; full sets win.`;
  const actions = [...(vocab.actions || []), ...Object.keys(own || {})];
  // Is the card answered with NO! or allow? The sheet's always are; a deck's own when it says so.
  const answered = (c) => ["hop_over", "game_changer", "ultimate_collector"].includes(c) || Boolean(own && own[c] && own[c].effects.includes("answerable_by_no"));
  return { name, tip, wild: vocab.wild, actions, own: own || {}, answered };
}

// One move in words, for the log ("ann puts down a fox") and, as the player's own, for its
// button (`command`: "Put down a fox").
function describe(m, me, w, by = me) {
  const Who_ = Who(by, me);
  const v = (base, s) => verb(by, me, base, s);
  const their = by === me ? "your" : "their";
  const card = (c) => a(w.name(c));
  switch (m.do) {
    case "down": return m.card === w.wild ? `${Who_} ${v("put")} down ${card(m.card)} as ${card(m.as)}` : `${Who_} ${v("put")} down ${card(m.card)}`;
    case "set": return `${Who_} ${v("play")} a full ${w.name(m.kind)} set (${m.cards.map(w.name).join(", ")})`;
    case "complete": return `${Who_} ${v("complete")} ${their} ${w.name(m.kind)} set with ${listing(m.cards.map(w.name))}`;
    case "swap_wild": return `${Who_} ${v("swap")} ${card(m.kind)} in for the wild of ${their} full ${w.name(m.kind)} set; the wild joins ${their} ${w.name(m.to)} set`;
    case "pass": return `${Who_} ${v("pass", "es")}`;
    case "discard": return `${Who_} ${v("discard")} ${card(m.card)} (too many cards in hand)`;
    case "no": return `${Who_} ${v("say")} NO!`;
    case "allow": return `${Who_} ${v("allow")} it`;
    case "reshuffle": return "The centre pile is shuffled into a new Draw Pile";
    // chance's pick for a take_random card: the card is there only for the two hands it moves between
    case "random_card": return `${Who(m.to, me)} ${verb(m.to, me, "take")} ${m.card ? card(m.card) : "a card"} at random from ${whose(m.from, me)} hand`;
    default: break;
  }
  // Every other move is an action card, the sheet's or a deck's own: said by the choice it
  // makes on cards (a deck's own card without a choice by its description, when known).
  const on = `${Who_} ${v("play")} ${w.name(m.do)}${m.target ? ` on ${who(m.target, me)}` : ""}`;
  if (m.give) return `${on} to swap ${their} ${w.name(m.give.card)} (${w.name(m.give.kind)} set) for ${whose(m.target, me)} ${w.name(m.take.card)} (${w.name(m.take.kind)} set)`;
  if (m.card) return `${on} to take the ${w.name(m.card)} from ${whose(m.target, me)} ${w.name(m.kind)} set`;
  if (m.full !== undefined) return `${on} to protect ${their} ${m.full ? "full" : "incomplete"} ${w.name(m.kind)} set`;
  if (m.kind) return `${on} to steal ${whose(m.target, me)} full ${w.name(m.kind)} set`;
  return w.own[m.do] ? `${on}: ${w.own[m.do].description.replace(/[.!]$/, "")}` : on;
}

// What an allowed action card does, after the answer's colon (so it starts in lower case).
// Said by the choice the card makes; a deck's own card adds its description.
function effect(p, me, w) {
  const by = p.by;
  const more = w.own[p.do] ? ` (${w.own[p.do].description})` : "";
  if (p.give) return `${who(by, me)} and ${who(p.target, me)} swap ${whose(by, me)} ${w.name(p.give.card)} for ${whose(p.target, me)} ${w.name(p.take.card)}.${more}`;
  if (p.card) return `${who(by, me)} ${verb(by, me, "take")} the ${w.name(p.card)} from ${whose(p.target, me)} ${w.name(p.kind)} set.${more}`;
  if (p.full !== undefined) return `${who(by, me)} ${verb(by, me, "protect")} ${whose(by, me)} ${w.name(p.kind)} set.${more}`;
  if (p.kind) return `${who(by, me)} ${verb(by, me, "steal")} ${whose(p.target, me)} full ${w.name(p.kind)} set!${more}`;
  return w.own[p.do] ? w.own[p.do].description : "";
}

// The log's sentences for `events` (with the views before and after them).
function narrate(events, before, after, me, vocab) {
  const w = words(vocab, after.cards || before.cards);
  let pending = before.pending;
  const lines = [];
  for (const [at, ev] of events.entries()) {
    let text;
    if (ev.do === "allow" && pending && ev.timeout) {
      text = `${ev.by === me ? "Your" : `${ev.by}'s`} time to answer ran out, so ${whose(pending.by, me)} ${w.name(pending.do)} goes ahead: ${effect(pending, me, w)}`;
    } else if (ev.do === "allow" && pending) text = `${describe(ev, me, w, ev.by)}: ${effect(pending, me, w)}`;
    else if (ev.do === "no" && pending) text = `${Who(ev.by, me)} ${verb(ev.by, me, "say")} NO!, so ${whose(pending.by, me)} ${w.name(pending.do)} is cancelled.`;
    else if (ev.timeout && ev.by) text = `${ev.by === me ? "Your" : `${ev.by}'s`} time ran out, so a bot moved for ${ev.by === me ? "you" : "them"}: ${describe(ev, me, w, ev.by).replace(/^You /, "you ")}.`;
    else text = `${describe(ev, me, w, ev.by)}.`;
    if (w.answered(ev.do)) {
      pending = ev;
      text += ` ${Who(ev.target, me)} must answer: NO! or allow.`;
    } else if (ev.do === "allow" || ev.do === "no") pending = null;
    lines.push({ text, by: ev.by || ev.to, with: ev.target || ev.from, at });
  }
  if (after.over && !before.over) {
    const ws = after.winners || [];
    const names = listing(ws.map((p) => who(p, me)));
    lines.push({ text: ws.length ? (ws.length > 1 ? `${capital(names)} share the win.` : `${names === "you" ? "You win" : `${names} wins`} with full sets of ${plural(((after.options || {}).sets_to_win) || 3, "kind")}.`) : "Nobody wins.", by: null, at: events.length - 1 });
  }
  return lines;
}

// ------------------------------------------------------------------ pieces

function Card({ card, w, small, selected, onClick, id, label }) {
  const cls = `card ${small ? "small" : ""} ${selected ? "selected" : ""} k-${w.actions.includes(card) ? "action" : card === w.wild ? "wild" : "critter"}`;
  const inner = html`<span class="shape" aria-hidden="true">${ICONS[card] || (w.own[card] ? "✨" : "?")}</span><b>${w.name(card)}</b>`;
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

function Board({ view, legal, me, info, timers, events, ticker = null }) {
  const w = words(info.vocabulary, view.cards);
  const turn = view.turn;
  const hand = view.hand || [];
  if (ui.card >= hand.length) ui.card = -1;
  const lastBy = new Set((events || []).flatMap((e) => [e.by, e.target, e.to, e.from]).filter(Boolean));
  // a protect_set card's marks: [owner, {kind, full}]
  const guarded = (p, s) => (view.protected || []).some(([o, m]) => o === p && m.kind === s.kind && m.full === s.full);
  const banner = view.over ? "The game is over."
    : view.awaiting ? `${Who(view.awaiting, me)} must answer ${whose(view.pending ? view.pending.by : turn, me)} ${w.name(view.pending ? view.pending.do : "action")}.`
      : turn === me ? "Your turn: you drew a card; now pick a card and make one move." : `${turn}'s turn.`;
  const top = view.centre_pile.length ? view.centre_pile[view.centre_pile.length - 1] : null;
  const status = html`<div class="status row" id="status">
    <span class="banner" id="turn" aria-live="polite">${banner}</span>
    <span class="muted">Draw Pile ${view.draw_pile} · centre pile ${view.centre_pile.length}${top ? ` (top: ${w.name(top)})` : ""}</span>
    ${timers && timers.answer !== undefined && view.awaiting ? html`<${Countdown} id="answer-timer" label=${view.awaiting === me ? "Answer in" : `${view.awaiting} answers in`} seconds=${timers.answer}/>` : null}
    ${timers && timers.turn !== undefined && !view.awaiting && !view.over ? html`<span class="turn-clock"><${Countdown} id="turn-timer" urgent=${15} label=${turn === me ? "Your move:" : `${turn}'s move:`} seconds=${timers.turn}/>
      <span class="muted" id="turn-clock-rule">${turn === me ? "When it runs out, a bot makes this move for you." : `When it runs out, a bot moves for ${turn}.`}</span></span>` : null}
  </div>`;

  let prompt = null;
  if (view.awaiting && view.awaiting === me && view.pending) {
    const no = legal.find((a) => a.do === "no") || null;
    const allow = legal.find((a) => a.do === "allow") || null;
    prompt = html`<div class="prompt" id="no-prompt" role="alert">
      <h2>${describe(view.pending, me, w, view.pending.by)}.</h2>
      <p id="answer-rule">If you do not answer before the clock runs out, it is allowed.</p>
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
    const changers = forCard.filter((a) => a.do === "game_changer" && a.give && a.take); // changer.js: in two steps
    const others = forCard.filter((a) => !(a.do === "down" && a.card === w.wild) && !changers.includes(a));
    const pass = legal.find((a) => a.do === "pass") || null;
    const myTurn = turn === me && !view.awaiting && !view.over;
    const played = () => { ui.card = -1; }; // the card leaves the hand: nothing stays selected
    mine = html`<section class="box me" id="my-hand" aria-label="your hand and moves">
      <h2>Your hand (${me})</h2>
      <div class="cards">${hand.map((c, i) => html`<${Card} key=${i} card=${c} w=${w} id=${`hand-${i}`} selected=${i === ui.card}
        onClick=${() => { ui.card = i === ui.card ? -1 : i; changed(); }}/>`)}</div>
      <div class="moves" id="moves" role="group" aria-label="moves for the selected card">
        ${selected ? html`<h3>${capital(w.name(selected))}: ${w.tip(selected)}</h3>` : html`<h3>${myTurn ? "Pick a card to see what you can do with it." : banner}</h3>`}
        ${selected && !forCard.length ? html`<p class="muted" id="card-reason">${cardReason(selected, view, me, w)}</p>` : null}
        ${downs.length ? html`<div class="row" role="group" aria-label="put the wild down as"><span>Put the wild down as:</span>
          ${downs.map((m) => html`<${Control} key=${m.as} id=${`down-as-${m.as}`} action=${m} data-do="down" onPress=${played} title=${`Put the wild down as ${a(w.name(m.as))}`}>${ICONS[m.as] || ""} ${w.name(m.as)}</${Control}>`)}</div>` : null}
        ${others.map((m, k) => html`<div key=${k}><${Control} id=${`move-${k}`} action=${m} data-do=${m.do} onPress=${played}>${command(describe(m, me, w))}</${Control}></div>`)}
        ${changers.length ? html`<${GameChanger} moves=${changers} w=${w} played=${played} label=${(m) => command(describe(m, me, w))}/>` : null}
      </div>
      <div class="row">
        <${Control} id="pass" action=${pass} data-do="pass" why=${myTurn} reason=${!myTurn ? cardReason("pass", view, me, w) : `You hold more than ${view.options.hand_limit} cards: ${legal.some((a) => a.do === "discard") ? "play or discard one instead" : "play one instead"}.`}>Pass (p)</${Control}>
      </div>
      <p class="keys">Keys: <kbd>1</kbd>-<kbd>9</kbd> pick a card (then <kbd>Tab</kbd>/<kbd>Enter</kbd> a move) · <kbd>p</kbd> pass · <kbd>n</kbd> NO! · <kbd>a</kbd> allow · <kbd>m</kbd> sound</p>
    </section>`;
  }

  const tableaus = html`<div class="players" id="tableaus">${view.players.map((p) => html`<section key=${p}
      class=${`player box ${p === me ? "me" : ""} ${p === turn ? "turn" : ""} ${lastBy.has(p) ? "last-move" : ""}`} data-player=${p} aria-label=${`${p}'s cards`}>
    <h3>${p === me ? `${p} (you)` : p} <span>${view.tableaus[p].filter((s) => s.full).length} full</span></h3>
    <div class="muted">hand ${view.hand_sizes[p]}${p === turn ? " · to play" : ""}${(view.skip_next || []).includes(p) ? " · skips the next turn" : ""}</div>
    ${view.tableaus[p].map((s, i) => html`<span key=${`${s.kind}-${i}`} class=${`set ${s.full ? "full" : ""} ${guarded(p, s) ? "protected" : ""}`} title=${guarded(p, s) ? `${w.name(s.kind)} set, protected: no other player's card touches it until ${p}'s turn comes round` : s.full ? `full ${w.name(s.kind)} set: only Ultimate Collector can take it` : `${w.name(s.kind)} set, not full`}>
      <span class="label">${guarded(p, s) ? "⛨ " : ""}${s.full ? "✔ full " : ""}${w.name(s.kind)}</span>${s.cards.map((c, j) => html`<${Card} key=${j} card=${c} w=${w} small/>`)}</span>`)}
  </section>`)}</div>`;

  return html`<div id="critters-board" class="board critters">${status}${prompt}${mine}${ticker}${tableaus}</div>`;
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
    <p>Take turns in seat order. Collect <${Term} word="full sets">3 cards of a kind, 4 in the longer variant, face-up in front of you</${Term}>; full sets of <b>three different kinds</b> win (4 in the other longer variant).</p>
    <ol>
      <li>Your turn starts with a card from the <${Term} word="Draw Pile">the face-down cards in the centre</${Term}>, then you make <b>one move</b>: put a critter down as a <${Term} word="Down Card">a card face-up in front of you, in a set; it never goes back to your hand</${Term}> (it joins your set of that kind), put a <${Term} word="wild">a card that stands for any critter kind</${Term}> down as any kind, play a full set from your hand, complete a set, play an <${Term} word="action card">a card you play for what it does, onto the centre pile</${Term}>, or pass. <${Ruling}>One move ends the turn even if you still hold more than the hand limit.</${Ruling}></li>
      <li>Action cards: <b>${w.name("hop_over")}</b> takes one Down Card from an opponent's incomplete set; <b>${w.name("game_changer")}</b> swaps one of your Down Cards with one of theirs (not from full sets); <b>${w.name("ultimate_collector")}</b> steals a full set, whole.</li>
      <li>The <${Term} word="target">the opponent an action card is played against</${Term}> answers with <b>NO!</b> (a card from hand: the action is cancelled) or <b>allow</b>. <${Ruling}>The target is always asked, even without a NO! card, so nobody learns who holds one; an unanswered action counts as allowed when the countdown ends.</${Ruling}></li>
      <li><${Ruling}>Each turn has a clock too: when a player's runs out, a bot makes that one move for them (the seat stays theirs).</${Ruling}></li>
      <li>A set never holds more than 3 cards and needs at least one critter. <${Ruling}>You have at most one incomplete set per kind; a fourth fox starts a new fox set.</${Ruling}> Full sets are safe from Hop Over and Game Changer.</li>
      <li>If a full set holds a wild and you hold that kind, you may swap the critter in and move the wild to another set (one move). <${Ruling}>That is the only way a wild changes kind.</${Ruling}></li>
      <li>Pass only with no more than the hand limit (${plural(5, "card")}, 4 with six or more players); over it, you must play or discard. <${Ruling}>When the Draw Pile and centre pile run out and a round passes with nobody able to move, the most different full sets wins, then the most Down Cards.</${Ruling}></li>
    </ol>
    <${Glossary} terms=${[
      ["Draw Pile", "the face-down cards in the centre: your turn starts with one."],
      ["Down Card", "a critter or wild put face-up in front of you, in a set; it never goes back to your hand."],
      ["Set", "your Down Cards of one kind; full with 3 (4 in the longer variant), and a full set is safe from Hop Over and Game Changer."],
      ["Wild", "stands for any critter kind, declared when it goes down."],
      ["Action card", "played for what it does, onto the centre pile: " + ["hop_over", "game_changer", "ultimate_collector", "no"].map((c) => `${w.name(c)}: ${DOES[c]}`).join(" ")],
      ["Target", "the opponent an action card is played against: they answer with NO! or allow."],
      ["Hand limit", "5 cards after your turn (4 with six or more players)."],
    ]}/>
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

// A move a replay can jump to: an action card played.
// (Only action cards name a target; a deck's own card without one is no landmark.)
const landmark = (ev) => Boolean(ev && (ev.target || ["hop_over", "game_changer", "ultimate_collector"].includes(ev.do)));

export default {
  Board, Rules, Results, narrate, hear: () => {}, keys, landmark, landmarkName: "action card", logBeside: true,
  command: (m, me, vocab) => command(describe(m, me, words(vocab))),
};
