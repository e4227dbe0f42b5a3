/**
 * "did you mean" for a mistyped option, as yargs gives for a mistyped
 * command: yargs reports `Unknown argument: tool` (or `Unknown arguments:
 * tool, exmaple`), and this names, for each, the one option of the command
 * within two typos of it, if there is exactly one.
 */
import { editDistance } from "../load/resolve-spec.js";

const UNKNOWN = /^Unknown arguments?: (.+)$/;
const MAX_TYPO_DISTANCE = 2;

/**
 * yargs' message with a suggestion for each unknown option that is a typo
 * of a known one (`known`: the command's option names; `argv`: the
 * arguments, which tell an option from an extra positional word, reported
 * alike by yargs); other messages are returned as they are.
 */
export function withFlagSuggestions(
  message: string,
  known: readonly string[],
  argv: readonly string[],
): string {
  const match = UNKNOWN.exec(message);
  if (!match) return message;
  const names = match[1]!.split(", ");
  const given = (name: string) =>
    argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`) || a === `-${name}`);
  if (!names.some(given)) return message;
  const parts = names.map((name) => {
    const flag = given(name)?.split("=")[0];
    if (flag === undefined) return name;
    const nearest = nearestOption(name, known);
    return nearest === undefined ? flag : `${flag} (did you mean --${nearest}?)`;
  });
  return `Unknown ${parts.length === 1 ? "option" : "options"}: ${parts.join(", ")}`;
}

/** The one option within two typos of `name` (the nearest, when it is alone at its distance). */
function nearestOption(name: string, known: readonly string[]): string | undefined {
  const ranked = known
    .filter((option) => option.length > 1)
    .map((option) => ({ option, distance: editDistance(name, option) }))
    .filter((r) => r.distance > 0 && r.distance <= MAX_TYPO_DISTANCE)
    .sort((a, b) => a.distance - b.distance);
  const [best, next] = ranked;
  if (!best || (next && next.distance === best.distance)) return undefined;
  return best.option;
}
