"""Agents' identities: a declared name never holds the separator, nor anything that passes for it,
so it never equals or reads as an identity with a connection part."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from edittools.mcp_server._agents import NAME_CHARS, SEPARATOR, Agent, declared


def test_plain_names_are_kept_as_declared() -> None:
    for name in ("claude-code", "Claude Desktop", "pydantic-ai (1.2)", "mcp/inspector", "Zoë_2"):
        assert declared(name) == name


def test_the_separator_and_what_passes_for_it_or_hides_are_escaped() -> None:
    assert declared("alice#1a2b3c4d") == "alice%231a2b3c4d"
    assert declared("a%23") == "a%2523"  # an escape sent as such is escaped again
    for look_alike in ("\uff03", "\ufe5f", "\u266f", "\u200b", "\u202e", "\n", "\x00"):
        written = declared(f"alice{look_alike}1a2b3c4d")
        assert written.startswith("alice%") and written.isascii(), written


def test_an_identity_with_a_session_is_the_name_and_the_session_apart() -> None:
    assert str(Agent("alice", "0123456789abcdef0123456789abcdef")) == "alice#0123456789ab"
    assert str(Agent("alice")) == "alice"
    assert str(Agent("alice#0123456789ab")) != str(Agent("alice", "0123456789abcdef"))


def test_a_long_name_is_cut_on_a_whole_character() -> None:
    assert declared("a" * 200) == "a" * NAME_CHARS
    cut = declared("a" * (NAME_CHARS - 4) + "#" * 3)
    assert cut == "a" * (NAME_CHARS - 4) + "%23" and len(cut) <= NAME_CHARS


@given(st.text(max_size=20))
def test_no_declared_name_holds_the_separator(name: str) -> None:
    assert SEPARATOR not in declared(name)


@given(st.text(max_size=6), st.text(max_size=6))  # escaped whole, under the cut
def test_two_declared_names_never_escape_alike(one: str, other: str) -> None:
    if one != other:
        assert declared(one) != declared(other)
