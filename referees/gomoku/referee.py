#!/usr/bin/env python3
"""A referee program for Gomoku (freestyle, CodeCup 2020's game), protocol version 1 of docs/referees.md.

A SIZE x SIZE board; the first player (black) moves first, the players alternate placing a stone on an
empty point, and the first to make K or more in a row (across, up or diagonally) wins; a full board
without one is a draw. Variant words `SIZE K` (default `15 5`; SIZE 5..26, K 3..SIZE). A move names a
point by its column letter and row number, lower case: `a1` is the bottom left, `h8` the centre of 15 x 15.
`legal` lists the empty points row by row from the bottom, left to right in each row: a1 b1 … a2 b2 ….
Python 3 standard library only; a move costs O(K) (only the lines through the new stone are looked at).

    [game]
    referee = { command = "python3", args = ["../referees/gomoku/referee.py"] }
    variant = "15 5"
"""
import json
import re
import sys

NAME = "gomoku"
DEFAULT = (15, 5)
NUMBER = re.compile(r"[0-9]{1,3}\Z")

EMPTY, BORDER = 0, 3  # stones: 1 the first player's, 2 the second's
PLAYERS = ("first", "second")


class Gomoku:
    """One game: a board with a border of BORDER cells, so that walking a line needs no bounds checks."""

    def __init__(self, size, k):
        self.size, self.k = size, k
        stride = size + 2
        self.stride = stride
        self.cells = [BORDER] * (stride * stride)
        self.index = {}  # move name -> cell index
        self.names = []  # in the order of `legal`: row by row from the bottom
        self.xy = {}  # cell index -> (x, y)
        for y in range(size):
            for x in range(size):
                i = (y + 1) * stride + x + 1
                self.cells[i] = EMPTY
                name = chr(ord("a") + x) + str(y + 1)
                self.index[name] = i
                self.names.append((i, name))
                self.xy[i] = (x, y)
        self.directions = (1, stride, stride + 1, stride - 1)
        self.moves = []  # cell indices
        self.result = None  # None, "first", "second" or "draw"
        self.win = None  # the winning run's two end indices
        self.board_json = None  # the frame's board and pieces as JSON text, made at the first `frame`
        self.piece_json = None

    def state(self):
        if self.result is not None:
            return "end " + self.result
        return "next 0" if len(self.moves) % 2 == 0 else "next 1"

    def play(self, text):
        """The answer to `play TEXT`, without the tag."""
        if self.result is not None:
            return "over"
        i = self.index.get(text)
        if i is None:
            return "unparsable %s is not a point of the %d x %d board (a1 to %s%d)" % (
                text, self.size, self.size, chr(ord("a") + self.size - 1), self.size)
        cells = self.cells
        if cells[i] != EMPTY:
            return "illegal %s is taken" % text
        p = 1 + len(self.moves) % 2
        cells[i] = p
        self.moves.append(i)
        k = self.k
        for d in self.directions:
            # Before this stone no run of K stood, so each side holds fewer than K: O(K) a direction.
            a = i - d
            while cells[a] == p:
                a -= d
            b = i + d
            while cells[b] == p:
                b += d
            if (b - a) // d - 1 >= k:
                self.result = PLAYERS[p - 1]
                self.win = (a + d, b - d)
                break
        else:
            if len(self.moves) == self.size * self.size:
                self.result = "draw"
        return "ok " + self.state()

    def undo(self):
        if not self.moves:
            return "no"
        self.cells[self.moves.pop()] = EMPTY
        self.result = None
        self.win = None
        return "ok " + self.state()

    def legal(self):
        if self.result is not None:
            return "legal"
        cells = self.cells
        return " ".join(["legal"] + [name for i, name in self.names if cells[i] == EMPTY])

    def frame(self):
        """The board picture of docs/games.md, one line of JSON (built from pieces made once a game)."""
        if self.board_json is None:
            size = self.size
            self.board_json = json.dumps({
                "layout": "points",
                "cols": size,
                "rows": size,
                "style": "paper",
                "col_labels": [chr(ord("a") + c) for c in range(size)],
                "row_labels": [str(r + 1) for r in range(size)],
            }, separators=(",", ":"))
            self.piece_json = [{}, {}, {}]
            for i, (x, y) in self.xy.items():
                for p in (1, 2):
                    self.piece_json[p][i] = (
                        '{"x":%d,"y":%d,"owner":"%s","shape":"disc","kind":"stone"}'
                        % (x, y, PLAYERS[p - 1]))
        xy, cells, piece = self.xy, self.cells, self.piece_json
        parts = ['{"board":', self.board_json]
        if self.win is not None:
            (ax, ay), (bx, by) = xy[self.win[0]], xy[self.win[1]]
            parts.append(',"lines":[{"points":[[%d,%d],[%d,%d]],"owner":"%s","kind":"win"}]'
                         % (ax, ay, bx, by, self.result))
        if self.moves:
            parts.append(',"pieces":[')
            parts.append(",".join([piece[cells[i]][i] for i, _ in self.names if cells[i] != EMPTY]))
            parts.append('],"highlight":[[%d,%d]]' % xy[self.moves[-1]])
        if self.result is None:
            who = PLAYERS[len(self.moves) % 2]
            parts.append(',"panel":[{"text":"%s to move","owner":"%s"}]}' % (who, who))
        elif self.result == "draw":
            parts.append(',"panel":[{"text":"draw: the board is full"}]}')
        else:
            parts.append(',"panel":[{"text":"%s player wins","owner":"%s"}]}'
                         % (self.result, self.result))
        return "frame " + "".join(parts)


def variant_of(words):
    """(SIZE, K) from the words of `new`, or a reason to refuse them."""
    if not words:
        return DEFAULT
    if len(words) != 2 or not all(NUMBER.match(w) for w in words):
        return "the variant is two numbers, SIZE K (such as 15 5), not %r" % " ".join(words)
    size, k = int(words[0]), int(words[1])
    if not 5 <= size <= 26:
        return "SIZE %d is not in 5..26" % size
    if not 3 <= k <= size:
        return "K %d is not in 3..%d" % (k, size)
    return size, k


def main():
    sys.stdin.reconfigure(errors="replace")  # a stray byte makes an unparsable move, not a crash
    write, flush = sys.stdout.write, sys.stdout.flush
    game = Gomoku(*DEFAULT)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "play":
            answer = game.play(words[1]) if len(words) == 2 else "unparsable a move is one word"
        elif command == "undo":
            answer = game.undo()
        elif command == "legal":
            answer = game.legal()
        elif command == "frame":
            answer = game.frame()
        elif command == "new":
            v = variant_of(words[1:])
            if isinstance(v, str):
                answer = "refused " + v
            else:
                game = Gomoku(*v)
                answer = "ok " + game.state()
        elif command == "variant":
            answer = "variant %d %d" % (game.size, game.k)
        elif command == "hello":
            answer = "hello 1 " + NAME
        elif command == "quit":
            return
        else:
            # The protocol has no answer for this, and the arena never sends one.
            sys.stderr.write("gomoku referee: unknown command %r\n" % command)
            sys.stderr.flush()
            continue
        write("@ref " + answer + "\n")
        flush()


if __name__ == "__main__":
    try:
        main()
    except (BrokenPipeError, KeyboardInterrupt):
        sys.exit(0)
