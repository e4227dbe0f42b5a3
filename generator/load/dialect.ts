/** The JSON Schema dialects mcp-gen reads (its own module, so the registry and the source types share it without importing each other). */
export type Dialect = "draft-07" | "2020-12";
