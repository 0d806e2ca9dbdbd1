"""Race attacker, run as a separate process: swap pairs of paths with renameat2(RENAME_EXCHANGE).

Usage: python sandbox_race_attacker.py A1 B1 [A2 B2 ...]. Prints "ready", swaps every pair in turn
until a line arrives on stdin, restores every pair to its starting orientation and prints the number
of swaps made.
"""

from __future__ import annotations

import ctypes
import os
import select
import sys

AT_FDCWD = -100
RENAME_EXCHANGE = 2


def main() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    exchange = libc.renameat2
    exchange.argtypes = (
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_uint,
    )
    args = [os.fsencode(a) for a in sys.argv[1:]]
    pairs = list(zip(args[::2], args[1::2], strict=True))
    flips = [0] * len(pairs)

    def swap(i: int) -> None:
        a, b = pairs[i]
        if exchange(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0:
            err = ctypes.get_errno()
            raise OSError(err, os.strerror(err), a)
        flips[i] ^= 1

    print("ready", flush=True)
    swaps = 0
    while True:
        for i in range(len(pairs)):
            swap(i)
        swaps += len(pairs)
        if swaps % 64 == 0 and select.select([sys.stdin], [], [], 0)[0]:
            break
    for i, flipped in enumerate(flips):
        if flipped:
            swap(i)
    print(swaps, flush=True)


if __name__ == "__main__":
    main()
