"""A small server made with the official Python SDK, over stdio: the peer of a client that
mcp-gen scaffolds --from-server (test/interop/python-sdk.e2e.test.ts)."""

from pydantic import BaseModel

from mcp.server.mcpserver import MCPServer

server = MCPServer("peer-python")


class Sum(BaseModel):
    total: int


@server.tool(description="Echoes the text back.")
def echo(text: str) -> str:
    return text


@server.tool(description="Adds two whole numbers; the sum is structured.")
def add(a: int, b: int) -> Sum:
    return Sum(total=a + b)


@server.tool(description="Tags each item with a colour.")
def tag(items: list[str], colour: str = "blue") -> str:
    return ", ".join(f"{item}:{colour}" for item in items)


@server.resource("test://readme", description="A short text.")
def readme() -> str:
    return "read me"


@server.prompt(description="Greets someone.")
def greet(who: str) -> str:
    return f"Hello {who}"


if __name__ == "__main__":
    server.run("stdio")
