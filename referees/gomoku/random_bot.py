#!/usr/bin/env python3
"""A random Gomoku bot with one ply of sense, over the arena's UGI protocol (docs/protocol.md).

It plays a point that makes K in a row at once if there is one, else it blocks a point where the
opponent would make K in a row next, else it plays a random empty point. The choice is drawn from
random.Random(" ".join(moves)): the same position gets the same move. Points are written as the
referee (referees/gomoku/referee.py) reads them: column letter then row number, `a1` the bottom left.

    [[bots]]
    name = "gomoku-random"
    command = "python3"
    args = ["../referees/gomoku/random_bot.py"]
"""
import random
import sys

size, k = 15, 5


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()  # the arena waits for whole lines: always flush


def point(text):
    """(x, y) of a move such as `h8`, or None."""
    if len(text) < 2 or not "a" <= text[0] <= "z" or not text[1:].isdigit():
        return None
    return ord(text[0]) - ord("a"), int(text[1:]) - 1


def name(x, y):
    return chr(ord("a") + x) + str(y + 1)


def makes_line(board, x, y, p):
    """Whether a stone of p at the empty point (x, y) makes K or more in a row."""
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            cx, cy = x + sign * dx, y + sign * dy
            while 0 <= cx < size and 0 <= cy < size and board[cy][cx] == p:
                run += 1
                cx, cy = cx + sign * dx, cy + sign * dy
        if run >= k:
            return True
    return False


def choose(moves):
    board = [[0] * size for _ in range(size)]
    for n, m in enumerate(moves):
        xy = point(m)
        if xy and 0 <= xy[0] < size and 0 <= xy[1] < size:
            board[xy[1]][xy[0]] = 1 + n % 2
    me = 1 + len(moves) % 2
    empty = [(x, y) for y in range(size) for x in range(size) if board[y][x] == 0]
    if not empty:
        return "(none)"
    rng = random.Random(" ".join(moves))
    for p in (me, 3 - me):  # win, else block
        found = [(x, y) for x, y in empty if makes_line(board, x, y, p)]
        if found:
            return name(*rng.choice(found))
    return name(*rng.choice(empty))


moves = []
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    command = words[0]
    if command == "ugi":
        send("id name gomoku-random")
        send("id author the arena team")
        send("ugiok")
    elif command == "isready":
        send("readyok")
    elif command == "game":  # game gomoku SIZE K (no words: the default 15 5)
        size, k = (int(words[2]), int(words[3])) if len(words) >= 4 else (15, 5)
    elif command == "position":  # position startpos [moves h8 h9 ...]
        moves = words[3:] if len(words) > 2 and words[2] == "moves" else []
    elif command == "go":
        send("bestmove " + choose(moves))
    elif command == "quit":
        break
