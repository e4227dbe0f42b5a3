"""Checks, at run time, of what pydantic cannot express.

A generated model that meets a JSON Schema keyword pydantic has no
exact equivalent for (propertyNames beyond "string", patternProperties,
if/then/else, not, oneOf, an anyOf of ``required`` lists...) keeps the
keyword as a fragment of JSON Schema, which :class:`SchemaCheck` evaluates
before pydantic validates the rest: the model then accepts exactly what
the schema accepts. mcp-gen copies this file verbatim into every
generated package.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Callable, Mapping
from typing import Any, Union, cast

from pydantic import TypeAdapter, ValidationError
from pydantic_core import PydanticCustomError, core_schema


_TYPE_CHECKS: dict[str, Callable[[Any], bool]] = {
    "null": lambda v: v is None,
    "boolean": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "integer": lambda v: (
        (isinstance(v, int) and not isinstance(v, bool))
        or (isinstance(v, float) and v.is_integer())
    ),
}


def _json_equal(a: object, b: object) -> bool:
    """JSON's equality: 1 == 1.0, but true is no number; arrays and objects by content."""
    kind = _kind(a)
    if kind != _kind(b):
        return False
    if kind == "array":
        left = cast("list[Any]", a)
        right = cast("list[Any]", b)
        return len(left) == len(right) and all(
            _json_equal(x, y) for x, y in zip(left, right)
        )
    if kind == "object":
        first = cast("dict[str, Any]", a)
        second = cast("dict[str, Any]", b)
        same_keys: bool = set(first) == set(second)
        return same_keys and all(_json_equal(first[k], second[k]) for k in first)
    return a == b


