// Code lens above each composite tool: the annotations clients will see (the derived floor with
// the explicit hints laid over it) and how many tool steps have unknown annotations.
import type { CodeLens, CodeLensParams } from 'vscode-languageserver';
import { documentContext } from '../core/context.js';
import { floorOf } from '../core/floor/workflowFloor.js';
import { workflowsOf } from '../core/model/workflow.js';
import { WORKFLOW_KINDS } from '../core/types.js';
import type { ToolAnnotations } from '../core/types.js';
import { toRange } from './convert.js';
import type { Session } from './session.js';

/** The client command a lens runs (registered by the VS Code extension). */
const SHOW_FLOOR_COMMAND = 'toolLens.showFloor';

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
      const unknown = floor.entries.filter((e) => !e.known).length;
      const parts = [advertisedText(floor.table.advertised, total > 0)];
      if (total > 0) parts.push(unknown ? `${unknown} of ${total} tool step${total === 1 ? '' : 's'} unknown` : `all ${total} tool step${total === 1 ? '' : 's'} known`);
      if (floor.table.contradictions.length) parts.push('contradicts the floor: the gateway drops this tool');
      const span = workflow.name?.span ?? { start: workflow.node.span.start, end: workflow.node.span.start };
      const range = toRange(file.source, span);
      lenses.push({
        range,
        command: { title: parts.join(' · '), command: SHOW_FLOOR_COMMAND, arguments: [session.uriOf(file.path), range.start] },
      });
    }
  }
  return lenses;
}

function advertisedText(advertised: ToolAnnotations | undefined, hasFloor: boolean): string {
  if (!advertised) return hasFloor ? 'Advertised: no annotations' : 'No tool steps, no floor: no annotations advertised';
  const words: string[] = [];
  if (advertised.readOnlyHint !== undefined) words.push(advertised.readOnlyHint ? 'read-only' : 'not read-only');
  if (advertised.destructiveHint !== undefined) words.push(advertised.destructiveHint ? 'destructive' : 'non-destructive');
  if (advertised.idempotentHint !== undefined) words.push(advertised.idempotentHint ? 'idempotent' : 'not idempotent');
  if (advertised.openWorldHint !== undefined) words.push(advertised.openWorldHint ? 'open-world' : 'closed-world');
  return `Advertised: ${words.join(', ') || 'no hints'}`;
}
