// The safety floor of one composite tool in one document: each tool step as the gateway resolves
// it (gateway/steps.ts), its declared annotations (after overrides) or why they are unknown, and
// the table the hover, the code lens and the annotation rules all read. Memoised per document.
import { counted, joinWords } from '../text/words.js';
import { annotationsFrom } from '../catalog/load.js';
import type { DocumentContext } from '../context.js';
import { dotForm } from '../gateway/gateway.js';
import { hiddenByText } from '../gateway/words.js';
import { resolvedStepsOf, type ResolvedStep } from '../gateway/steps.js';
import { memoKey } from '../memo.js';
import { escapeMarkdown } from '../text/markdown.js';
import type { WorkflowModel } from '../model/workflow.js';
import type { ToolAnnotations } from '../types.js';
import {
  deriveFloor,
  findContradictions,
  floorTable,
  type Contradiction,
  type FloorTable,
  type StepEntry,
} from './floor.js';

export interface WorkflowFloor {
  workflow: WorkflowModel;
  /** One entry per tool step, in step order (forEach inner tool steps in their parent's place). */
  entries: StepEntry<ResolvedStep>[];
  /** The workflow's explicit `annotations`, as declared. */
  explicit: ToolAnnotations | undefined;
  table: FloorTable<ResolvedStep>;
  /**
   * The tool steps the gateway cannot route (a reference it refuses at load, a step without a tool,
   * one the router does not find, a dynamic tool): when a session lists tools, ToolHive leaves the
   * composite out for them (`FilterWorkflowDefsForSession`) before it reads any annotation.
   */
  unroutable: ResolvedStep[];
  /**
   * The explicit hints that contradict the floor whatever the unroutable steps turn out to be: the
   * floor of the routable steps alone already contradicts them (a step can only lower the floor).
   * With every step routable, the table's contradictions; a hint that only an unroutable step
   * contradicts is that step's mistake (tool/unknown), not the hint's.
   */
  contradictions: Contradiction[];
}

const KEY = memoKey<Map<WorkflowModel, WorkflowFloor>>('workflow-floor');

export function floorOf(ctx: DocumentContext, workflow: WorkflowModel): WorkflowFloor {
  const byWorkflow = ctx.memo.get(KEY, () => new Map<WorkflowModel, WorkflowFloor>());
  let floor = byWorkflow.get(workflow);
  if (!floor) {
    floor = computeFloor(ctx, workflow);
    byWorkflow.set(workflow, floor);
  }
  return floor;
}

function computeFloor(ctx: DocumentContext, workflow: WorkflowModel): WorkflowFloor {
  const entries = resolvedStepsOf(ctx, workflow).map((s): StepEntry<ResolvedStep> => {
    switch (s.cause) {
      case undefined:
        return { known: true, annotations: s.tool!.tool.annotations!, step: s };
      case 'no-tool':
        return { known: false, reason: 'step has no tool', step: s };
      case 'malformed':
        return { known: false, reason: 'the reference is not a valid tool name', step: s };
      case 'no-catalog':
        return { known: false, reason: noCatalogReason(s), step: s };
      case 'dynamic':
        return { known: false, reason: dynamicReason(s), step: s };
      case 'unresolved':
        return { known: false, reason: 'not resolved', step: s };
      case 'hidden':
        // ToolHive looks annotations up among the advertised tools only (docs/toolhive.md#entries).
        return {
          known: false,
          reason: `the tool is hidden from clients (${hiddenByText(s.tool!)}), and ToolHive reads annotations of advertised tools only`,
          step: s,
        };
      case 'no-annotations':
        return { known: false, reason: 'tool declares no annotations', step: s };
    }
  });
  const explicit = annotationsFrom(workflow.annotations);
  const table = floorTable(entries, explicit, describeFloorStep);
  const unroutable = entries.filter((e) => doesNotRoute(e.step)).map((e) => e.step);
  const contradictions = unroutable.length
    ? findContradictions(explicit, deriveFloor(entries.filter((e) => !doesNotRoute(e.step))))
    : table.contradictions;
  return { workflow, entries, explicit, table, unroutable, contradictions };
}

/** A step the router cannot find, or one ToolHive refuses before routing (listing/toolList.ts's first gate). */
export function doesNotRoute(s: ResolvedStep): boolean {
  return s.cause === 'malformed' || s.cause === 'no-tool' || s.cause === 'unresolved' || s.cause === 'dynamic';
}

function dynamicReason(s: ResolvedStep): string {
  if (s.resolution?.kind !== 'dynamic') return 'not resolved';
  return `not resolved: "${s.resolution.toolName}" is a dynamic tool of ${s.resolution.workload}, in no tool list`;
}

