// Each game's board (how its cards are drawn, its log's sentences, its rules), by game name. A
// game package ships its own (served at /games/<name>/board.js, named by /api/games as `board`);
// a game without one is drawn by the generic board. The client names no game.
import generic from "./generic.js";

const BOARDS = {};

export async function loadBoards(games) {
  await Promise.all(games.map(async (g) => {
    try {
      BOARDS[g.name] = g.board ? (await import(g.board)).default : generic;
    } catch (err) {
      console.error(`the board of ${g.name} did not load; the generic board draws it`, err);
      BOARDS[g.name] = generic;
    }
  }));
}

export function boardFor(game) {
  return BOARDS[game] || null;
}
