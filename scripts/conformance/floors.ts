/**
 * What `npm run conformance` must count at least, per requirement set and
 * leg, as docs/server.md and docs/client.md record it.
 */

/**
 * The least each run must count, as docs/server.md and docs/client.md record it: a
 * scenario or check that quietly disappears from a run (a suite update, a scenario no longer
 * selected) fails CI like a failed check does.
 */
export const FLOORS: Record<string, { checks: number; scenarios: number }> = {
  "2026-07-28 server": { checks: 164, scenarios: 37 },
  "2025-11-25 server": { checks: 70, scenarios: 30 },
  // The scored sets plus the six authorization extensions the everything client implements.
  "2026-07-28 client": { checks: 482, scenarios: 38 },
  "2025-11-25 client": { checks: 297, scenarios: 24 },
};

/** How far a run's counts fall short of its floor: one line per shortfall. */
export function shortfalls(what: string, report: string): string[] {
  const floor = FLOORS[what];
  if (!floor) return [];
  const checks = Number(/conformance: (\d+) passed, \d+ failed\s*$/.exec(report)?.[1] ?? 0);
  const scenarios = Number(/^scenarios: (\d+)\/\d+ scored passed/m.exec(report)?.[1] ?? 0);
  return [
    ...(checks < floor.checks
      ? [`${what}: ${checks} checks passed, at least ${floor.checks} expected`]
      : []),
    ...(scenarios < floor.scenarios
      ? [`${what}: ${scenarios} scored scenarios passed, at least ${floor.scenarios} expected`]
      : []),
  ];
}
