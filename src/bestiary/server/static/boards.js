// Each game's board (how its cards are drawn, its log's sentences, its rules), by game name.
// The one place the client knows game names; everything else it reads from /api/games.
import wild from "./wild.js";
import critters from "./critters.js";

export const BOARDS = { wild, critters };

export function boardFor(game) {
  return BOARDS[game] || null;
}
