#!/usr/bin/env python3
"""A complete arena bot in a few lines of Python: Connect Four over UGI (see docs/protocol.md).

It keeps the column heights from the `position` command and answers `go` with the free column
closest to the centre. Run it in a tournament with, in a config in configs/ (a path in a config,
an argument that names a file included, is relative to the config file's folder; docs/configs.md):

    [[bots]]
    name = "python-centre"
    command = "python3"
    args = ["../bots/examples/connect4_first_free.py"]
"""
import sys

width, height = 7, 6
heights = [0] * width


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()  # the arena waits for whole lines: always flush


for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    command = words[0]
    if command == "ugi":
        send("id name connect4-first-free")
        send("id author the arena team")
        send("ugiok")
    elif command == "isready":
        send("readyok")
    elif command == "game":  # game connect4 W H
        width, height = int(words[2]), int(words[3])
    elif command == "position":  # position startpos [moves 4 4 3 ...]
        heights = [0] * width
        for move in words[3:]:
            heights[int(move) - 1] += 1
    elif command == "go":
        by_centre = sorted(range(width), key=lambda c: abs(2 * c - (width - 1)))
        column = next(c for c in by_centre if heights[c] < height)
        send(f"bestmove {column + 1}")
    elif command == "quit":
        break
