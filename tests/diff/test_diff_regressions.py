"""Regression tests for reported diff bugs, each named after what broke."""

from __future__ import annotations

from edittools.diff import diff_texts


def test_an_absolute_path_is_printed_like_git_without_a_double_slash() -> None:
    unified = diff_texts("a\n", "b\n", path="/home/ada/x.py").unified
    assert unified.startswith("diff --git a/home/ada/x.py b/home/ada/x.py\n")
    assert "--- a/home/ada/x.py\n+++ b/home/ada/x.py\n" in unified
    assert "//" not in unified
