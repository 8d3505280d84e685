// The floor lens above each composite tool, one short line: the annotations clients will see (the
// derived floor with the explicit hints laid over it, `readOnly ✗ · destructive ✓ · openWorld ✗`;
// a read-only one `readOnly ✓ · openWorld ✗`, as MCP reads the other two only on a tool that writes),
// how many of its tool steps have known annotations (`2/2 tool steps known`), and, when an explicit
// hint contradicts the floor, that the gateway drops the composite (`Dropped by the gateway:
// readOnly ✓ claimed, floor ✗`) instead of hints no client will see. A composite with a step the
// gateway cannot route is left out before any annotation is read (`Left out by the gateway: step
// "fetch" does not resolve`), whatever its hints claim.
import { documentContext } from '../context.js';
import type { Contradiction } from '../floor/floor.js';
import { floorOf } from '../floor/workflowFloor.js';
import { workflowsOf } from '../model/workflow.js';
import type { ParsedFile } from '../parse/file.js';
import { WORKFLOW_KINDS } from '../types.js';
import type { HintName, Span, ToolAnnotations } from '../types.js';
import { joinWords } from '../text/words.js';
import type { Workspace } from '../workspace.js';

/** The hints in the order the lens says them, by their short names. */
const SHORT: readonly [HintName, string][] = [
  ['readOnlyHint', 'readOnly'],
  ['destructiveHint', 'destructive'],
  ['idempotentHint', 'idempotent'],
  ['openWorldHint', 'openWorld'],
];

const mark = (value: boolean): string => (value ? '✓' : '✗');

/** One lens: its line, over the composite's name (or the start of its entry when it has none). */
export interface FloorLens {
  title: string;
  span: Span;
}

/** A lens for every composite tool of a file, in order. */
export function floorLenses(file: ParsedFile, workspace: Workspace): FloorLens[] {
  const lenses: FloorLens[] = [];
  for (const doc of file.documents) {
    if (!doc.kind || !WORKFLOW_KINDS.includes(doc.kind)) continue;
    const ctx = documentContext(file, doc, workspace);
    for (const workflow of workflowsOf(ctx).workflows) {
      const floor = floorOf(ctx, workflow);
      const total = floor.entries.length;
      const known = floor.entries.filter((e) => e.known).length;
      const unroutable = floor.unroutable.map((s) => s.stepId);
      const title = lensTitle(floor.table.advertised, floor.contradictions, total, known, unroutable);
      lenses.push({
        title,
        span: workflow.name?.span ?? { start: workflow.node.span.start, end: workflow.node.span.start },
      });
    }
  }
  return lenses;
}

/** The lens's line (exported for the protocol tests' table of cases). */
export function lensTitle(
  advertised: ToolAnnotations | undefined,
  contradictions: readonly Contradiction[],
  total: number,
  known: number,
  /** The ids of the steps the gateway cannot route. */
  unroutable: readonly string[] = [],
): string {
  const steps = total === 0 ? 'no tool steps, no floor' : `${known}/${total} tool step${total === 1 ? '' : 's'} known`;
  const claims = contradictions
    .map((c) => `${shortName(c.hint)} ${mark(c.explicit)} claimed, floor ${mark(c.floor)}`)
    .join('; ');
  if (unroutable.length) {
    const ids = unroutable.slice(0, 3).map((id) => `"${id}"`);
    if (unroutable.length > 3) ids.push(`${unroutable.length - 3} more`);
    const which = `${unroutable.length === 1 ? 'step' : 'steps'} ${joinWords(ids)}`;
    const also = claims ? `; ${claims}` : '';
    return `Left out by the gateway: ${which} ${unroutable.length === 1 ? 'does' : 'do'} not resolve${also} · ${steps}`;
  }
  if (contradictions.length) return `Dropped by the gateway: ${claims} · ${steps}`;
  // MCP gives destructiveHint and idempotentHint meaning only on a tool that is not read-only:
  // "readOnly ✓ · destructive ✓" would read as a contradiction, so a read-only line leaves them out.
  const readOnly = advertised?.readOnlyHint === true;
  const hints = SHORT.filter(
    ([hint]) =>
      typeof advertised?.[hint] === 'boolean' &&
      !(readOnly && (hint === 'destructiveHint' || hint === 'idempotentHint')),
  ).map(([hint, short]) => `${short} ${mark(advertised![hint] as boolean)}`);
  return [...(hints.length ? hints : ['no hints advertised']), steps].join(' · ');
}

function shortName(hint: HintName): string {
  return SHORT.find(([h]) => h === hint)?.[1] ?? hint;
}
