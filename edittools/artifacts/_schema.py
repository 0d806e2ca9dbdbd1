"""The JSON Schema of the protocol, exported from the models and kept in the repository.

Regenerate the kept file after changing a model: `python -m edittools.artifacts._schema`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from edittools.artifacts._models import SCHEMA_ID, Artifact, StreamEvent, ToolResult

SCHEMA_FILE = Path(__file__).resolve().parent.parent / "schema" / "tool-artifact.v1.schema.json"
"""Where the exported schema is kept in the repository."""


def export_schema() -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of the protocol v1.

    The root validates one v1 artifact; `$defs` also hold `ToolResult` and `StreamEvent` and
    every payload model.
    """
    adapters: list[tuple[str, Any]] = [
        # pydantic takes any type form; without PEP 747 support mypy reads it as `type[T]`.
        ("Artifact", TypeAdapter[Any](Artifact)),
        ("ToolResult", TypeAdapter(ToolResult)),
        ("StreamEvent", TypeAdapter(StreamEvent)),
    ]
    refs, schema = TypeAdapter.json_schemas(
        [(name, "validation", adapter) for name, adapter in adapters]
    )
    defs = dict(sorted(schema.get("$defs", {}).items()))
    artifact = refs[("Artifact", "validation")]
    defs["Artifact"] = artifact
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"{SCHEMA_ID}/v1",
        "title": "edittools tool artifact, version 1",
        "description": (
            "A versioned structured artifact of an edittools tool result. The root validates "
            "one artifact; $defs/ToolResult and $defs/StreamEvent describe the results and "
            "stream events that carry it."
        ),
        **{k: v for k, v in artifact.items()},
        "$defs": defs,
    }


def schema_text() -> str:
    """The exported schema as the text kept in the repository."""
    return json.dumps(export_schema(), indent=2, ensure_ascii=False) + "\n"


def write_schema(path: Path = SCHEMA_FILE) -> Path:
    """Write the exported schema to `path` (the kept file by default) and return the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(schema_text(), encoding="utf-8")
    return path


if __name__ == "__main__":
    sys.stdout.write(f"wrote {write_schema()}\n")
