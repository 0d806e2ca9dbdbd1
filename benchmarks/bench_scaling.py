"""Matching cost on inputs that once went quadratic: many replacements, many hunks, a large miss.

Run: python benchmarks/bench_scaling.py [--repeat K]

Each case runs in this process, in memory (the matching and splicing alone, no disk), and prints
its median wall time beside the one-pass floor it should scale like (a `str.replace` of the same
text, or splitting the file into lines), and the ratio of the two.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from edittools._errors import ToolError
from edittools.tools._matching import locate
from edittools.tools._patch import apply_file_patch, parse_patch
from edittools.tools._splice import splice_spans


def _median(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _source(lines: int, indent: str = "    ") -> list[str]:
    return [f"{indent}value_{i} = compute(value_{i - 1}, {i % 97})" for i in range(lines)]


def _replace_all() -> tuple[Callable[[], object], Callable[[], object]]:
    text = "x = token + 1\n" * 71_500  # about 1 MB, 71,500 lines
    text = text.replace("+", "token", 28_500)  # 100,000 occurrences of "token" in all

    def run() -> None:
        m = locate(text, "token", "other", replace_all=True)
        assert len(m.spans) == 100_000
        splice_spans(text, [(a, b, r) for (a, b), r in zip(m.spans, m.replacements, strict=True)])

    return run, lambda: text.replace("token", "other")


def _patch(
    lines: int, hunks: int, *, drift: bool
) -> tuple[Callable[[], object], Callable[[], object]]:
    body = _source(lines)
    text = "\n".join(body) + "\n"
    step = lines // hunks
    parts = ["--- a/f.py\n+++ b/f.py\n"]
    for h in range(hunks):
        k = h * step + 1  # one line of context, then the changed line
        ctx, old = body[k - 1], body[k]
        if drift:  # sent with a tab where the file has 4 spaces
            ctx, old = "\t" + ctx.lstrip(), "\t" + old.lstrip()
        parts.append(f"@@ -{k},2 +{k},2 @@\n {ctx}\n-{old}\n+{old}  # changed\n")
    fp = parse_patch("".join(parts))[0]

    def run() -> None:
        new_text, tier = apply_file_patch(text, fp)
        assert tier == ("indentation" if drift else "exact"), tier
        assert new_text.count("# changed") == hunks

    return run, lambda: text.split("\n")


def _miss() -> tuple[Callable[[], object], Callable[[], object]]:
    body = _source(50_000)
    text = "\n".join(body) + "\n"
    old = "\n".join(f"    other_{i} = elsewhere({i})" for i in range(2_000)) + "\n"

    def run() -> None:
        try:
            locate(text, old, "x")
        except ToolError as exc:
            assert exc.code == "no_match"
        else:
            raise AssertionError("a missing old_string matched")

    return run, lambda: text.split("\n")


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    cases = {
        "replace_all: 100,000 replacements, 1 MB": _replace_all(),
        "apply_patch: 5,000 exact hunks, 50,000 lines": _patch(50_000, 5_000, drift=False),
        "apply_patch: 100,000 exact hunks, 200,000 lines": _patch(200_000, 100_000, drift=False),
        "apply_patch: 5,000 indentation hunks, 50,000 lines": _patch(50_000, 5_000, drift=True),
        "edit miss: 2,000-line old_string, 50,000 lines": _miss(),
    }
    print(f"{'case':<52} {'median s':>9} {'floor s':>9} {'ratio':>7}")
    for name, (run, floor) in cases.items():
        t = _median(run, args.repeat)
        f = _median(floor, args.repeat)
        print(f"{name:<52} {t:>9.3f} {f:>9.4f} {t / f:>7.1f}")


if __name__ == "__main__":
    main()
