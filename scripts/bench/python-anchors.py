"""The Python half of scripts/bench-python.ts: verdicts and validation speed.

Usage:
  python python-anchors.py verdicts <side> <models> < cases.jsonl
  python python-anchors.py speed <mcp-gen package dir> <rounds> <batch ms> < cases.jsonl

Sides: ``mcp-gen`` (a generated package: folder, import name), ``dmcg``
(a models.py written by datamodel-code-generator) and ``mcp-types`` (the
official SDK's wire types for 2026-07-28). Each case is
``{"definition": name, "value": ...}``; a verdict line is ``1``, ``0`` or
``-`` (the side has no model of that name).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import statistics
import sys
import time
from typing import Any, Callable

from pydantic import TypeAdapter, ValidationError


def load_side(side: str, where: str) -> Callable[[str], Any]:
    """A function from a definition name to a validating callable (None: no such model)."""
    if side == "mcp-gen":
        folder, name = where.split(":")
        sys.path.insert(0, folder)
        package = importlib.import_module(name)
        types: dict[str, Any] = package.DEFINITIONS
    elif side == "dmcg":
        spec = importlib.util.spec_from_file_location("dmcg_models", where)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules["dmcg_models"] = module
        spec.loader.exec_module(module)
        types = {k: v for k, v in vars(module).items() if isinstance(v, type)}
    else:
        module = importlib.import_module("mcp_types._v2026_07_28")
        types = {k: v for k, v in vars(module).items() if isinstance(v, type)}
    cache: dict[str, Any] = {}

    def validator(name: str) -> Any:
        if name not in cache:
            target = types.get(name)
            cache[name] = None if target is None else TypeAdapter(target).validate_python
        return cache[name]

    return validator


def verdicts(side: str, where: str) -> None:
    validator = load_side(side, where)
    for line in sys.stdin:
        case = json.loads(line)
        validate = validator(case["definition"])
        if validate is None:
            print("-")
            continue
        try:
            validate(case["value"])
            print("1")
        except (ValidationError, ValueError, TypeError):
            print("0")


def speed(folder: str, rounds: int, batch_ms: int) -> None:
    """ns per message on the mix, mcp-gen's package against mcp-types, in alternating rounds."""
    cases = [json.loads(line) for line in sys.stdin]
    name = folder.split(":")[1]
    sys.path.insert(0, folder.split(":")[0])
    package = importlib.import_module(name)
    theirs = importlib.import_module("mcp_types._v2026_07_28")

    def ours_of(case: dict[str, Any]) -> Callable[[Any], Any]:
        value = case["value"]
        if isinstance(value, dict) and "jsonrpc" in value and "method" in value:
            return package.parse_message
        target = package.DEFINITIONS[case["definition"]]
        return TypeAdapter(target).validate_python

    def theirs_of(case: dict[str, Any]) -> Callable[[Any], Any]:
        target = getattr(theirs, case["definition"])
        return TypeAdapter(target).validate_python

    sides = {
        "G": [(ours_of(c), c["value"]) for c in cases],
        "T": [(theirs_of(c), c["value"]) for c in cases],
    }

    def once(calls: list[tuple[Callable[[Any], Any], Any]]) -> None:
        for call, value in calls:
            result = call(value)
            if getattr(result, "ok", True) is False:
                raise SystemExit(f"refused in the benchmark: {value!r:.200}")

    iterations: dict[str, int] = {}
    for key, calls in sides.items():
        start = time.perf_counter_ns()
        count = 0
        while time.perf_counter_ns() - start < batch_ms * 1_000_000 // 4:
            once(calls)
            count += 1
        per_batch = (time.perf_counter_ns() - start) / count
        iterations[key] = max(1, int(batch_ms * 1_000_000 / per_batch))
    results: dict[str, list[float]] = {key: [] for key in sides}
    for round_ in range(rounds):
        order = list(sides) if round_ % 2 == 0 else list(reversed(sides))
        for key in order:
            calls = sides[key]
            start = time.perf_counter_ns()
            for _ in range(iterations[key]):
                once(calls)
            elapsed = time.perf_counter_ns() - start
            results[key].append(elapsed / (iterations[key] * len(calls)))
    print(
        json.dumps(
            {
                "messages": len(cases),
                "G": results["G"],
                "T": results["T"],
                "ratio": [g / t for g, t in zip(results["G"], results["T"])],
                "medianRatio": statistics.median(
                    g / t for g, t in zip(results["G"], results["T"])
                ),
            }
        )
    )


if __name__ == "__main__":
    if sys.argv[1] == "verdicts":
        verdicts(sys.argv[2], sys.argv[3])
    else:
        speed(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
