"""Zero-copy comparison of byte ranges: how far two buffers agree, forwards or backwards.

Equal stretches are skipped with ``bytes.startswith``/``endswith`` against ``memoryview`` slices
of growing size (no copies, memcmp speed), then the first difference is pinned down by bisection.
"""

from __future__ import annotations

_FIRST = 256
_MAX = 1 << 22
_LINEAR = 32


def common_prefix(a: bytes, b: bytes, mb: memoryview, i: int, j: int, limit: int) -> int:
    """Length of the longest common prefix of ``a[i:i+limit]`` and ``b[j:j+limit]``."""
    done, step = 0, _FIRST
    while done < limit:
        size = min(step, limit - done)
        if a.startswith(mb[j + done : j + done + size], i + done):
            done += size
            step = min(step << 1, _MAX)
            continue
        lo, hi = done, done + size  # equal up to lo, a difference before hi
        while hi - lo > _LINEAR:
            mid = (lo + hi) >> 1
            if a.startswith(mb[j + lo : j + mid], i + lo):
                lo = mid
            else:
                hi = mid
        while lo < hi and a[i + lo] == b[j + lo]:
            lo += 1
        return lo
    return limit


def common_suffix(a: bytes, b: bytes, mb: memoryview, ea: int, eb: int, limit: int) -> int:
    """Length of the longest common suffix of ``a[ea-limit:ea]`` and ``b[eb-limit:eb]``."""
    done, step = 0, _FIRST
    while done < limit:
        size = min(step, limit - done)
        if a.endswith(mb[eb - done - size : eb - done], 0, ea - done):
            done += size
            step = min(step << 1, _MAX)
            continue
        lo, hi = done, done + size
        while hi - lo > _LINEAR:
            mid = (lo + hi) >> 1
            if a.endswith(mb[eb - mid : eb - lo], 0, ea - lo):
                lo = mid
            else:
                hi = mid
        while lo < hi and a[ea - lo - 1] == b[eb - lo - 1]:
            lo += 1
        return lo
    return limit
