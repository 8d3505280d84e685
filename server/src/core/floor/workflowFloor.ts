// The safety floor of one composite tool in one document (SPEC §3.2): each tool step resolved
// through the gateway, its declared annotations (after overrides) or why they are unknown, and
// the table the hover, the code lens and the annotation rules all read. Memoised per document.
import { annotationsFrom } from '../catalog/load.js';
import { dotForm, gatewayOf, hiddenByText, resolveToolRef, type GatewayTool, type ToolRefResolution } from '../gateway/gateway.js';
import { memoKey } from '../memo.js';
import { toolSteps, workflowsOf, type StepModel, type WorkflowModel } from '../model/workflow.js';
import type { DocumentContext } from '../context.js';
import type { ToolAnnotations } from '../types.js';
import { floorTable, type FloorTable, type StepEntry } from './floor.js';

/** Why a step's annotations are unknown, for rules that word things differently per cause. */
export type UnknownCause = 'no-tool' | 'no-catalog' | 'unresolved' | 'dynamic' | 'hidden' | 'no-annotations';

/** One tool step as the floor sees it. */
export interface FloorStep {
  step: StepModel;
  /** The step's id, or `#<n>` (1-based position) when it has none. */
  stepId: string;
  /** The `tool` value as written. */
  toolRef?: string;
  resolution?: ToolRefResolution;
  /** The resolved backend tool, when the reference resolves (hidden or not). */
  tool?: GatewayTool;
  /** The conflict-resolved name the gateway routes the step to (= tool.resolvedName). */
  resolvedName?: string;
  /** Set on unknown entries. */
  cause?: UnknownCause;
}

