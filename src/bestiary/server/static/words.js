// The one place the client builds player-facing sentences: articles, capitals, full stops, lists
// and counts. Boards make their sentences from these pieces, so "a owl", "A otter" and "1 pts"
// cannot come back; tests run every card and move through them.

// "a fox", "an owl", "an Ultimate Collector" (by the sound of the first letter; the games' names
// have no silent h or long u).
export function a(noun) {
  return `${/^[aeiou]/i.test(noun) ? "an" : "a"} ${noun}`;
}

// The first letter up: a sentence's start, a button's command.
export function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

// A whole sentence: capital first letter (unless it starts with one of the `names`, which are
// written as their players wrote them), and a full stop unless it already ends in . ! ? or ).
export function sentence(text, names = []) {
  const raw = String(text).trim();
  const t = names.some((n) => n && raw.startsWith(n)) ? raw : capital(raw);
  return /[.!?)]$/.test(t) ? t : `${t}.`;
}

// A button's command from the player's own sentence: "You put down a fox" -> "Put down a fox".
export function command(yours) {
  return capital(yours.replace(/^You /, ""));
}

export function plural(n, word, many = `${word}s`) { return `${n} ${n === 1 ? word : many}`; }

export function listing(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

// A seat in a sentence: "you"/"You" for the viewer, their name otherwise; "your"/"ann's".
export const who = (p, me) => (p === me ? "you" : p);
export const Who = (p, me) => (p === me ? "You" : p);
export const whose = (p, me) => (p === me ? "your" : `${p}'s`);
// The verb after a seat: "you take" but "ann takes" (`s` the ending: "s" or "es").
export const verb = (p, me, base, s = "s") => (p === me ? base : `${base}${s}`);
