// Call of the Wild's "How to play" for a newcomer: a worked example of each kind of Meeting in
// the rule sheet's words (Mating, Hunting, Double-Crossing, Avoiding), drawn with this server's
// creatures, and the game's words in a glossary. `w` is the board's words(vocabulary).
import { html } from "/static/lib.js";
import { Glossary } from "/static/howto.js";
import { a } from "/static/words.js";

// [word, meaning] for the glossary; the rules explain each where it first comes up too.
export const TERMS = [
  ["Call", "the sound you make with the card you offer: one of the five creatures' sounds. It need not be your card's own."],
  ["Offer", "your card face-down on the table with your Call. One at a time."],
  ["Meeting", "two players making the same Call agree to meet: both cards turn face-up and the food chain decides."],
  ["Food chain", "the ring of five creatures: each one eats the next one along the arrows."],
  ["Pack", "your own 10 cards, face-down: you draw from it into your hand."],
  ["Den", "your face-up pile of cards won in Meetings: each card in it scores."],
  ["Watering Hole", "the middle of the table where discarded and Avoided cards go: they score nothing."],
  ["Sundown", "the end of the game: a player meets with the last card in their hand and their Pack is empty."],
  ["Nightfall", "the end of the game when nobody has met for the table's countdown (a bestiary ruling)."],
  ["Objective", "a secret goal dealt to you (for example, bring Sundown): extra points if you meet it."],
];

// One worked example per kind of Meeting, with the chain's first creatures: ann's card, the
// Call she makes, bob's card, and what happens.
export function Examples({ w }) {
  const [x, y, z] = w.chain; // x eats y, y eats z
  const n = (c) => w.name(c), s = (c) => w.sound(c);
  return html`<section class="examples" aria-labelledby="examples-title"><h3 id="examples-title">An example of each kind of Meeting</h3>
    <p class="muted">On this food chain the ${n(x)} eats the ${n(y)}, and the ${n(y)} eats the ${n(z)}.</p>
    <ol id="examples">
      <li data-kind="mate"><b>Mating.</b> ann offers ${a(n(y))} and makes its own Call, ${s(y)}; bob, also holding ${a(n(y))}, makes ${s(y)} too. They meet: two ${n(y)}s on their own Call Mate, and each Den takes the other's card (1 point each).</li>
      <li data-kind="hunt"><b>Hunting.</b> ann offers ${a(n(x))} but calls ${s(y)}, the Call of what her ${n(x)} eats; bob answers honestly with ${a(n(y))} on ${s(y)}. They meet: the ${n(x)} ${w.verb(x)} the ${n(y)}, and ann takes both cards to her Den (2 points).</li>
      <li data-kind="double-cross"><b>Double-Crossing.</b> ann suspects a hunter: she offers ${a(n(x))} and calls ${s(z)}, two steps along the chain. bob, Hunting, answers ${s(z)} with ${a(n(y))}, hoping to eat an honest ${n(z)}. They meet: ann's ${n(x)} ${w.verb(x)} his ${n(y)} instead, and she takes both cards (2 points).</li>
      <li data-kind="avoid"><b>Avoiding.</b> ann offers ${a(n(x))} on ${s(z)}; bob answers with ${a(n(z))}. Two steps apart on the chain, they Avoid each other: both cards go face-up to the Watering Hole and nobody scores. Two of the same creature on another creature's Call (both Hunting) Avoid each other too.</li>
    </ol></section>`;
}

export const WildGlossary = () => html`<${Glossary} terms=${TERMS}/>`;
