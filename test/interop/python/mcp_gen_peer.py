"""A Python peer built on mcp-gen's generated models, against an mcp-gen server over HTTP.

Usage: python mcp_gen_peer.py <legacy|stateless> <url> <package folder> <import name>

It builds every request with the package's models, sends it with urllib
(Streamable HTTP: a JSON or an event-stream answer), and parses every answer
with ``parse_response``. ``legacy`` speaks 2025-11-25 (initialize, a session,
tools); ``stateless`` speaks 2026-07-28 with Tasks (server/discover, tools,
Multi Round-Trip Requests answered until complete, a task polled until done).
It prints what it saw as JSON and exits non-zero on anything unexpected.
"""

from __future__ import annotations

import importlib
import json
import sys
import time
import urllib.request
from typing import Any

ERA, URL, FOLDER, MODULE = sys.argv[1:5]
sys.path.insert(0, FOLDER)
mcp: Any = importlib.import_module(MODULE)
PROTOCOL = mcp.PROTOCOL_VERSION
TASKS = "io.modelcontextprotocol/tasks"
session: dict[str, str] = {}
next_id = 0


def post(message: Any, method: str) -> Any:
    """Sends a model; returns the answer to it parsed by parse_response (None for a notification)."""
    body = message.to_wire()
    headers = {
        "content-type": "application/json",
        "accept": "application/json, text/event-stream",
        "mcp-protocol-version": PROTOCOL,
        "mcp-method": method,
        **session,
    }
    name = body.get("params", {}).get("name") or body.get("params", {}).get("taskId")
    if ERA == "stateless" and isinstance(name, str):
        headers["mcp-name"] = name
    request = urllib.request.Request(
        URL, json.dumps(body).encode(), headers, method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        if "mcp-session-id" in response.headers:
            session["mcp-session-id"] = response.headers["mcp-session-id"]
        text = response.read().decode()
        if "id" not in body:
            return None
        if response.headers.get("content-type", "").startswith("text/event-stream"):
            text = answer_in_stream(text, body["id"])
    parsed = mcp.parse_response(text, method)
    if not parsed.ok:
        raise SystemExit(f"{method}: {parsed.error}")
    return parsed.message


def answer_in_stream(stream: str, id: Any) -> str:
    for event in stream.split("\n\n"):
        data = "\n".join(
            line[5:].lstrip() for line in event.split("\n") if line.startswith("data:")
        )
        if data and json.loads(data).get("id") == id:
            return data
    raise SystemExit(f"no answer to {id} in the stream")


def request_id() -> int:
    global next_id
    next_id += 1
    return next_id


def meta(extensions: bool = False) -> Any:
    capabilities: dict[str, Any] = {"elicitation": {"form": {}}}
    if extensions:
        capabilities["extensions"] = {TASKS: {}}
    return {
        "io.modelcontextprotocol/protocolVersion": PROTOCOL,
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": {
            "name": "mcp-gen-python-peer",
            "version": "1.0.0",
        },
    }


def call_tool(name: str, arguments: dict[str, Any], **extra: Any) -> Any:
    params: dict[str, Any] = {"name": name, "arguments": arguments, **extra}
    if ERA == "stateless":
        params["_meta"] = meta(extensions=True)
    params_model = mcp.CallToolRequestParams.model_validate(params)
    request = mcp.CallToolRequest(
        jsonrpc="2.0", id=request_id(), method="tools/call", params=params_model
    )
    return post(request, "tools/call").result


def text_of(result: Any) -> str:
    return " ".join(block.text for block in result.content if block.type == "text")


def legacy() -> dict[str, Any]:
    params = mcp.InitializeRequestParams(
        protocolVersion=PROTOCOL,
        capabilities=mcp.ClientCapabilities(),
        clientInfo=mcp.Implementation(name="mcp-gen-python-peer", version="1.0.0"),
    )
    init = post(
        mcp.InitializeRequest(
            jsonrpc="2.0", id=request_id(), method="initialize", params=params
        ),
        "initialize",
    )
    post(
        mcp.InitializedNotification(jsonrpc="2.0", method="notifications/initialized"),
        "notifications/initialized",
    )
    tools = post(
        mcp.ListToolsRequest(jsonrpc="2.0", id=request_id(), method="tools/list"),
        "tools/list",
    ).result
    simple = call_tool("test_simple_text", {})
    return {
        "protocolVersion": init.result.protocolVersion,
        "session": "mcp-session-id" in session,
        "tools": sorted(tool.name for tool in tools.tools),
        "simple": text_of(simple),
    }


def stateless() -> dict[str, Any]:
    discover = mcp.DiscoverRequest(
        jsonrpc="2.0",
        id=request_id(),
        method="server/discover",
        params=mcp.RequestParams.model_validate({"_meta": meta()}),
    )
    found = post(discover, "server/discover").result
    listed = mcp.ListToolsRequest(
        jsonrpc="2.0",
        id=request_id(),
        method="tools/list",
        params=mcp.PaginatedRequestParams.model_validate({"_meta": meta()}),
    )
    tools = post(listed, "tools/list").result
    simple = call_tool("test_simple_text", {})
    rounds = 0
    result = call_tool("test_input_required_result_multi_round", {})
    while result.resultType == "input_required":
        rounds += 1
        answers = {
            key: {"action": "accept", "content": {"name": "Ada", "color": "green"}}
            for key in (result.inputRequests or {})
        }
        extra: dict[str, Any] = {"inputResponses": answers}
        if result.requestState is not None:
            extra["requestState"] = result.requestState
        result = call_tool("test_input_required_result_multi_round", {}, **extra)
    task = call_tool("slow_compute", {"seconds": 0.2, "label": "peer"})
    polls = 0
    status = task.status
    while status not in ("completed", "failed", "cancelled") and polls < 100:
        time.sleep(0.1)
        polls += 1
        get = mcp.GetTaskRequest.model_validate(
            {
                "jsonrpc": "2.0",
                "id": request_id(),
                "method": "tasks/get",
                "params": {"taskId": task.taskId, "_meta": meta(extensions=True)},
            }
        )
        status = post(get, "tasks/get").result.status
    return {
        "protocolVersion": PROTOCOL,
        "supportedVersions": list(found.supportedVersions),
        "tools": sorted(tool.name for tool in tools.tools),
        "simple": text_of(simple),
        "rounds": rounds,
        "mrtr": text_of(result),
        "task": {"resultType": task.resultType, "status": status, "polls": polls},
    }


print(json.dumps(legacy() if ERA == "legacy" else stateless()))
