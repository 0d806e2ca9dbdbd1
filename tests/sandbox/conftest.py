"""Fixtures for the sandbox tests: a real root with an outside world next to it, both resolvers."""

from __future__ import annotations

import pathlib
from collections.abc import Iterator

import pytest
from sandbox_world import RESOLVERS, World, make_world, openat2_works

from sandbox import Sandbox


@pytest.fixture(params=RESOLVERS)
def resolver(request: pytest.FixtureRequest) -> str:
    """Each test runs once per resolver: openat2 and the descriptor walker."""
    name: str = request.param
    if name == "openat2" and not openat2_works():
        pytest.skip("this kernel has no openat2; the walker tests still run")
    return name


@pytest.fixture
def world(tmp_path: pathlib.Path) -> World:
    """A root with plain files, in-root links and escaping links; outside files next to it."""
    return make_world(tmp_path)


@pytest.fixture
def sb(world: World, resolver: str) -> Iterator[Sandbox]:
    """A sandbox over the world's root with the resolver under test."""
    with Sandbox(world.root, resolver=resolver) as box:  # type: ignore[arg-type]
        yield box
