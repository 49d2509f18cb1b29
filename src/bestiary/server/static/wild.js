// Call of the Wild at the table: offers face-down with their Calls, asks, meetings, Dens, Watering Hole.
"use strict";
const Wild = (() => {
  const CREATURES = ["megalotaur", "snerlep", "fizzalisk", "wiffaloon", "skeevil"];
  // Shape + colour + sound text: each Call is told apart without colour and without sound.
  const SHAPES = { megalotaur: "▲", snerlep: "◆", fizzalisk: "✸", wiffaloon: "●", skeevil: "■" };
  const CALL_KEYS = ["q", "w", "e", "r", "t"];
  function sounds() {
    const game = (App.games || []).find((g) => g.name === "wild");
    return (game && game.vocabulary && game.vocabulary.sounds) || {};
  }
  const soundOf = (c) => sounds()[c] || c;

  function card(creature, opts = {}) {
    const cls = `card ${opts.small ? "small" : ""} c-${creature} ${opts.selected ? "selected" : ""}`;
    const inner = [h("span", { class: "shape", "aria-hidden": "true" }, SHAPES[creature]), h("b", {}, creature), h("span", { class: "sound" }, soundOf(creature))];
    if (opts.onclick) return h("button", { type: "button", class: cls, onclick: opts.onclick, "aria-pressed": String(!!opts.selected), "data-card": creature, title: opts.title }, inner);
    return h("span", { class: cls, title: opts.title || creature }, inner);
  }
  function callBadge(call) {
    return h("span", { class: `call-badge c-${call}`, style: `border-color: var(--${call})`, title: `Call of the ${call}` },
      h("span", { class: "shape", style: `color: var(--${call})`, "aria-hidden": "true" }, SHAPES[call]), ` ${soundOf(call)} (${call})`);
  }
  function facedown(call) {
    return h("span", { class: "offer", title: `a face-down card, calling ${call}` }, h("span", { class: "card small facedown" }, "?"), " ", callBadge(call));
  }
  const has = (legal, pred) => legal.find(pred);

  function describe(m) {
    const [p, q] = m.players;
    const cards = `${p}'s ${m.cards[p]} and ${q}'s ${m.cards[q]} met on the ${soundOf(m.call)} Call`;
    if (m.outcome === "mate") return `${cards}: they mate, each Den gets the other's card.`;
    if (m.outcome === "eat") return `${cards}: ${m.eater} eats and takes both cards.`;
    return `${cards}: they avoid each other; both cards go to the Watering Hole.`;
  }

  function render(ctx) {
    const { view, legal, me, ui } = ctx;
    const selected = view.hand && view.hand.includes(ui.card) ? ui.card : (view.hand || [])[0];
    ui.card = selected;
    const mine = me && view.hand;
    const children = [];
    if (mine) {
      const callFor = (c) => has(legal, (a) => a.do === "call" && a.card === selected && a.call === c);
      const hand = view.hand.map((c, i) => card(c, { selected: c === selected && i === view.hand.indexOf(selected), onclick: () => { ui.card = c; rerender(); }, title: `key ${i + 1}` }));
      children.push(h("section", { class: "box", id: "my-hand" },
        h("div", { class: "banner" }, view.over ? "The game is over." : `You are ${me}. Offer a card with a Call; meet a player making the same Call.`),
        h("div", { class: "row" }, h("div", {}, h("h3", {}, "Your hand"), hand.length ? hand : h("p", { class: "muted" }, "empty")),
          h("div", {}, h("h3", {}, "Your offer"), view.offer ? [card(view.offer.card, { small: true }), " calling ", callBadge(view.offer.call)] : h("p", { class: "muted" }, "none"))),
        h("div", { class: "row", style: "margin-top:.5rem" }, h("span", {}, selected ? `Call with your ${selected}:` : "No card to call with."),
          CREATURES.map((c, i) => h("button", {
            type: "button", class: `callbtn c-${c}`, disabled: !callFor(c), "data-call": c, title: `key ${CALL_KEYS[i]}`,
            onclick: () => { Sound.play(c); ctx.send(callFor(c)); },
          }, h("span", { class: "shape", style: `color: var(--${c})` }, SHAPES[c]), ` ${soundOf(c)}`))),
        h("div", { class: "row actions", style: "margin-top:.5rem" },
          button(ctx, "draw", (a) => a.do === "draw", "Draw (d)"),
          button(ctx, "withdraw", (a) => a.do === "withdraw", "Withdraw offer (b)"),
          button(ctx, "discard", (a) => a.do === "discard" && a.card === selected, `Discard ${selected || ""} (x)`),
          button(ctx, "reveal_own", (a) => a.do === "reveal_own", "Flip own offer")),
        view.objective ? h("p", {}, "Your objective: ", JSON.stringify(view.objective)) : null,
        h("p", { class: "keys" }, "Keys: ", h("kbd", {}, "1-3"), " pick a card · ", h("kbd", {}, "q w e r t"), " Call ▲◆✸●■ · ",
          h("kbd", {}, "g"), " meet · ", h("kbd", {}, "d"), " draw · ", h("kbd", {}, "b"), " withdraw · ", h("kbd", {}, "x"), " discard · ", h("kbd", {}, "m"), " mute")));
    }
    const asks = view.asks || [];
    children.push(h("div", { class: "players", id: "players" }, view.players.map((p) => {
      const meet = mine && has(legal, (a) => a.do === "meet" && a.with === p);
      const askedMe = asks.some(([a, b]) => a === p && b === me);
      const iAsked = asks.some(([a, b]) => a === me && b === p);
      const call = view.calls[p];
      return h("div", { class: `player ${p === me ? "me" : ""}`, "data-player": p },
        h("h3", {}, p, h("span", {}, `${view.scores[p]} pts`)),
        h("div", { class: "muted" }, `Pack ${view.packs[p]} · hand ${view.hand_sizes[p]}`),
        h("div", { class: "row" }, call ? facedown(call) : h("span", { class: "muted" }, "no Call")),
        askedMe ? h("div", { class: "ask" }, `${p} asks to meet you!`) : null,
        iAsked ? h("div", { class: "muted" }, `you asked ${p} to meet`) : null,
        meet ? h("button", { type: "button", class: "primary meet", "data-meet": p, onclick: () => ctx.send(meet) }, askedMe ? `Meet ${p} now` : `Ask ${p} to meet`) : null,
        h("div", {}, h("small", {}, "Den: "), (view.dens[p] || []).map((c) => card(c.creature, { small: true, title: `${c.creature} from ${c.owner}'s Pack` }))));
    })));
    const hole = view.watering_hole;
    children.push(h("div", { class: "grid" },
      h("section", { class: "box", id: "watering-hole" }, h("h2", {}, "Watering Hole"),
        h("div", {}, hole.face_up.map((c) => card(c.creature, { small: true, title: `${c.owner}'s ${c.creature}` }))),
        h("p", { class: "muted" }, "face-down: ", Object.entries(hole.face_down).map(([p, n]) => `${p} ${n}`).join(", "))),
      h("section", { class: "box" }, h("h2", {}, "Meetings"),
        h("ol", { class: "meetings", id: "meetings" }, (view.meetings || []).map((m) => h("li", {}, describe(m)))))));
    return h("div", { id: "wild-board" }, children);
  }

  function button(ctx, name, pred, label) {
    const action = has(ctx.legal, pred);
    return h("button", { type: "button", "data-action": name, disabled: !action, onclick: () => ctx.send(action) }, label);
  }

  function rerender() { window.render(); }

  function key(e, ctx) {
    const { view, legal, ui } = ctx;
    if (!view.hand) return;
    const n = Number(e.key);
    if (n >= 1 && n <= view.hand.length) { ui.card = view.hand[n - 1]; rerender(); return; }
    const i = CALL_KEYS.indexOf(e.key);
    const pick = (pred) => { const a = legal.find(pred); if (a) ctx.send(a); };
    if (i >= 0) { Sound.play(CREATURES[i]); pick((a) => a.do === "call" && a.card === ui.card && a.call === CREATURES[i]); }
    else if (e.key === "d") pick((a) => a.do === "draw");
    else if (e.key === "b") pick((a) => a.do === "withdraw");
    else if (e.key === "x") pick((a) => a.do === "discard" && a.card === ui.card);
    else if (e.key === "g") {
      const asked = (view.asks || []).filter(([, b]) => b === view.you).map(([a]) => a);
      pick((a) => a.do === "meet" && asked.includes(a.with)) || pick((a) => a.do === "meet");
    }
  }

  // Every Call heard at the table plays its creature's sound.
  function onEvents(events, previous) {
    if (!previous) return;
    for (const ev of events || []) if (ev.do === "call") Sound.play(ev.call);
  }

  function reveal(summary) {
    const ms = summary.meetings || [];
    const kind = (m, p) => m.cards[p] === m.call ? "honest" : "hunting";
    return h("div", { id: "reveal" }, h("h3", {}, "Who hunted whom"),
      ms.length ? h("ol", {}, ms.map((m) => h("li", {}, describe(m), " (",
        m.players.map((p) => `${p} held ${m.cards[p]}: ${kind(m, p)}`).join("; "), ")"))) : h("p", {}, "Nobody met."),
      summary.ended_by && summary.ended_by.length ? h("p", {}, `Sundown brought by ${summary.ended_by.join(" & ")}.`) : h("p", {}, "The game ended without a Sundown."));
  }

  return { render, key, onEvents, reveal, card };
})();