export interface WorkflowFloor {
  workflow: WorkflowModel;
  /** One entry per tool step, in step order (forEach inner tool steps in their parent's place). */
  entries: StepEntry<FloorStep>[];
  /** The workflow's explicit `annotations`, as declared. */
  explicit: ToolAnnotations | undefined;
  table: FloorTable<FloorStep>;
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

/** One tool step of a document, with its workflow and its floor entry. */
export interface DocumentToolStep {
  workflow: WorkflowModel;
  entry: StepEntry<FloorStep>;
}

/**
 * Every tool step of the document's composite tools (forEach inner tool steps in their parent's
 * place), each with its resolved tool: what the tool, argument and annotation rules walk.
 */
export function toolStepsOf(ctx: DocumentContext): DocumentToolStep[] {
  return workflowsOf(ctx).workflows.flatMap((workflow) => floorOf(ctx, workflow).entries.map((entry) => ({ workflow, entry })));
}

function computeFloor(ctx: DocumentContext, workflow: WorkflowModel): WorkflowFloor {
  const gateway = gatewayOf(ctx);
  const entries = toolSteps(workflow).map((step): StepEntry<FloorStep> => {
    const s: FloorStep = { step, stepId: stepIdOf(step), toolRef: step.toolText };
    if (step.toolText === undefined || step.toolText === '') {
      s.cause = 'no-tool';
      return { known: false, reason: 'step has no tool', step: s };
    }
    const resolution = resolveToolRef(gateway, step.toolText);
    s.resolution = resolution;
    switch (resolution.kind) {
      case 'no-catalog': {
        s.cause = 'no-catalog';
        return { known: false, reason: noCatalogReason(s.stepId, step.toolText, resolution), step: s };
      }
      case 'dynamic':
        s.cause = 'dynamic';
        return {
          known: false,
          reason: `not resolved: "${resolution.toolName}" is a dynamic tool of ${resolution.workload}, in no tool list`,
          step: s,
        };
      case 'unresolved':
        s.cause = 'unresolved';
        return { known: false, reason: 'not resolved', step: s };
      case 'resolved': {
        const tool = resolution.tool;
        s.tool = tool;
        s.resolvedName = tool.resolvedName;
        // ToolHive looks annotations up among the advertised tools only (toolhive.md §6).
        if (!tool.advertised) {
          s.cause = 'hidden';
          return {
            known: false,
            reason: `the tool is hidden from clients (${hiddenByText(tool)}), and ToolHive reads annotations of advertised tools only`,
            step: s,
          };
        }
        if (!tool.tool.annotations) {
          s.cause = 'no-annotations';
          return { known: false, reason: 'tool declares no annotations', step: s };
        }
        return { known: true, annotations: tool.tool.annotations, step: s };
      }
    }
  });
  const explicit = annotationsFrom(workflow.annotations);
  return { workflow, entries, explicit, table: floorTable(entries, explicit, describeFloorStep) };
}

function noCatalogReason(stepId: string, ref: string, resolution: Extract<ToolRefResolution, { kind: 'no-catalog' }>): string {
  const names = resolution.workloads.map((w) => w.serverName);
  const opaque = resolution.workloads.filter((w) => w.reason === 'opaque');
  if (opaque.length > 0 && opaque.length === resolution.workloads.length) {
    return `step "${stepId}": tool "${ref}" may be a renamed tool of ${opaque.map((w) => w.name).join(', ')}, whose overrides Tool Lens cannot read`;
  }
  const servers = names.length > 0 ? `server ${names.join(', ')} has no catalog` : 'no catalog describes its server';
  return `step "${stepId}": tool "${ref}" is not in any catalog (${servers})`;
}

export function stepIdOf(step: StepModel): string {
  if (step.idText !== undefined && step.idText !== '') return step.idText;
  return `#${step.index + 1}`;
}

/** `step "save" (filesystem.write_file)`: the id and the tool as the user wrote it. */
export function describeFloorStep(s: FloorStep): string {
  return `step "${s.stepId}" (${s.toolRef ?? 'no tool'})`;
}

/** A longer description for hovers: the reference and what it resolves to. */
export function describeResolution(s: FloorStep): string {
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

/** The floor as a markdown table (hint | floor | explicit | advertised | decided by) and the why lines. */
export function floorMarkdown(floor: WorkflowFloor): string {
  const { table, entries } = floor;
  const lines: string[] = [];
  const name = floor.workflow.nameText ?? 'composite tool';
  if (!table.floor) {
    lines.push(`**${escapeMarkdown(name)}**: no tool steps, so there is no floor; the explicit annotations are advertised as written.`, '');
  } else {
    const unknown = entries.filter((e) => !e.known).length;
    const tail = unknown ? `, ${unknown} with unknown annotations` : '';
    lines.push(`**${escapeMarkdown(name)}**: safety floor from ${entries.length} tool step${entries.length === 1 ? '' : 's'}${tail}.`, '');
  }
  lines.push('| hint | floor | explicit | advertised | decided by |', '|---|---|---|---|---|');
  for (const row of table.rows) {
    const decided = row.deciding.length === 0 ? '—' : decidedBy(row.deciding.map((e) => e.step.stepId), entries.length);
    lines.push(`| ${row.hint} | ${cell(row.floor)} | ${cell(row.explicit)} | ${cell(row.advertised)} | ${decided} |`);
  }
  lines.push('');
  for (const row of table.rows) lines.push(`- **${row.hint}**: ${escapeMarkdown(row.why)}`);
  if (table.contradictions.length) {
    lines.push('', `⚠ The explicit annotations contradict the floor: the gateway drops this composite tool when it lists tools.`);
  }
  if (entries.length) {
    lines.push('', 'Steps:');
    for (const entry of entries) {
      const state = entry.known ? annotationsText(entry.annotations) : `unknown: ${entry.reason}`;
      lines.push(`- \`${entry.step.stepId}\` ${escapeMarkdown(describeResolution(entry.step))}: ${escapeMarkdown(state)}`);
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

function escapeMarkdown(text: string): string {
  return text.replace(/([|*_`\\[\]<>])/g, '\\$1');
}