function noCatalogReason(s: ResolvedStep): string {
  if (s.resolution?.kind !== 'no-catalog') return 'not in any catalog';
  const { resolution } = s;
  const ref = s.toolRef ?? '';
  const names = resolution.workloads.map((w) => w.serverName);
  const opaque = resolution.workloads.filter((w) => w.reason === 'opaque');
  if (opaque.length > 0 && opaque.length === resolution.workloads.length) {
    return `step "${s.stepId}": tool "${ref}" may be a renamed tool of ${opaque.map((w) => w.name).join(', ')}, whose overrides Tool Lens cannot read`;
  }
  const servers = names.length > 0 ? `server ${names.join(', ')} has no catalog` : 'no catalog describes its server';
  return `step "${s.stepId}": tool "${ref}" is not in any catalog (${servers})`;
}

/** `step "save" (filesystem.write_file)`: the id and the tool as the user wrote it. */
export function describeFloorStep(s: ResolvedStep): string {
  return `step "${s.stepId}" (${s.toolRef ?? 'no tool'})`;
}

/** A longer description for hovers: the reference and what it resolves to. */
function describeResolution(s: ResolvedStep): string {
  if (s.tool) {
    const names = [s.tool.resolvedName, dotForm(s.tool)].filter((n) => n !== s.toolRef);
    const also = names.length ? ` → ${[...new Set(names)].join(' / ')}` : '';
    return `${s.toolRef ?? ''}${also}${s.tool.advertised ? '' : ' (hidden)'}`;
  }
  return s.toolRef ?? 'no tool';
}

// ---------------------------------------------------------------------------------------------
// Markdown for the hover and the "Show derived floor" command

function cell(value: boolean | undefined): string {
  return value === undefined ? '—' : `\`${value}\``;
}

/**
 * The floor as a markdown table (hint | floor | explicit | advertised | decided by) and the why
 * lines. `contradictionSaid`: a diagnostic shown beside it already says that the explicit hints
 * contradict the floor (the editor's hover on the contradicting hint), so neither the warning line nor
 * the contradicted rows' sentence on it is repeated.
 */
export function floorMarkdown(floor: WorkflowFloor, options: { contradictionSaid?: boolean } = {}): string {
  const { table, entries } = floor;
  const lines: string[] = [];
  const name = floor.workflow.nameText ?? 'composite tool';
  if (!table.floor) {
    lines.push(
      `**${escapeMarkdown(name)}**: no tool steps, so there is no floor; the explicit annotations are advertised as written.`,
      '',
    );
  } else {
    const unknown = entries.filter((e) => !e.known).length;
    const tail = unknown ? `, ${unknown} with unknown annotations` : '';
    lines.push(`**${escapeMarkdown(name)}**: safety floor from ${counted(entries.length, 'tool step')}${tail}.`, '');
  }
  lines.push('| hint | floor | explicit | advertised | decided by |', '|---|---|---|---|---|');
  for (const row of table.rows) {
    const decided =
      row.deciding.length === 0
        ? '—'
        : decidedBy(
            row.deciding.map((e) => e.step.stepId),
            entries.length,
          );
    lines.push(`| ${row.hint} | ${cell(row.floor)} | ${cell(row.explicit)} | ${cell(row.advertised)} | ${decided} |`);
  }
  lines.push('');
  // A row's sentence on the contradiction is left out where the diagnostic beside it says it, and
  // where only an unroutable step makes it: the gateway leaves the composite out for that step first.
  const standing = new Set<string>(floor.contradictions.map((c) => c.hint));
  const unsaid = (hint: string): boolean =>
    table.contradictions.some((c) => c.hint === hint) && (options.contradictionSaid || !standing.has(hint));
  for (const row of table.rows)
    lines.push(`- **${row.hint}**: ${escapeMarkdown(unsaid(row.hint) ? row.floorWhy : row.why)}`);
  if (floor.unroutable.length) {
    const ids = floor.unroutable.map((s) => `\`${s.stepId}\``);
    lines.push(
      '',
      `⚠ ${ids.length === 1 ? 'Step' : 'Steps'} ${joinWords(ids)} ${ids.length === 1 ? 'does' : 'do'} not resolve: the gateway leaves this composite tool out of every session's tool list before it reads the annotations.`,
    );
  }
  if (floor.contradictions.length && !options.contradictionSaid) {
    lines.push(
      '',
      `⚠ The explicit annotations contradict the floor: the gateway drops this composite tool when it lists tools.`,
    );
  }
  if (entries.length) {
    lines.push('', 'Steps:');
    for (const entry of entries) {
      const state = entry.known ? annotationsText(entry.annotations) : `unknown: ${entry.reason}`;
      lines.push(
        `- \`${entry.step.stepId}\` ${escapeMarkdown(describeResolution(entry.step))}: ${escapeMarkdown(state)}`,
      );
    }
  }
  return lines.join('\n');
}

function decidedBy(ids: string[], total: number): string {
  if (ids.length === total && total > 1) return 'every step';
  const shown = [...new Set(ids)].slice(0, 5).map((id) => `\`${id}\``);
  return shown.join(', ') + (ids.length > 5 ? ', …' : '');
}

function annotationsText(a: ToolAnnotations): string {
  const parts = (['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const)
    .filter((h) => a[h] !== undefined)
    .map((h) => `${h}: ${a[h]}`);
  return parts.length ? parts.join(', ') : 'declares no hints';
}
