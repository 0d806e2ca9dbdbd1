"""Each native boundary's property (tests/native_properties.py) in a child process of its own, so
that a crash in compiled code fails its test, with its stack, instead of ending the run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from native_properties import PROPERTIES

HERE = Path(__file__).resolve().parent


@pytest.mark.integration
@pytest.mark.parametrize("name", PROPERTIES)
def test_native_boundary_property_holds_in_a_child(name: str) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-X",
            "faulthandler",
            "-c",
            f"import native_properties; native_properties.{name}()",
        ],
        cwd=HERE,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stderr[-6000:]}"
