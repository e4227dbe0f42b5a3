/**
 * Several instances of one server: shared stores that let any instance
 * serve any task and hear of every change, whichever instance made it.
 * Built on the server layer's TaskStore and ChangeBus interfaces; nothing
 * here is needed by a server that runs as one instance.
 */
export {
  DEFAULT_REDIS_PREFIX,
  DEFAULT_REDIS_TIMEOUT_MS,
  MAX_CHANGE_BYTES,
  MAX_SESSION_EVENT_BYTES,
  MAX_SESSION_RECORD_BYTES,
  MAX_TASK_RECORD_BYTES,
  RedisChangeBus,
  RedisSessionStore,
  RedisTimeoutError,
  RedisTaskStore,
  redisPrefixFromEnvironment,
  scaleOutFromEnvironment,
  type RedisOptions,
  type ScaleOutOptions,
} from "./redis.js";
export { RedisReplayCache, replayCacheFromEnvironment } from "./redis-replay-cache.js";
