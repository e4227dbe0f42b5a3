/**
 * The resources of the "everything" example: a text and a binary resource,
 * one that can be watched, and a template whose reads echo their id.
 */
import type { McpServer } from "./mcp-gen/runtime/index.js";
import { PNG } from "./tools.js";

/** Adds the example's resources and templates to `server`. */
export function addResources(server: McpServer): void {
  server.resource(
    {
      uri: "test://static-text",
      name: "static-text",
      title: "Static Text Resource",
      description: "A static text resource for testing",
      mimeType: "text/plain",
    },
    (uri) => ({
      contents: [
        { uri, mimeType: "text/plain", text: "This is the content of the static text resource." },
      ],
    }),
  );
  server.resource(
    {
      uri: "test://static-binary",
      name: "static-binary",
      title: "Static Binary Resource",
      description: "A static binary resource (image) for testing",
      mimeType: "image/png",
    },
    (uri) => ({ contents: [{ uri, mimeType: "image/png", blob: PNG }] }),
  );
  server.resource(
    {
      uri: "test://watched-resource",
      name: "watched-resource",
      title: "Watched Resource",
      description: "A resource clients can subscribe to",
      mimeType: "text/plain",
    },
    (uri) => ({ contents: [{ uri, mimeType: "text/plain", text: "Watched resource content." }] }),
  );
  server.resourceTemplate(
    {
      uriTemplate: "test://template/{id}/data",
      name: "template",
      title: "Resource Template",
      description: "A resource template with parameter substitution",
      mimeType: "application/json",
    },
    (uri, { id }) => ({
      contents: [
        {
          uri,
          mimeType: "application/json",
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
        },
      ],
    }),
  );
}
