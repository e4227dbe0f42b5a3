/**
 * The tools of the tools benchmarks (bench:tools, and `npm run bench --
 * tools`): schemas of the shapes real servers list, arguments with a string
 * format, an enum, a nested object and an array, every third tool with an
 * outputSchema.
 */

/** Tool number `index`. */
export function benchTool(index: number): Record<string, unknown> {
  return {
    name: `tool_${index}`,
    description: `Tool number ${index}`,
    inputSchema: {
      type: "object",
      properties: {
        when: { type: "string", format: "date-time" },
        mode: { type: "string", enum: ["fast", "slow"] },
        where: {
          type: "object",
          properties: { x: { type: "number" }, y: { type: "number" } },
          required: ["x", "y"],
        },
        tags: { type: "array", items: { type: "string" } },
      },
      required: ["mode"],
    },
    ...(index % 3 === 0
      ? {
          outputSchema: {
            type: "object",
            properties: { total: { type: "integer" } },
            required: ["total"],
          },
        }
      : {}),
  };
}

/** A tools.json of `size` bench tools. */
export function benchTools(size: number): string {
  return JSON.stringify(Array.from({ length: size }, (_, i) => benchTool(i)));
}
