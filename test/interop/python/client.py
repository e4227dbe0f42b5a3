"""A client made with the official Python SDK: the peer of a server that mcp-gen scaffolds
(test/interop/python-sdk.e2e.test.ts). It holds one conversation and prints what it saw as
one JSON object on stdout, for the test to check.

usage: client.py <mode> http <url>
       client.py <mode> stdio <command> [args...]
mode: "legacy" (the 2025 initialize handshake) or "auto" (server/discover first, then the era found)."""

import json
import sys

import anyio
import mcp_types as types

from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError


async def answer_elicitation(context, params):
    """Accepts every question with a name and a colour, as the everything server asks."""
    fields = list((params.requested_schema or {}).get("properties", {}))
    content = {f: ("blue" if f == "color" else True if f == "ok" else "Alice") for f in fields}
    return types.ElicitResult(action="accept", content=content)


def dump(model):
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


async def converse(server, mode):
    seen = {}
    async with Client(server, mode=mode, elicitation_callback=answer_elicitation) as client:
        seen["protocolVersion"] = client.protocol_version
        seen["serverName"] = client.server_info.name if client.server_info else None
        tools = await client.list_tools()
        seen["tools"] = [tool.name for tool in tools.tools]
        seen["simple"] = dump(await client.call_tool("test_simple_text", {}))
        seen["resource"] = dump(await client.read_resource("test://static-text"))
        seen["prompt"] = dump(
            await client.get_prompt("test_prompt_with_arguments", {"arg1": "a", "arg2": "b"})
        )
        try:
            await client.call_tool("no_such_tool", {})
        except MCPError as error:
            seen["unknownTool"] = {"code": error.error.code, "message": error.error.message}
        # A request for input: the server's own elicitation/create in a 2025-era session, an
        # input_required result and a second round at 2026-07-28.
        seen["elicited"] = dump(await client.call_tool("test_elicitation", {"message": "Who?"}))
        if mode != "legacy":
            seen["rounds"] = dump(await client.call_tool("test_input_required_result_multi_round", {}))
    return seen


def main():
    mode, transport, *target = sys.argv[1:]
    if transport == "http":
        server = target[0]
    else:
        server = StdioServerParameters(command=target[0], args=target[1:])
    print(json.dumps(anyio.run(converse, server, mode)))


if __name__ == "__main__":
    main()
