/**
 * Preloaded with `node --import` into a CLI run that must work without a
 * network: every fetch goes to a closed port of 127.0.0.1
 * (UNREACHABLE_PORT) instead of its address, so it fails the way a fetch
 * fails on a machine that is offline (connection refused).
 */
const realFetch = globalThis.fetch;
const closed = `http://127.0.0.1:${process.env.UNREACHABLE_PORT}/`;
globalThis.fetch = (_input, init) => realFetch(closed, init);
