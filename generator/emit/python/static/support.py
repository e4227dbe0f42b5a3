"""Revision-independent support code for mcp-gen's Python packages.

The model base and the field types the models are written with, the checks
for what pydantic cannot say itself, turning pydantic's errors into
``{path, message}`` problems, parsing and classifying JSON-RPC messages,
resultType rules and ``_meta`` key rules. mcp-gen copies this file verbatim
into every generated package, so a package depends on nothing but pydantic.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Generic, Literal, TypedDict, TypeVar, Union, cast

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    TypeAdapter,
    ValidationError,
)
from pydantic_core import PydanticCustomError, core_schema, from_json
from typing_extensions import Never, NotRequired

T = TypeVar("T")


class WireModel(BaseModel):
    """The base of every generated model: JSON Schema's rules, not pydantic's defaults.

    Nothing is coerced (``strict``: ``"1"`` is no integer), properties the
    schema does not name are kept (JSON Schema allows them unless
    ``additionalProperties`` says otherwise, which a model states with its
    own ``extra``), non-finite numbers are refused (they are not JSON), and
    patterns use Python's ``re``. Only the wire name of a property is read
    (``_meta``), and dumping by alias gives the wire form back.
    """

    model_config = ConfigDict(
        strict=True,
        extra="allow",
        allow_inf_nan=False,
        regex_engine="python-re",
        validate_by_alias=True,
        validate_by_name=False,
        serialize_by_alias=True,
        protected_namespaces=(),
    )

    def to_wire(self) -> dict[str, Any]:
        """The model as JSON-ready data under its wire names, with what was never set left out."""
        return self.model_dump(mode="json", by_alias=True, exclude_unset=True)


class _NotNull:
    """Makes ``T | None`` with a default of ``None`` mean "may be absent", not "may be null".

    The field's type stays ``T | None`` for type checkers (absent reads as
    ``None``), while validation gets ``T``'s schema: an explicit ``null`` is
    refused unless the schema itself allows it.
    """

    def __get_pydantic_core_schema__(
        self, source: Any, handler: Callable[[Any], core_schema.CoreSchema]
    ) -> core_schema.CoreSchema:
        schema = handler(source)
        return schema["schema"] if schema["type"] == "nullable" else schema


Omittable = Annotated[Union[T, None], _NotNull()]
"""A property that may be left out but, when present, is never ``null``."""


class _AnyOf:
    """A union that fails as JSON Schema's anyOf does: one problem at the union's own path."""

    def __get_pydantic_core_schema__(
        self, source: Any, handler: Callable[[Any], core_schema.CoreSchema]
    ) -> core_schema.CoreSchema:
        schema = handler(source)
        if schema["type"] == "union":
            schema["custom_error_type"] = "any_of"
            schema["custom_error_message"] = "must match one of the allowed shapes"
        return schema


ANY_OF = _AnyOf()
"""Marks an ``Annotated[Union[...], ANY_OF]``: see :class:`_AnyOf`."""


class _Refuse:
    """A type no value has: JSON Schema's ``false`` (``not: {}``)."""

    def __get_pydantic_core_schema__(
        self, source: Any, handler: Callable[[Any], core_schema.CoreSchema]
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_plain_validator_function(_refuse)


def _refuse(value: Any) -> Any:
    raise PydanticCustomError("not_allowed", "is not allowed")


Nothing = Annotated[Never, _Refuse()]
"""JSON Schema's ``false``: no value is valid here."""


def _integral(value: Any) -> Any:
    # JSON has one number type: 1.0 is the integer 1 to JSON Schema, as JSON.parse reads it.
    if type(value) is float and value.is_integer():
        return int(value)
    return value


JsonInt = Annotated[int, BeforeValidator(_integral)]
"""JSON Schema's ``integer``: an int (never a bool), or a float without a fractional part."""


# ---------------------------------------------------------------------------
# Problems: pydantic's errors as JSON pointers and messages


class ValidationProblem(TypedDict):
    """One validation problem: a JSON pointer into the value and what is wrong there."""

    path: str
    message: str


PROBLEM_LIMIT = 20
"""How many problems a -32602 lists at most."""

DISCRIMINATORS: set[str] = set()
"""Properties the generated unions are discriminated on (a generated models module adds its own)."""


def escape_segment(segment: str) -> str:
    """Escapes one JSON pointer segment (RFC 6901)."""
    return segment.replace("~", "~0").replace("/", "~1")


def _pointer(location: Sequence[int | str], value: Any) -> str:
    """The JSON pointer of an error's location, without the tags of the unions it went through.

    pydantic names the branch a discriminated union chose (its tag value) in
    the location; a tag is recognised as a segment that is no key of the
    object at hand, or that is the object's value of a discriminator.
    """
    path: list[str] = []
    current: Any = value
    last = len(location) - 1
    for index, segment in enumerate(location):
        if isinstance(current, dict):
            node = cast("dict[str, Any]", current)
            is_tag = index < last and any(
                node.get(key) == segment for key in DISCRIMINATORS
            )
            if is_tag or (segment not in node and index < last):
                continue
            path.append(escape_segment(str(segment)))
            current = node.get(str(segment))
        elif isinstance(current, list) and isinstance(segment, int):
            items = cast("list[Any]", current)
            path.append(str(segment))
            current = items[segment] if 0 <= segment < len(items) else None
        elif index == last:
            path.append(escape_segment(str(segment)))
    return "".join(f"/{segment}" for segment in path)


_MESSAGES: dict[str, str] = {
    "missing": "is required",
    "extra_forbidden": "is not allowed",
    "string_type": "must be string",
    "int_type": "must be integer",
    "int_from_float": "must be integer",
    "float_type": "must be number",
    "finite_number": "must be a finite number",
    "bool_type": "must be boolean",
    "none_required": "must be null",
    "model_type": "must be object",
    "model_attributes_type": "must be object",
    "dict_type": "must be object",
    "list_type": "must be array",
}


def _message(error: Any) -> str:
    kind: str = error["type"]
    context: dict[str, Any] = error.get("ctx") or {}
    if kind in _MESSAGES:
        return _MESSAGES[kind]
    if kind == "literal_error":
        return f"must be {context.get('expected', 'the allowed value')}"
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        words = {
            "greater_than_equal": ">=",
            "less_than_equal": "<=",
            "greater_than": ">",
            "less_than": "<",
        }[kind]
        limit = next(iter(context.values()), "")
        return f"must be {words} {limit}"
    if kind == "too_long":
        return f"must have at most {context.get('max_length')} items"
    if kind == "too_short":
        return f"must have at least {context.get('min_length')} items"
    if kind == "union_tag_invalid":
        return f"must name a known variant, not {context.get('tag')!r}"
    if kind == "union_tag_not_found":
        return "is required and must be a string"
    return str(error["msg"])


def problems_of(
    error: ValidationError, value: Any, prefix: str = ""
) -> list[ValidationProblem]:
    """Every problem pydantic found, as JSON pointers into ``value`` and messages."""
    problems: list[ValidationProblem] = []
    for item in error.errors(include_url=False, include_input=False):
        path = prefix + _pointer(item["loc"], value)
        if item["type"] == "union_tag_not_found":
            tag = str(item.get("ctx", {}).get("discriminator", "")).strip("'")
            path = f"{path}/{escape_segment(tag)}"
        problems.append({"path": path, "message": _message(item)})
    return problems


# ---------------------------------------------------------------------------
# JSON-RPC messages


class JsonRpcError(TypedDict):
    """A JSON-RPC error object, ready to send."""

    code: int
    message: str
    data: NotRequired[Any]


@dataclass(frozen=True)
class Parsed(Generic[T]):
    """A message that parsed and validated: ``message`` is its model."""

    message: T
    ok: Literal[True] = True


@dataclass(frozen=True)
class ParseFailure:
    """A message that did not: ``error`` is ready to send, with ``id`` when one could be read."""

    error: JsonRpcError
    id: str | int | float | None
    ok: Literal[False] = False


ParseResult = Union[Parsed[T], ParseFailure]
"""What parse_message and parse_response return."""


@dataclass(frozen=True)
class ResultMessage(Generic[T]):
    """A successful response to a request: its id and its result, validated."""

    id: str | int | float
    result: T
    jsonrpc: Literal["2.0"] = "2.0"


Validate = Callable[[Any], Any]


@dataclass(frozen=True)
class MessageTables:
    """The generated tables parsing needs."""

    revision: str
    requests: Mapping[str, Validate]
    notifications: Mapping[str, Validate]
    results: Mapping[str, Mapping[str, Validate]]
    """Per request method, the validator of each result, by resultType."""
    error_response: Validate
    availability: Mapping[str, Sequence[str]]
    """Known revisions defining each method, for "removed in this revision" errors."""
    markers: Mapping[str, Sequence[tuple[str, Sequence[str]]]]
    """Per method, results told apart by shape: their key in ``results`` and the properties that select them."""


PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602


def _failure(code: int, message: str, id: Any, data: Any = None) -> ParseFailure:
    error: JsonRpcError = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return ParseFailure(error=error, id=id)


def _to_value(input: Any) -> tuple[Any, ParseFailure | None]:
    if not isinstance(input, (str, bytes, bytearray)):
        return input, None
    try:
        return from_json(input, allow_inf_nan=False), None
    except ValueError as error:
        return None, _failure(PARSE_ERROR, "Parse error", None, {"reason": str(error)})


def _read_id(value: dict[str, Any]) -> str | int | float | None:
    id = value.get("id")
    if isinstance(id, bool):
        return None
    return id if isinstance(id, (str, int, float)) else None


def parse_message_with(tables: MessageTables, input: Any) -> ParseResult[Any]:
    """Parses (if given text) and validates one incoming JSON-RPC message.

    The definition is chosen from ``method``: -32700 unparsable text;
    -32600 not a JSON-RPC 2.0 request, notification or response; -32601
    unknown method (with the revisions that define it, if any); -32602 the
    message does not match its method's definition, with every problem
    (up to PROBLEM_LIMIT). A response is checked as an envelope only.
    """
    value, failed = _to_value(input)
    if failed is not None:
        return failed
    if not isinstance(value, dict):
        reason = (
            "batches are not supported"
            if isinstance(value, list)
            else "a message must be a JSON object"
        )
        return _failure(INVALID_REQUEST, "Invalid Request", None, {"reason": reason})
    message = cast("dict[str, Any]", value)
    id = _read_id(message)
    if message.get("jsonrpc") != "2.0":
        return _failure(
            INVALID_REQUEST, "Invalid Request", id, {"reason": 'jsonrpc must be "2.0"'}
        )
    if "method" not in message:
        return _parse_response_envelope(tables, message, id)
    method = message["method"]
    if not isinstance(method, str):
        return _failure(
            INVALID_REQUEST,
            "Invalid Request",
            id,
            {"reason": "method must be a string"},
        )
    is_request = "id" in message
    if is_request and id is None:
        return _failure(
            INVALID_REQUEST,
            "Invalid Request",
            None,
            {"reason": "id must be a string or a number"},
        )
    validate = (tables.requests if is_request else tables.notifications).get(method)
    if validate is None:
        return _method_not_found(tables, method, id)
    try:
        return Parsed(validate(message))
    except ValidationError as error:
        return _invalid_params(problems_of(error, message), id)


def _method_not_found(tables: MessageTables, method: str, id: Any) -> ParseFailure:
    available_in = [
        r for r in tables.availability.get(method, ()) if r != tables.revision
    ]
    data: dict[str, Any] = {"method": method}
    if available_in:
        data["availableIn"] = available_in
    return _failure(METHOD_NOT_FOUND, "Method not found", id, data)


def _invalid_params(problems: list[ValidationProblem], id: Any) -> ParseFailure:
    """-32602 listing every problem (up to PROBLEM_LIMIT) and saying how many in the message."""
    listed = problems[:PROBLEM_LIMIT]
    truncated = len(problems) > PROBLEM_LIMIT
    first = listed[0] if listed else None
    data: dict[str, Any] = {"path": first["path"] if first else "", "errors": listed}
    if truncated:
        data["truncated"] = True
    if first is None:
        return _failure(INVALID_PARAMS, "Invalid params", id, data)
    at = f"{first['path'] or '/'} {first['message']}"
    if truncated:
        message = (
            f"Invalid params: more than {len(listed)} problems, the first {len(listed)}"
            f" in data.errors; the first: {at}"
        )
    elif len(listed) > 1:
        message = f"Invalid params: {len(listed)} problems, all in data.errors; the first: {at}"
    else:
        message = f"Invalid params: {at}"
    return _failure(INVALID_PARAMS, message, id, data)


def _parse_response_envelope(
    tables: MessageTables, value: dict[str, Any], id: Any
) -> ParseResult[Any]:
    if "error" in value:
        return _error_response(tables, value, id)
    if not isinstance(value.get("result"), dict):
        return _failure(
            INVALID_REQUEST,
            "Invalid Request",
            id,
            {"reason": "a message needs method, result or error"},
        )
    if id is None:
        return _failure(
            INVALID_REQUEST,
            "Invalid Request",
            None,
            {"reason": "id must be a string or a number"},
        )
    return Parsed(ResultMessage(id=id, result=value["result"]))


def _error_response(
    tables: MessageTables, value: dict[str, Any], id: Any
) -> ParseResult[Any]:
    try:
        return Parsed(tables.error_response(value))
    except ValidationError as error:
        problems = problems_of(error, value)
        path = problems[0]["path"] if problems else ""
        return _failure(
            INVALID_REQUEST, "Invalid response", id, {"path": path, "errors": problems}
        )


def _marked_result(
    tables: MessageTables, method: str, result: dict[str, Any]
) -> str | None:
    for key, properties in tables.markers.get(method, ()):
        if any(p in result for p in properties):
            return key
    return None


def parse_response_with(
    tables: MessageTables, input: Any, method: str
) -> ParseResult[Any]:
    """Parses and validates a response to a request of ``method``.

    The result is checked against the one definition its resultType
    selects; a result without resultType (from a server of an earlier
    revision) is read as "complete" and gets ``resultType: "complete"``. An
    unrecognized resultType, or one ``method`` may not return, is -32602.
    """
    value, failed = _to_value(input)
    if failed is not None:
        return failed
    if not isinstance(value, dict):
        return _failure(
            INVALID_REQUEST,
            "Invalid response",
            None,
            {"reason": "a response must be a JSON object"},
        )
    message = cast("dict[str, Any]", value)
    id = _read_id(message)
    if message.get("jsonrpc") != "2.0":
        return _failure(
            INVALID_REQUEST, "Invalid response", id, {"reason": 'jsonrpc must be "2.0"'}
        )
    if "error" in message:
        return _error_response(tables, message, id)
    if id is None:
        return _failure(
            INVALID_REQUEST,
            "Invalid response",
            None,
            {"reason": "id must be a string or a number"},
        )
    result = message.get("result")
    if not isinstance(result, dict):
        return _failure(
            INVALID_REQUEST,
            "Invalid response",
            id,
            {"reason": "a response needs a result object or an error"},
        )
    by_result_type = tables.results.get(method)
    if by_result_type is None:
        return _method_not_found(tables, method, id)
    fields = cast("dict[str, Any]", result)
    marked = (
        _marked_result(tables, method, fields) if "resultType" not in fields else None
    )
    result_type = marked if marked is not None else fields.get("resultType", "complete")
    validate = by_result_type.get(result_type) if isinstance(result_type, str) else None
    if validate is None:
        return _failure(
            INVALID_PARAMS,
            f"Invalid result: resultType {result_type!r} is not one {method} may return",
            id,
            {"path": "/result/resultType", "allowed": list(by_result_type)},
        )
    # A result told apart by shape has no resultType on the wire, and gets none.
    normalized = (
        fields
        if "resultType" in fields or marked is not None
        else {**fields, "resultType": result_type}
    )
    try:
        return Parsed(ResultMessage(id=id, result=validate(normalized)))
    except ValidationError as error:
        problems = problems_of(error, normalized, "/result")
        first = (
            problems[0] if problems else {"path": "/result", "message": "is invalid"}
        )
        return _failure(
            INVALID_PARAMS,
            f"Invalid result: {first['path']} {first['message']}",
            id,
            {"path": first["path"], "errors": problems[:PROBLEM_LIMIT]},
        )


def result_type_with(known: Sequence[str], result: Any) -> str | None:
    """The resultType of a result per the spec: missing is "complete"; one not in ``known`` is None."""
    if not isinstance(result, dict):
        return None
    fields = cast("dict[str, Any]", result)
    value = fields.get("resultType", "complete")
    return value if isinstance(value, str) and value in known else None


# ---------------------------------------------------------------------------
# _meta keys

_LABEL = r"[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
_META_KEY = re.compile(
    rf"^(?:({_LABEL}(?:\.{_LABEL})*)/)?(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?\Z"
)


def is_valid_meta_key(key: str) -> bool:
    """Whether ``key`` follows the ``_meta`` key rules.

    An optional prefix of dot-separated labels (each starting with a letter
    and ending with a letter or digit, hyphens inside) followed by ``/``,
    then a name that, unless empty, starts and ends with an alphanumeric and
    has only alphanumerics, ``-``, ``_`` and ``.`` inside.
    """
    return _META_KEY.match(key) is not None


def is_reserved_meta_key(key: str) -> bool:
    """Whether ``key`` is reserved for MCP: its prefix's second label is ``modelcontextprotocol`` or ``mcp``."""
    match = _META_KEY.match(key)
    prefix = match.group(1) if match else None
    if not prefix:
        return False
    labels = prefix.split(".")
    return len(labels) > 1 and labels[1] in ("modelcontextprotocol", "mcp")


# ---------------------------------------------------------------------------
# Definitions by name


def to_wire(value: Any) -> Any:
    """A model as JSON-ready data under its wire names; any other value as it is."""
    if isinstance(value, WireModel):
        return value.to_wire()
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return value


_ADAPTERS: dict[str, TypeAdapter[Any]] = {}


def validate_with(
    definitions: Mapping[str, Any], name: str, value: Any
) -> list[ValidationProblem]:
    """Validates ``value`` against the definition ``name`` of ``definitions``."""
    type_ = definitions[name]
    key = f"{id(definitions)}:{name}"
    adapter = _ADAPTERS.get(key)
    if adapter is None:
        adapter = TypeAdapter(type_)
        _ADAPTERS[key] = adapter
    try:
        adapter.validate_python(value)
    except ValidationError as error:
        return problems_of(error, value)
    return []
