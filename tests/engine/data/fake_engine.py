"""A misbehaving UCI engine for the client's tests: `python fake_engine.py MODE`.

MODE: illegal (answers a move that is not legal), crash (dies on `go`), silent (never answers `go`),
none (answers bestmove (none)), garbage (prints noise before a legal-looking move).
"""

import sys

mode = sys.argv[1] if len(sys.argv) > 1 else "illegal"
for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    if cmd[0] == "uci":
        print("id name fake-" + mode)
        print("option name UCI_Variant type combo default chess var chess var orda")
        print("uciok", flush=True)
    elif cmd[0] == "isready":
        print("readyok", flush=True)
    elif cmd[0] == "go":
        if mode == "crash":
            sys.exit(3)
        if mode == "silent":
            continue
        if mode == "none":
            print("bestmove (none)", flush=True)
        elif mode == "garbage":
            print("hello there\ninfo depth x score cp y pv\nbestmove e2e4", flush=True)
        else:
            print("info depth 1 score cp 10 pv e2e5", flush=True)
            print("bestmove e2e5", flush=True)
    elif cmd[0] == "quit":
        break
