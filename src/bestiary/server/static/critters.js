// The critter set-collection game at the table: hand, tableaus with full sets marked, piles, turn, NO! prompt.
"use strict";
const Critters = (() => {
  const ICONS = {
    fox: "🦊", owl: "🦉", frog: "🐸", hedgehog: "🦔", otter: "🦦", rabbit: "🐇", raccoon: "🦝", squirrel: "🐿️",
    turtle: "🐢", wild: "🃏", no: "✋", hop_over: "🦘", game_changer: "🔄", ultimate_collector: "👑",
  };
  const NAMES = { no: "NO!", hop_over: "Hop Over", game_changer: "Game Changer", ultimate_collector: "Ultimate Collector" };
  const nameOf = (c) => NAMES[c] || c;

  function card(c, small) {
    return h("span", { class: `card ${small ? "small" : ""}`, title: nameOf(c), "data-card": c },
      h("span", { class: "shape", "aria-hidden": "true" }, ICONS[c] || "?"), h("b", {}, nameOf(c)));
  }

  function describe(a, me) {
    const yours = (p) => (p === me ? "your" : `${p}'s`);
    switch (a.do) {
      case "down": return a.card === "wild" ? `Put down a wild as ${a.as}` : `Put down ${a.card}`;
      case "set": return `Play a full ${a.kind} set (${a.cards.join(", ")})`;
      case "complete": return `Complete your ${a.kind} set with ${a.cards.join(", ")}`;
      case "hop_over": return `Hop Over: take ${yours(a.target)} ${a.card} from the ${a.kind} set`;
      case "game_changer": return `Game Changer: swap ${a.by && a.by !== me ? a.by + "'s" : "your"} ${a.give.card} (${a.give.kind}) for ${yours(a.target)} ${a.take.card} (${a.take.kind})`;
      case "ultimate_collector": return `Ultimate Collector: steal ${yours(a.target)} full ${a.kind} set`;
      case "no": return "Say NO!";
      case "allow": return "Allow it";
      case "swap_wild": return `Swap a ${a.kind} in for the wild of your ${a.kind} set; the wild joins ${a.to}`;
      case "pass": return "Pass (end your turn)";
      case "discard": return `Discard ${a.card} (you hold too many)`;
      case "reshuffle": return "The centre pile is shuffled into a new Draw Pile";
      default: return JSON.stringify(a);
    }
  }

  function render(ctx) {
    const { view, legal, me } = ctx;
    const children = [];
    const turn = view.turn;
    const banner = view.over ? "The game is over."
      : view.awaiting ? `${view.awaiting === me ? "You" : view.awaiting} must answer ${turn === me ? "your" : turn + "'s"} action.`
      : turn === me ? "Your turn: you drew a card, now make one move." : `${turn}'s turn.`;
    children.push(h("div", { class: "banner", id: "turn" }, banner,
      h("span", { class: "muted" }, ` · Draw Pile ${view.draw_pile} · centre pile ${view.centre_pile.length}`,
        view.centre_pile.length ? ` (top: ${nameOf(view.centre_pile[view.centre_pile.length - 1])})` : "")));
    if (view.awaiting && view.awaiting === me && view.pending) {
      const no = legal.find((a) => a.do === "no");
      const allow = legal.find((a) => a.do === "allow");
      children.push(h("div", { class: "prompt", id: "no-prompt", role: "alert" },
        h("h2", {}, `${view.pending.by || turn} plays on you: ${describe(view.pending, me)}`),
        h("div", { class: "row" },
          h("button", { type: "button", class: "primary", id: "say-no", disabled: !no, onclick: () => ctx.send(no) }, "✋ Say NO! (n)"),
          h("button", { type: "button", id: "allow", disabled: !allow, onclick: () => ctx.send(allow) }, "Allow (a)")),
        !no ? h("p", { class: "muted" }, "You hold no NO! card.") : null));
    }
    if (view.hand) {
      const moves = legal.filter((a) => a.do !== "no" && a.do !== "allow");
      children.push(h("section", { class: "box", id: "my-hand" },
        h("h2", {}, `Your hand (${me})`), h("div", {}, view.hand.map((c) => card(c))),
        moves.length ? h("div", {}, h("h3", {}, "Your moves"),
          h("div", { class: "actions", id: "moves" }, moves.map((a, i) => h("button", {
            type: "button", "data-do": a.do, onclick: () => ctx.send(a), title: i < 9 ? `key ${i + 1}` : "",
          }, i < 9 ? `${i + 1}. ` : "", describe(a, me))))) : null,
        h("p", { class: "keys" }, "Keys: ", h("kbd", {}, "1-9"), " a move · ", h("kbd", {}, "p"), " pass · ",
          h("kbd", {}, "n"), " NO! · ", h("kbd", {}, "a"), " allow")));
    }
    children.push(h("div", { class: "players", id: "tableaus" }, view.players.map((p) => h("div", {
      class: `player ${p === me ? "me" : ""} ${p === turn ? "turn" : ""}`, "data-player": p,
    },
    h("h3", {}, p, h("span", {}, `${view.tableaus[p].filter((s) => s.full).length} full`)),
    h("div", { class: "muted" }, `hand ${view.hand_sizes[p]}${p === turn ? " · to play" : ""}`),
    view.tableaus[p].map((s) => h("span", { class: `set ${s.full ? "full" : ""}`, title: s.full ? `full ${s.kind} set` : `${s.kind} set, not full` },
      h("span", { class: "label" }, `${s.full ? "✔ full " : ""}${s.kind}`), s.cards.map((c) => card(c, true))))))));
    return h("div", { id: "critters-board" }, children);
  }

  function key(e, ctx) {
    const { legal } = ctx;
    const pick = (pred) => { const a = legal.find(pred); if (a) ctx.send(a); };
    const moves = legal.filter((a) => a.do !== "no" && a.do !== "allow");
    const n = Number(e.key);
    if (n >= 1 && n <= 9 && moves[n - 1]) ctx.send(moves[n - 1]);
    else if (e.key === "p") pick((a) => a.do === "pass");
    else if (e.key === "n") pick((a) => a.do === "no");
    else if (e.key === "a") pick((a) => a.do === "allow");
  }

  return { render, key, describe };
})();