def _kind(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


class SchemaCheck:
    """Checks a value against a JSON Schema fragment that pydantic cannot express.

    Used before pydantic's own validation, as ``Annotated[T, SchemaCheck(...)]``
    or from a model's ``before`` validator. ``$ref`` names a definition of
    ``module``, which is validated by its own model.
    """

    def __init__(self, schema: Mapping[str, Any], module: str) -> None:
        self.schema = schema
        self.module = module
        self._adapters: dict[str, TypeAdapter[Any]] = {}

    def __get_pydantic_core_schema__(
        self, source: Any, handler: Callable[[Any], core_schema.CoreSchema]
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_before_validator_function(self, handler(source))

    def __call__(self, value: Any) -> Any:
        problem = self.problem(self.schema, value)
        if problem is not None:
            raise PydanticCustomError("schema", "{problem}", {"problem": problem})
        return value

    def problem(self, schema: Any, value: Any) -> str | None:
        """What is wrong with ``value`` against ``schema``, or None."""
        if schema is True:
            return None
        if schema is False:
            return "is not allowed"
        for keyword, argument in schema.items():
            check = _KEYWORDS.get(keyword)
            if check is None:
                continue
            problem = check(self, argument, value, schema)
            if problem is not None:
                return problem
        return None

    def valid(self, schema: Any, value: Any) -> bool:
        """Whether ``value`` matches ``schema``."""
        return self.problem(schema, value) is None

    def reference(self, name: str, value: Any) -> str | None:
        """Validates ``value`` by the model of definition ``name``."""
        adapter = self._adapters.get(name)
        if adapter is None:
            adapter = TypeAdapter(getattr(sys.modules[self.module], name))
            self._adapters[name] = adapter
        try:
            adapter.validate_python(value)
        except ValidationError:
            return f"must be a valid {name}"
        return None


_Keyword = Callable[[SchemaCheck, Any, Any, Mapping[str, Any]], Union[str, None]]


def _type(
    check: SchemaCheck, types: Any, value: Any, _: Mapping[str, Any]
) -> str | None:
    names: list[str] = [types] if isinstance(types, str) else list(types)
    if any(_TYPE_CHECKS[name](value) for name in names):
        return None
    return f"must be {' or '.join(names)}"


def _const(
    check: SchemaCheck, expected: Any, value: Any, _: Mapping[str, Any]
) -> str | None:
    return None if _json_equal(expected, value) else f"must be {expected!r}"


def _enum(
    check: SchemaCheck, allowed: Any, value: Any, _: Mapping[str, Any]
) -> str | None:
    if any(_json_equal(option, value) for option in allowed):
        return None
    return "must be one of the allowed values"


def _object_keyword(
    inner: Callable[
        [SchemaCheck, Any, dict[str, Any], Mapping[str, Any]], Union[str, None]
    ],
) -> _Keyword:
    def keyword(
        check: SchemaCheck, argument: Any, value: Any, schema: Mapping[str, Any]
    ) -> str | None:
        return (
            inner(check, argument, cast("dict[str, Any]", value), schema)
            if isinstance(value, dict)
            else None
        )

    return keyword


def _array_keyword(
    inner: Callable[[SchemaCheck, Any, list[Any], Mapping[str, Any]], Union[str, None]],
) -> _Keyword:
    def keyword(
        check: SchemaCheck, argument: Any, value: Any, schema: Mapping[str, Any]
    ) -> str | None:
        return (
            inner(check, argument, cast("list[Any]", value), schema)
            if isinstance(value, list)
            else None
        )

    return keyword


def _string_keyword(
    inner: Callable[[SchemaCheck, Any, str, Mapping[str, Any]], Union[str, None]],
) -> _Keyword:
    def keyword(
        check: SchemaCheck, argument: Any, value: Any, schema: Mapping[str, Any]
    ) -> str | None:
        return inner(check, argument, value, schema) if isinstance(value, str) else None

    return keyword


def _number_keyword(
    inner: Callable[[SchemaCheck, Any, float, Mapping[str, Any]], Union[str, None]],
) -> _Keyword:
    def keyword(
        check: SchemaCheck, argument: Any, value: Any, schema: Mapping[str, Any]
    ) -> str | None:
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        return inner(check, argument, value, schema) if number else None

    return keyword


def _properties(
    check: SchemaCheck, properties: Any, value: dict[str, Any], _: Mapping[str, Any]
) -> str | None:
    for name, sub in properties.items():
        if name in value:
            problem = check.problem(sub, value[name])
            if problem is not None:
                return f"/{name} {problem}"
    return None


def _matched(schema: Mapping[str, Any], name: str) -> bool:
    properties: Mapping[str, Any] = schema.get("properties", {})
    patterns: Mapping[str, Any] = schema.get("patternProperties", {})
    return name in properties or any(re.search(p, name) for p in patterns)


def _additional(
    check: SchemaCheck, sub: Any, value: dict[str, Any], schema: Mapping[str, Any]
) -> str | None:
    for name, item in value.items():
        if not _matched(schema, name):
            problem = check.problem(sub, item)
            if problem is not None:
                return f"/{name} {problem}"
    return None


def _pattern_properties(
    check: SchemaCheck, patterns: Any, value: dict[str, Any], _: Mapping[str, Any]
) -> str | None:
    for pattern, sub in patterns.items():
        for name, item in value.items():
            if re.search(pattern, name):
                problem = check.problem(sub, item)
                if problem is not None:
                    return f"/{name} {problem}"
    return None


def _required(
    check: SchemaCheck, names: Any, value: dict[str, Any], _: Mapping[str, Any]
) -> str | None:
    missing = [name for name in names if name not in value]
    return f"/{missing[0]} is required" if missing else None


def _property_names(
    check: SchemaCheck, sub: Any, value: dict[str, Any], _: Mapping[str, Any]
) -> str | None:
    for name in value:
        if not check.valid(sub, name):
            return f"property name {name!r} is not allowed"
    return None


def _items(
    check: SchemaCheck, items: Any, value: list[Any], schema: Mapping[str, Any]
) -> str | None:
    if isinstance(items, list):
        # draft-07's tuple form: items by position, then additionalItems.
        positional = cast("list[Any]", items)
        rest = schema.get("additionalItems", True)
        subs = [
            positional[i] if i < len(positional) else rest for i in range(len(value))
        ]
    else:
        first = len(schema.get("prefixItems", []))
        subs = [True] * min(first, len(value)) + [items] * max(len(value) - first, 0)
    for index, (sub, item) in enumerate(zip(subs, value)):
        problem = check.problem(sub, item)
        if problem is not None:
            return f"/{index} {problem}"
    return None


def _prefix_items(
    check: SchemaCheck, subs: Any, value: list[Any], _: Mapping[str, Any]
) -> str | None:
    for index, (sub, item) in enumerate(zip(subs, value)):
        problem = check.problem(sub, item)
        if problem is not None:
            return f"/{index} {problem}"
    return None


def _unique(
    check: SchemaCheck, unique: Any, value: list[Any], _: Mapping[str, Any]
) -> str | None:
    if unique is True:
        for i, first in enumerate(value):
            if any(_json_equal(first, second) for second in value[i + 1 :]):
                return "must not have duplicate items"
    return None


def _contains(
    check: SchemaCheck, sub: Any, value: list[Any], schema: Mapping[str, Any]
) -> str | None:
    count = sum(1 for item in value if check.valid(sub, item))
    least = schema.get("minContains", 1)
    most = schema.get("maxContains")
    if count < least or (most is not None and count > most):
        return "must contain a matching item"
    return None


def _pattern(
    check: SchemaCheck, pattern: Any, value: str, _: Mapping[str, Any]
) -> str | None:
    return None if re.search(pattern, value) else f"must match the pattern {pattern}"


def _bound(compare: Callable[[Any, Any], bool], words: str) -> _Keyword:
    def keyword(
        check: SchemaCheck, limit: Any, value: Any, _: Mapping[str, Any]
    ) -> str | None:
        return None if compare(value, limit) else f"must be {words} {limit}"

    return keyword


def _size(value: Any) -> int:
    # Code points for strings, as JSON Schema counts them; items or properties otherwise.
    sized: str | list[Any] | dict[str, Any] = value
    return len(sized)


def _at_least(value: Any, limit: Any) -> bool:
    return _size(value) >= limit


def _at_most(value: Any, limit: Any) -> bool:
    return _size(value) <= limit


def _multiple_of(
    check: SchemaCheck, factor: Any, value: float, _: Mapping[str, Any]
) -> str | None:
    quotient = value / factor
    ok = math.isfinite(quotient) and quotient == int(quotient)
    return None if ok else f"must be a multiple of {factor}"


def _any_of(
    check: SchemaCheck, branches: Any, value: Any, _: Mapping[str, Any]
) -> str | None:
    if any(check.valid(branch, value) for branch in branches):
        return None
    return "must match one of the allowed shapes"


def _one_of(
    check: SchemaCheck, branches: Any, value: Any, _: Mapping[str, Any]
) -> str | None:
    matches = sum(1 for branch in branches if check.valid(branch, value))
    return None if matches == 1 else "must match exactly one of the allowed shapes"


def _all_of(
    check: SchemaCheck, members: Any, value: Any, _: Mapping[str, Any]
) -> str | None:
    for member in members:
        problem = check.problem(member, value)
        if problem is not None:
            return problem
    return None


def _not(check: SchemaCheck, sub: Any, value: Any, _: Mapping[str, Any]) -> str | None:
    return "is not allowed" if check.valid(sub, value) else None


def _if(
    check: SchemaCheck, condition: Any, value: Any, schema: Mapping[str, Any]
) -> str | None:
    branch = (
        schema.get("then", True)
        if check.valid(condition, value)
        else schema.get("else", True)
    )
    return check.problem(branch, value)


def _ref(check: SchemaCheck, name: Any, value: Any, _: Mapping[str, Any]) -> str | None:
    return check.reference(name, value)


def _dependent_required(
    check: SchemaCheck, dependencies: Any, value: dict[str, Any], _: Mapping[str, Any]
) -> str | None:
    for name, needed in dependencies.items():
        if name in value:
            for other in needed:
                if other not in value:
                    return f"/{other} is required when {name} is present"
    return None


_KEYWORDS: dict[str, _Keyword] = {
    "type": _type,
    "const": _const,
    "enum": _enum,
    "$ref": _ref,
    "properties": _object_keyword(_properties),
    "additionalProperties": _object_keyword(_additional),
    "patternProperties": _object_keyword(_pattern_properties),
    "required": _object_keyword(_required),
    "propertyNames": _object_keyword(_property_names),
    "dependentRequired": _object_keyword(_dependent_required),
    "minProperties": _object_keyword(
        _bound(_at_least, "at least this many properties:")
    ),
    "maxProperties": _object_keyword(_bound(_at_most, "at most this many properties:")),
    "items": _array_keyword(_items),
    "prefixItems": _array_keyword(_prefix_items),
    "uniqueItems": _array_keyword(_unique),
    "contains": _array_keyword(_contains),
    "minItems": _array_keyword(_bound(_at_least, "at least this many items:")),
    "maxItems": _array_keyword(_bound(_at_most, "at most this many items:")),
    "pattern": _string_keyword(_pattern),
    "minLength": _string_keyword(_bound(_at_least, "at least this long:")),
    "maxLength": _string_keyword(_bound(_at_most, "at most this long:")),
    "minimum": _number_keyword(_bound(lambda v, n: v >= n, ">=")),
    "maximum": _number_keyword(_bound(lambda v, n: v <= n, "<=")),
    "exclusiveMinimum": _number_keyword(_bound(lambda v, n: v > n, ">")),
    "exclusiveMaximum": _number_keyword(_bound(lambda v, n: v < n, "<")),
    "multipleOf": _number_keyword(_multiple_of),
    "anyOf": _any_of,
    "oneOf": _one_of,
    "allOf": _all_of,
    "not": _not,
    "if": _if,
}
