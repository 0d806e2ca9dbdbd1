"""Names a package binds on first use (PEP 562): importing the package loads none of their modules.

A command that needs one corner of a package (``edittools diff`` needs the line-diff core, not the
tools, the watcher and every model) then starts as fast as that corner allows.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(
    package: str, homes: Mapping[str, str], exported: Iterable[str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The `__getattr__` and `__dir__` of `package`, whose name `n` lives in module `homes[n]`.

    A name is imported when first asked for and then bound in the package, so later lookups are
    plain attribute reads; `exported` (the package's `__all__`) is listed by `dir()` before that.
    """
    namespace = sys.modules[package].__dict__
    listed = frozenset(exported)

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *listed})

    return __getattr__, __dir__
