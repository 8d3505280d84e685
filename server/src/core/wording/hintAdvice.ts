// Sentences the hints/* rules share: how a set of hints is written, and what a team that does not
// own the server can do about its annotations (report them upstream, or override them in the
// gateway, docs/toolhive.md#overrides).
import { HINT_NAMES, type HintName } from '../types.js';
import { headlineFits } from './headlines.js';

/**
 * A headline about one catalog tool: `Tool "scan" of server "scanner" declares no annotations: ...`
 * when it fits a row, else the tool by its name alone and, after it, where it is. `described` is the
 * tool in full words (`tool "scan" of server "scanner"`), `rest` what follows the subject.
 */
export function toolHeadline(described: string, name: string | undefined, rest: string): string {
  const full = `${described.charAt(0).toUpperCase()}${described.slice(1)} ${rest}`;
  if (headlineFits(full) || name === undefined) return full;
  return `Tool "${name}" ${rest} It is ${described}.`;
}

/** `readOnlyHint: false, destructiveHint: true` (the hints declared, in MCP's order). */
export function hintsWords(hints: Partial<Record<HintName, boolean>>): string {
  return HINT_NAMES.filter((hint) => hints[hint] !== undefined)
    .map((hint) => `${hint}: ${String(hints[hint])}`)
    .join(', ');
}

/**
 * What to do about one tool's annotations: fix them in the server if it is yours, else report them
 * upstream, and meanwhile give the right ones in the gateway. `annotations` is the override to show.
 */
export function overrideAdvice(toolName: string, annotations: string): string {
  return (
    'If the server is yours, fix its annotations there; if not, report it upstream and meanwhile override them in the ' +
    `gateway that serves it: \`aggregation.tools[].overrides.${toolName}: {description: ..., annotations: {${annotations}}}\` ` +
    '(an override needs a description or a name besides its annotations).'
  );
}
