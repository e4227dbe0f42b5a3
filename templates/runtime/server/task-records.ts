/**
 * A task's record as its state changes (tasks.md): what tasks/get shows of
 * it, and the record after its work ends, asks for input, or is answered.
 * Each change is a pure function of the record, applied through the
 * store's `update`, so that instances sharing a store agree on it; each
 * returns undefined when the change no longer applies (the task ended).
 */
import { Codes } from "../core/errors.js";
import type { JsonRpcErrorObject } from "../core/jsonrpc.js";
import {
  TERMINAL_STATUSES,
  type TaskInputRequest,
  type TaskRecord,
  type TaskStatus,
} from "./task-store.js";

/** The fields of a Task (tasks.md), without what the status inlines. */
export function taskFields(record: TaskRecord): Record<string, unknown> {
  const task: Record<string, unknown> = {
    taskId: record.taskId,
    status: record.status,
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
  };
  if (record.statusMessage !== undefined) task.statusMessage = record.statusMessage;
  return task;
}

/** A task as tasks/get and notifications/tasks show it: the Task, with what its status inlines. */
export function detailedTask(record: TaskRecord): Record<string, unknown> {
  const task = taskFields(record);
  if (record.status === "input_required") task.inputRequests = record.inputRequests ?? {};
  if (record.status === "completed") task.result = record.result ?? {};
  if (record.status === "failed")
    task.error = record.error ?? { code: Codes.InternalError, message: "Internal error" };
  return task;
}

/** How a task's work ended. */
export type Outcome =
  | { readonly status: "completed"; readonly result: Readonly<Record<string, unknown>> }
  | { readonly status: "failed"; readonly error: JsonRpcErrorObject; readonly message?: string }
  | { readonly status: "cancelled"; readonly message?: string };

/** The record after the work ended, or undefined if the task had already ended. */
export function ended(record: TaskRecord, outcome: Outcome): TaskRecord | undefined {
  if (TERMINAL_STATUSES.has(record.status)) return undefined;
  const { inputRequests: _i, answers: _a, statusMessage: _s, ...rest } = record;
  const next: Record<string, unknown> = {
    ...rest,
    status: outcome.status,
    lastUpdatedAt: new Date().toISOString(),
  };
  if (outcome.status === "completed") next.result = outcome.result;
  if (outcome.status === "failed") next.error = outcome.error;
  if (outcome.status !== "completed" && outcome.message !== undefined)
    next.statusMessage = outcome.message;
  return next as unknown as TaskRecord;
}

/** The record asking for more input, or undefined if the task ended. */
export function asking(
  record: TaskRecord,
  requests: Readonly<Record<string, TaskInputRequest>>,
): TaskRecord | undefined {
  if (TERMINAL_STATUSES.has(record.status)) return undefined;
  const answered = record.answers ?? {};
  const fresh = Object.entries(requests).filter(([key]) => !Object.hasOwn(answered, key));
  if (fresh.length === 0) return undefined;
  return {
    ...record,
    status: "input_required",
    inputRequests: { ...(record.inputRequests ?? {}), ...Object.fromEntries(fresh) },
    lastUpdatedAt: new Date().toISOString(),
  };
}

/**
 * The record with answers to outstanding input requests: answered keys
 * leave `inputRequests` at once (so the next tasks/get shows only what is
 * still asked), and the task is working again when none is left. Keys no
 * request asked for are ignored (tasks.md, tasks/update).
 */
export function answered(
  record: TaskRecord,
  responses: Readonly<Record<string, unknown>>,
): TaskRecord | undefined {
  if (TERMINAL_STATUSES.has(record.status)) return undefined;
  const outstanding = { ...(record.inputRequests ?? {}) };
  const accepted = Object.entries(responses).filter(([key]) => Object.hasOwn(outstanding, key));
  if (accepted.length === 0) return undefined;
  for (const [key] of accepted) delete outstanding[key];
  const open = Object.keys(outstanding).length > 0;
  const { inputRequests: _i, ...rest } = record;
  return {
    ...rest,
    ...(open ? { inputRequests: outstanding } : {}),
    status: open ? "input_required" : "working",
    answers: { ...(record.answers ?? {}), ...Object.fromEntries(accepted) },
    lastUpdatedAt: new Date().toISOString(),
  };
}

/** A status is one of the terminal ones. */
export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL_STATUSES.has(status);
}
