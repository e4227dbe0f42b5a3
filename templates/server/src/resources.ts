/**
 * Resources: fixed ones with `server.resource`, families with
 * `server.resourceTemplate` (`file:///logs/{day}`).
 */
import { NotImplemented, type McpServer } from "./mcp-gen/runtime/index.js";

/** Adds this project's resources to `server`. */
export function addResources(server: McpServer): void {
  server.resource(
    {
      uri: "example://readme",
      name: "readme",
      title: "Read me",
      description: "What this server offers",
      mimeType: "text/markdown",
    },
    () => {
      throw new NotImplemented("resource example://readme");
    },
  );
}
