// Code lens above each composite tool, one short line: the annotations clients will see (the
// derived floor with the explicit hints laid over it, `readOnly ✗ · destructive ✓ · openWorld ✗`;
// a read-only one `readOnly ✓ · openWorld ✗`, as MCP reads the other two only on a tool that writes),
// how many of its tool steps have known annotations (`2/2 tool steps known`), and, when an explicit
// hint contradicts the floor, that the gateway drops the composite (`Dropped by the gateway:
// readOnly ✓ claimed, floor ✗`) instead of hints no client will see. A click shows the floor.
import type { CodeLens, CodeLensParams } from 'vscode-languageserver';
import { documentContext } from '../core/context.js';
import type { Contradiction } from '../core/floor/floor.js';
import { floorOf } from '../core/floor/workflowFloor.js';
import { workflowsOf } from '../core/model/workflow.js';
import { WORKFLOW_KINDS } from '../core/types.js';
import type { HintName, ToolAnnotations } from '../core/types.js';
import { toRange } from './convert.js';
import type { Session } from './session.js';

/** The client command a lens runs (registered by the VS Code extension). */
const SHOW_FLOOR_COMMAND = 'toolLens.showFloor';

/** The hints in the order the lens says them, by their short names. */
const SHORT: readonly [HintName, string][] = [
  ['readOnlyHint', 'readOnly'],
  ['destructiveHint', 'destructive'],
  ['idempotentHint', 'idempotent'],
  ['openWorldHint', 'openWorld'],
];

const mark = (value: boolean): string => (value ? '✓' : '✗');

export function codeLenses(session: Session, params: CodeLensParams): CodeLens[] {
  const file = session.fileOfUri(params.textDocument.uri);
  if (!file?.kind) return [];
  const lenses: CodeLens[] = [];
  for (const doc of file.documents) {
    if (!doc.kind || !WORKFLOW_KINDS.includes(doc.kind)) continue;
    const ctx = documentContext(file, doc, session.workspace);
    for (const workflow of workflowsOf(ctx).workflows) {
      const floor = floorOf(ctx, workflow);
      const total = floor.entries.length;
      const known = floor.entries.filter((e) => e.known).length;
      const title = lensTitle(floor.table.advertised, floor.table.contradictions, total, known);
      const span = workflow.name?.span ?? { start: workflow.node.span.start, end: workflow.node.span.start };
      const range = toRange(file.source, span);
      lenses.push({ range, command: { title, command: SHOW_FLOOR_COMMAND, arguments: [session.uriOf(file.path), range.start] } });
    }
  }
  return lenses;
}

/** The lens's line (exported for the protocol tests' table of cases). */
export function lensTitle(advertised: ToolAnnotations | undefined, contradictions: readonly Contradiction[], total: number, known: number): string {
  const steps = total === 0 ? 'no tool steps, no floor' : `${known}/${total} tool step${total === 1 ? '' : 's'} known`;
  if (contradictions.length) {
    const claims = contradictions.map((c) => `${shortName(c.hint)} ${mark(c.explicit)} claimed, floor ${mark(c.floor)}`).join('; ');
    return `Dropped by the gateway: ${claims} · ${steps}`;
  }
  // MCP gives destructiveHint and idempotentHint meaning only on a tool that is not read-only:
  // "readOnly ✓ · destructive ✓" would read as a contradiction, so a read-only line leaves them out.
  const readOnly = advertised?.readOnlyHint === true;
  const hints = SHORT.filter(([hint]) => typeof advertised?.[hint] === 'boolean' && !(readOnly && (hint === 'destructiveHint' || hint === 'idempotentHint'))).map(
    ([hint, short]) => `${short} ${mark(advertised![hint] as boolean)}`,
  );
  return [...(hints.length ? hints : ['no hints advertised']), steps].join(' · ');
}

function shortName(hint: HintName): string {
  return SHORT.find(([h]) => h === hint)?.[1] ?? hint;
}
