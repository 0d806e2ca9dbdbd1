"""`tree_diff`: the diff of two trees of files, with renames found by content similarity.

Pure like the rest of the engine: the caller gives the names of each side's files and a
function that returns a file's bytes (watchdog's snapshot diff takes its `stat` and `listdir`
the same way). Files under the same name are compared and diffed; the rest are added or deleted,
unless a deleted and an added file are similar enough to be a rename, as git's ``-M`` judges it:
identical content first, then the share of bytes the two have in common, counted over chunks
that end at a newline or after 64 bytes, against the larger of the two sizes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Sequence
from functools import partial
from typing import Any, NamedTuple, Protocol, TypeVar

from edittools.diff._defaults import DEFAULT_BUDGET, RENAME_THRESHOLD
from edittools.diff._line_diff import LineDiff, line_diff

RENAME_LIMIT = 1000
"""Past this many deleted (or added) files, only identical contents are paired (as git)."""
TASK_FILES = 32
"""Files under the same name in both trees per task handed to a `Runner`."""
_CHUNK = 64

Reader = Callable[[str], bytes]
_Result = TypeVar("_Result")


class Runner(Protocol):
    """Runs independent tasks, possibly several at once, and returns their results in order."""

    def __call__(self, tasks: Sequence[Callable[[], _Result]], /) -> list[_Result]: ...


class TreeEntry(NamedTuple):
    """One file of a tree diff: its name on each side, its diff, the rename's similarity."""

    path: str
    """The name in the new tree (the old tree's for a deleted file)."""
    old_path: str | None
    """The name in the old tree; None for an added file."""
    result: LineDiff
    similarity: int | None = None
    """Percent similarity of a rename; None otherwise."""


def tree_diff(
    old: Collection[str],
    new: Collection[str],
    read_old: Reader,
    read_new: Reader,
    *,
    rename_threshold: float | None = RENAME_THRESHOLD,
    context: int = 3,
    budget: float | None = DEFAULT_BUDGET,
    hunks: bool = True,
    run: Runner | None = None,
) -> list[TreeEntry]:
    """Diff the files of two trees: `old` and `new` name their files (``/``-separated).

    Returns the files that differ, in name order: modified, added, deleted and renamed (a pair
    at least `rename_threshold` similar; None turns rename detection off). Binary files are
    reported, not diffed. Each file is read once. `hunks` False gives line counts alone
    (`LineDiff.counts`), as ``--numstat`` needs. `run` runs the work as tasks of
    `TASK_FILES` names each, in any order or at once (``in_parallel`` shares them with a child
    process); the result is the same as without it.
    """
    old_names, new_names = set(old), set(new)
    # In the old side's own order (a walk's: folder by folder), not sorted: the entries are
    # sorted once at the end, and sorting thousands of names here would hold up the tasks.
    common = [name for name in dict.fromkeys(old) if name in new_names]
    deleted = sorted(old_names - new_names)
    added = sorted(new_names - old_names)

    def changed(names: list[str]) -> list[TreeEntry]:
        entries = []
        for path in names:
            before, after = read_old(path), read_new(path)
            if before == after:
                continue
            result = line_diff(
                before, after, context=context, budget=budget, path=path, hunks=hunks
            )
            if result.differ:
                entries.append(TreeEntry(path, path, result))
        return entries

    def unpaired() -> list[TreeEntry]:
        return _unpaired(
            deleted,
            added,
            read_old,
            read_new,
            rename_threshold,
            context=context,
            budget=budget,
            hunks=hunks,
        )

    if run is None:
        entries = changed(common) + unpaired()
    else:
        # Tasks hand back plain tuples, which a runner in another process passes on faster.
        tasks = [partial(_plain, unpaired)] + [
            partial(_plain, changed, common[start : start + TASK_FILES])
            for start in range(0, len(common), TASK_FILES)
        ]
        entries = [
            TreeEntry(path, old_path, LineDiff(*fields), similarity)
            for done in run(tasks)
            for path, old_path, fields, similarity in done
        ]
    entries.sort(key=lambda entry: entry.path)
    return entries


_PlainEntry = tuple[str, str | None, tuple[Any, ...], int | None]


def _plain(task: Callable[..., list[TreeEntry]], *args: Any) -> list[_PlainEntry]:
    """`task`'s entries as tuples of plain values (a hunk stays a named tuple)."""
    return [
        (entry.path, entry.old_path, tuple(entry.result), entry.similarity) for entry in task(*args)
    ]


