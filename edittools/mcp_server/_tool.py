"""What every surface's tool is made of: its description for clients, and a call on a session."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from edittools import Caller, ToolError
from edittools.artifacts import ToolResult
from edittools.tools import OPERATIONS, ToolParams, input_schema

Call = Callable[[Caller, Mapping[str, Any]], ToolResult]


@dataclass(frozen=True)
class SurfaceTool:
    """One tool as a surface shows it: name, title, description, input schema, hints, and call."""

    name: str
    title: str
    description: str
    input_schema: dict[str, Any]
    call: Call
    """Runs the tool on a session with the raw arguments a client sent; never raises for bad input."""
    read_only: bool
    destructive: bool
    idempotent: bool


def schema_of(model: type[ToolParams]) -> dict[str, Any]:
    """The input schema of a parameter model, with wire names, self-contained (no `$ref`)."""
    return input_schema(model)


def validated(name: str, model: type[ToolParams], run: Callable[[Caller, Any], ToolResult]) -> Call:
    """A call that validates the arguments against `model` first and reports a misfit as an error."""

    def call(session: Caller, arguments: Mapping[str, Any]) -> ToolResult:
        try:
            params = model.model_validate(arguments)
        except ValidationError as exc:
            return ToolError.from_validation(name, exc).result()
        return run(session, params)

    return call


def like(name: str) -> dict[str, Any]:
    """The hints of catalogue tool `name`, as keyword arguments of a `SurfaceTool`."""
    spec = OPERATIONS[name]
    return {
        "read_only": spec.read_only,
        "destructive": spec.destructive,
        "idempotent": spec.idempotent,
    }
