"""The render package exports exactly its public names, sorted."""

from __future__ import annotations

import edittools.render


def test_all_is_sorted_and_exactly_the_public_names() -> None:
    public = {name for name in vars(edittools.render) if not name.startswith("_")}
    assert edittools.render.__all__ == sorted(edittools.render.__all__)
    assert set(edittools.render.__all__) == public
