/**
 * What a tools module (tools.gen.ts) declares from tools.json before its
 * fixed code, for the static files beside this one to be type-checked
 * against: two tools, one with an outputSchema. Never copied.
 */
export interface ToolArguments {
  readonly echo: { readonly text: string };
  readonly add: { readonly a: number; readonly b: number };
}

export interface ToolOutputs {
  readonly add: { readonly sum: number };
}
