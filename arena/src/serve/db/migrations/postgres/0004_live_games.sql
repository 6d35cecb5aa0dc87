-- The live board of the games external workers play: the worker that holds a game's lease writes the
-- game in progress here (JSON: id, first, second, moves, board) every 2 s while it moves, and the server's
-- live pages read it beside the games of its own slots. Only rows still `leased` under a lease that
-- has not run out are shown; a new claim starts with none.
ALTER TABLE queue ADD COLUMN live TEXT;
