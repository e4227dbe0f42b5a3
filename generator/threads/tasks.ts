/**
 * The parts of generation that may run on the helper thread: two that
 * cost much CPU and whose inputs and outputs are plain data (so they
 * cross threads by structured clone). Each loads its heavy dependency on
 * first use, so whichever thread runs a task is the one that pays for it.
 */
import type { CompiledValidators, ValidatorSources } from "../emit/compile-validators.js";
import type { InputFile, SchemaTsFacts } from "../load/types.js";

const schemaTsReader = () => import("../load/read-schema-ts.js");
const validatorCompiler = () => import("../emit/compile-validators.js");

export const TASKS = {
  /** schema.ts through ts-morph (which bundles all of TypeScript). */
  readSchemaTs: async (file: InputFile): Promise<SchemaTsFacts> =>
    (await schemaTsReader()).readSchemaTs(file),
  /** ajv standalone code for every validator. */
  compileValidators: async (sources: ValidatorSources): Promise<CompiledValidators> =>
    (await validatorCompiler()).compileValidators(sources),
};

export type TaskName = keyof typeof TASKS;
export type TaskInput<N extends TaskName> = Parameters<(typeof TASKS)[N]>[0];
export type TaskOutput<N extends TaskName> = Awaited<ReturnType<(typeof TASKS)[N]>>;

/**
 * Loads what the first task needs (ts-morph: schema.ts is read before the
 * model exists). ajv is not preloaded: validators are compiled on the main
 * thread while schema.ts is read (see generate()), and this thread
 * compiles only when that result cannot be used.
 */
export const PRELOADS: ReadonlyArray<() => Promise<void>> = [
  async () => (await schemaTsReader()).loadTsMorph(),
];