def _unpaired(
    deleted: list[str],
    added: list[str],
    read_old: Reader,
    read_new: Reader,
    threshold: float | None,
    *,
    context: int,
    budget: float | None,
    hunks: bool,
) -> list[TreeEntry]:
    """The files found on one side only: renamed pairs, then deleted and added files."""
    entries: list[TreeEntry] = []
    sources: dict[str, bytes] = {}
    targets: dict[str, bytes] = {}
    pairs: list[tuple[str, str, int]] = []
    if threshold is not None and deleted and added:
        # Rename candidates are read once, for the similarity and for the diff.
        sources = {path: read_old(path) for path in deleted}
        targets = {path: read_new(path) for path in added}
        pairs = _renames(deleted, added, sources, targets, threshold)
    paired_old = {source for source, _, _ in pairs}
    paired_new = {target for _, target, _ in pairs}
    for source, target, score in pairs:
        result = line_diff(
            sources[source],
            targets[target],
            operation="rename",
            context=context,
            budget=budget,
            path=source,
            hunks=hunks,
        )
        entries.append(TreeEntry(target, source, result, score))
    for path in deleted:
        if path not in paired_old:
            before = sources[path] if sources else read_old(path)
            entries.append(
                TreeEntry(path, path, line_diff(before, None, context=context, hunks=hunks))
            )
    for path in added:
        if path not in paired_new:
            after = targets[path] if targets else read_new(path)
            entries.append(
                TreeEntry(path, None, line_diff(None, after, context=context, hunks=hunks))
            )
    return entries


def _renames(
    deleted: list[str],
    added: list[str],
    sources: dict[str, bytes],
    targets: dict[str, bytes],
    threshold: float,
) -> list[tuple[str, str, int]]:
    """Pairs ``(old name, new name, percent)``: identical contents, then the most similar."""
    # The contents themselves are the keys: they are in memory already, and equal keys are
    # equal bytes (a digest would cost a hash library's import and a pass over each file).
    by_content: dict[bytes, list[str]] = {}
    for path in deleted:
        by_content.setdefault(sources[path], []).append(path)
    pairs: list[tuple[str, str, int]] = []
    for path in added:
        same = by_content.get(targets[path])
        if same:
            # Prefer the deleted file with the same base name, as git does.
            base = path.rsplit("/", 1)[-1]
            source = next((s for s in same if s.rsplit("/", 1)[-1] == base), same[0])
            same.remove(source)
            pairs.append((source, path, 100))
    used_old = {source for source, _, _ in pairs}
    used_new = {target for _, target, _ in pairs}
    rest_old = [path for path in deleted if path not in used_old]
    rest_new = [path for path in added if path not in used_new]
    if not rest_old or not rest_new or max(len(rest_old), len(rest_new)) > RENAME_LIMIT:
        return pairs
    signatures = {path: _signature(sources[path]) for path in rest_old}
    scored: list[tuple[int, int, str, str]] = []
    for order, target in enumerate(rest_new):
        target_signature = _signature(targets[target])
        for source in rest_old:
            score = _similarity(
                signatures[source],
                target_signature,
                len(sources[source]),
                len(targets[target]),
                threshold,
            )
            if score:
                scored.append((-score, order, source, target))
    scored.sort()
    for negative, _, source, target in scored:
        if source in used_old or target in used_new:
            continue
        used_old.add(source)
        used_new.add(target)
        pairs.append((source, target, -negative * 100 // _SCALE))
    return pairs


_SCALE = 60000  # git's MAX_SCORE: scores are fractions of it


def _signature(data: bytes) -> Counter[bytes]:
    """Bytes per chunk content: chunks end at a newline or after 64 bytes (a CR before the
    newline of a text file is left out, so CRLF and LF copies count as the same)."""
    lines = data.split(b"\n")
    last = lines.pop()
    if b"\r" in data and b"\0" not in data[:8000]:
        lines = [line[:-1] if line.endswith(b"\r") else line for line in lines]
    # Most lines are one chunk with their newline: count them in C, then weigh each distinct
    # one by its length (the same bytes per chunk as chunking them one by one).
    occurrences = Counter(lines)
    counts: Counter[bytes] = Counter()
    long: list[bytes] = [last] if last else []
    for line, times in occurrences.items():
        if len(line) < _CHUNK:
            counts[line + b"\n"] += times * (len(line) + 1)
        else:
            long += [line + b"\n"] * times
    for piece in long:
        for start in range(0, len(piece), _CHUNK):
            chunk = piece[start : start + _CHUNK]
            counts[chunk] += len(chunk)
    return counts


def _similarity(
    source: Counter[bytes], target: Counter[bytes], size_a: int, size_b: int, threshold: float
) -> int:
    """Git-style score (0 to `_SCALE`) of a pair, or 0 under the threshold."""
    larger, smaller = max(size_a, size_b), min(size_a, size_b)
    if not larger:
        return 0
    # Too different in size to reach the threshold, whatever they share.
    if larger * (1 - threshold) < larger - smaller:
        return 0
    small, big = (source, target) if len(source) <= len(target) else (target, source)
    copied = sum(min(count, big[chunk]) for chunk, count in small.items() if chunk in big)
    score = copied * _SCALE // larger
    return score if score >= threshold * _SCALE else 0
