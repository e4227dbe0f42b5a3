/**
 * src/generated/client.gen.ts of a client project: the typed client. Its
 * code is the static module generator/emit/static/client/client-module.ts
 * (type-checked with mcp-gen's own); this writes the imports it needs from
 * the project's runtime, protocol module and tools module.
 */
import { staticFragment } from "../emit/emit-support.js";
import { TsFileBuilder, type EmittedFile } from "../emit/file.js";

/** The path of the typed client in a client project. */
export const CLIENT_MODULE = "src/generated/client.gen.ts";

const RUNTIME = "../mcp-gen/runtime/client.js";

/**
 * A client project's typed client, under `bannerText`; `settings` are what
 * it declares for each extension (mcp-gen.json's extensionSettings, else
 * the manifest's), by identifier.
 */
export function clientModule(
  bannerText: string,
  settings: Readonly<Record<string, Readonly<Record<string, unknown>>>>,
): EmittedFile {
  return new TsFileBuilder(CLIENT_MODULE)
    .importValues(RUNTIME, "bindMethods", "bindTools", "declaringExtensions", "McpClient")
    .importValues(RUNTIME, "completeResultCheck", "routeNotifications")
    .importTypes(RUNTIME, "ClientOptions", "Completed", "InputTypes", "ServerDescription")
    .importTypes(RUNTIME, "TypedMethods", "Unfollowed")
    .importNamespace(RUNTIME, "runtime", true)
    .importValues("./protocol.gen.js", "legacy", "protocol")
    .importValues("./tools.gen.js", "TOOL_CHECKS")
    .importTypes("./tools.gen.js", "ToolWrappers")
    .add(
      `/** What the client declares under capabilities.extensions for each extension it declares (mcp-gen.json's extensionSettings, else the extension's defaults). */\nconst EXTENSION_SETTINGS: { readonly [id: string]: Readonly<Record<string, unknown>> } = ${JSON.stringify(settings, null, 2)};`,
    )
    .add(staticFragment("client/client-module.ts"))
    .build(bannerText);
}
