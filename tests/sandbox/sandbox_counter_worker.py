"""Counter worker, run as a separate process: N read-modify-write increments with expect=.

Usage: python sandbox_counter_worker.py ROOT N. Prints "ready", waits for a line on stdin (so two
workers start together), then increments the integer in ROOT/counter.txt N times, retrying on
"stale", and prints how many retries it needed.
"""

from __future__ import annotations

import sys

from sandbox import Sandbox, SandboxError


def main() -> None:
    root, count = sys.argv[1], int(sys.argv[2])
    retries = 0
    with Sandbox(root) as box:
        print("ready", flush=True)
        sys.stdin.readline()
        for _ in range(count):
            while True:
                data, version = box.read_bytes("counter.txt")
                try:
                    box.write_bytes("counter.txt", b"%d\n" % (int(data) + 1), expect=version)
                    break
                except SandboxError as exc:
                    if exc.code != "stale":
                        raise
                    retries += 1
    print(retries, flush=True)


if __name__ == "__main__":
    main()
