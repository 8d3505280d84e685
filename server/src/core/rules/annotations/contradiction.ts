// annotations/contradiction: explicit annotations that make a composite tool look safer than its
// steps. ToolHive drops such a composite when it lists tools (a log line is all that says so), so
// the user's tool simply disappears. One finding per contradicting hint, naming the step tools
// that decide the floor. When only servers without a catalog decide it: a warning, since those
// tools may declare the hint after all. A composite with a step the gateway cannot route is left out
// before its annotations are read (docs/toolhive.md#what-a-session-lists): only a contradiction its
// routable steps already make is reported, since fixing the step cannot mend it.
import { FLOOR_HINTS, type Floor, type FloorHint, type StepEntry } from '../../floor/floor.js';
import { describeFloorStep, floorOf } from '../../floor/workflowFloor.js';
import type { ResolvedStep } from '../../gateway/steps.js';
import { workflowsOf, type WorkflowModel } from '../../model/workflow.js';
import { getPair, isScalar, type Pair } from '../../parse/nodes.js';
import {
  editContextOf,
  insertPairs,
  removePair,
  replaceValue,
  type EditContext,
  type InsertEntry,
} from '../../edit/mappingEdits.js';
import type { Fix, RelatedInfo, TextEdit } from '../../types.js';
import { defineRule } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';
import { addCatalogAdviceFor } from '../../wording/catalogAdvice.js';
import { LIMITS } from '../../limits.js';
import { byCount, joinWords, listOf, listWords } from '../../text/words.js';

const UNSAFE: Record<FloorHint, string> = {
  readOnlyHint: 'is not read-only',
  destructiveHint: 'is destructive',
  openWorldHint: 'is open-world',
};
/** UNSAFE, said of several steps. */
const UNSAFE_PLURAL: Record<FloorHint, string> = {
  readOnlyHint: 'are not read-only',
  destructiveHint: 'are destructive',
  openWorldHint: 'are open-world',
};
const COUNTS_AS: Record<FloorHint, string> = {
  readOnlyHint: 'which does not count as read-only',
  destructiveHint: 'which counts as destructive',
  openWorldHint: 'which counts as open-world',
};
const SAFE_VALUE: Record<FloorHint, boolean> = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };

const messages = {
  /** `hint` claims more safety than the steps that decide it allow; `floor` is what they allow. */
  saferThanSteps: ({
    hint,
    floor,
    deciding,
  }: {
    hint: FloorHint;
    floor: Floor;
    deciding: readonly StepEntry<ResolvedStep>[];
  }) => errorMessage(hint, floor, deciding),
  /** The deciding steps are only tools without a catalog: the contradiction may not be real. */
  uncatalogued: ({ hint, deciding }: { hint: FloorHint; deciding: readonly StepEntry<ResolvedStep>[] }) =>
    warningMessage(hint, deciding),
};

export const rule = defineRule({
  id: 'annotations/contradiction',
  defaultSeverity: 'error',
  summary: 'Explicit annotations look safer than the steps allow: the gateway drops the composite tool.',
  kinds: WORKFLOW_KINDS,
  messages,
  check(ctx) {
    const edit = editContextOf(ctx.file);
    for (const workflow of workflowsOf(ctx).workflows) {
      const annotations = workflow.annotations;
      if (!annotations) continue;
      const floor = floorOf(ctx, workflow);
      const derived = floor.table.floor;
      if (!derived) continue;
      // A hint only an unroutable step contradicts is not reported: ToolHive leaves the composite
      // out for that step before it reads any annotation, and tool/unknown (or the rule that owns
      // the step's reference) says so. Such a step does not decide the hints that are reported.
      const routes = (e: StepEntry<ResolvedStep>): boolean => !floor.unroutable.includes(e.step);
      for (const contradiction of floor.contradictions) {
        const hint = contradiction.hint;
        const pair = getPair(annotations, hint);
        if (!pair?.value) continue;
        const deciding = (floor.table.rows.find((r) => r.hint === hint)?.deciding ?? []).filter(routes);
        const onlyUncatalogued =
          deciding.length > 0 && deciding.every((e) => !e.known && e.step.cause === 'no-catalog');
        const related: RelatedInfo[] = deciding
          .filter((e) => e.step.step.tool)
          .map((e) => ({ span: e.step.step.tool!.span, message: `decides ${hint}: ${entryText(e, hint)}` }));
        const place = { span: pair.span, fixes: fixes(edit, workflow, pair, hint, derived), related };
        if (onlyUncatalogued)
          ctx.report({ messageId: 'uncatalogued', data: { hint, deciding }, severity: 'warning', ...place });
        else ctx.report({ messageId: 'saferThanSteps', data: { hint, floor: derived, deciding }, ...place });
      }
    }
  },
});

/** What one deciding step does to the hint, in words (for related information). */
function entryText(entry: StepEntry<ResolvedStep>, hint: FloorHint): string {
  const who = describeFloorStep(entry.step);
  if (!entry.known) return `${who} has unknown annotations (${shortReason(entry)})`;
  if (entry.annotations[hint] === undefined) return `${who} omits ${hint}, ${COUNTS_AS[hint]}`;
  return `${who} ${UNSAFE[hint]}`;
}

/** Why an entry is unknown, without repeating the step (the floor's reason names it for hovers). */
function shortReason(entry: StepEntry<ResolvedStep>): string {
  if (entry.known) return '';
  const resolution = entry.step.resolution;
  if (entry.step.cause === 'no-catalog' && resolution?.kind === 'no-catalog') {
    const servers = resolution.workloads.map((w) => w.serverName);
    return servers.length ? `no catalog for server ${listOf(servers, LIMITS.messageItems)}` : 'it is in no catalog';
  }
  return entry.reason;
}

/** `"save" (filesystem.write_file)` */
function stepName(entry: StepEntry<ResolvedStep>): string {
  return `"${entry.step.stepId}" (${entry.step.toolRef ?? 'no tool'})`;
}

function steps(entries: readonly StepEntry<ResolvedStep>[]): string {
  const names = entries.slice(0, 4).map(stepName);
  if (entries.length > 4) names.push(`${entries.length - 4} more`);
  return `${byCount(entries.length, 'step', 'steps')} ${joinWords(names)}`;
}

/** The deciding steps grouped by what they do to the hint: declare it unsafe, omit it, unknown. */
function listed(entries: readonly StepEntry<ResolvedStep>[], hint: FloorHint): string {
  const unsafe = entries.filter((e) => e.known && e.annotations[hint] !== undefined);
  const omitted = entries.filter(
    (e): e is Extract<StepEntry<ResolvedStep>, { known: true }> => e.known && e.annotations[hint] === undefined,
  );
  const unknown = entries.filter((e) => !e.known);
  const parts: string[] = [];
  if (unsafe.length) parts.push(`${steps(unsafe)} ${byCount(unsafe.length, UNSAFE[hint], UNSAFE_PLURAL[hint])}`);
  if (omitted.length) {
    const readOnly = hint !== 'readOnlyHint' && omitted.every((e) => e.annotations.readOnlyHint === true);
    const despite = readOnly
      ? ` (even though ${byCount(omitted.length, 'it declares', 'they declare')} readOnlyHint: true: the floor reads ${hint} itself)`
      : '';
    parts.push(`${steps(omitted)} ${byCount(omitted.length, 'omits', 'omit')} ${hint}, ${COUNTS_AS[hint]}${despite}`);
  }
  for (const entry of unknown.slice(0, 4))
    parts.push(`${steps([entry])} has unknown annotations (${shortReason(entry)})`);
  return parts.join('; ');
}

function errorMessage(hint: FloorHint, floor: Floor, deciding: readonly StepEntry<ResolvedStep>[]): string {
  const omitted = deciding.some((e) => e.known && e.annotations[hint] === undefined);
  const advice = omitted
    ? ` A step tool that omits the hint can declare it, or get it from an annotation override in aggregation.tools[].overrides.`
    : '';
  return (
    `${hint}: ${SAFE_VALUE[hint]} is safer than the steps: remove the hint or set it to ${floor[hint]}. ` +
    `${capitalised(listed(deciding, hint))}. The gateway will drop this composite tool when it lists ` +
    `tools (ToolHive omits a composite whose annotations look safer than its steps, and only logs it), so clients never ` +
    `see it.${advice}`
  );
}

function warningMessage(hint: FloorHint, deciding: readonly StepEntry<ResolvedStep>[]): string {
  const tools = [...new Set(deciding.map((e) => `${e.step.toolRef ?? ''} (step "${e.step.stepId}")`))];
  const workloads = deciding.flatMap((e) =>
    e.step.resolution?.kind === 'no-catalog' ? e.step.resolution.workloads : [],
  );
  const unique = [...new Map(workloads.map((w) => [w.name, w])).values()];
  const servers = unique.length
    ? listOf(
        unique.map((w) => w.serverName),
        LIMITS.messageItems,
      )
    : 'their servers';
  const list = listWords(tools);
  return (
    `${hint}: ${SAFE_VALUE[hint]} cannot be checked: add a catalog for ${servers}. ` +
    `This composite tool will be dropped unless ${list} ` +
    `${byCount(tools.length, 'declares', 'declare')} ${hint}: ${SAFE_VALUE[hint]} (the gateway checks when it lists tools). ` +
    `Tool Lens has no catalog for ${servers}, so it cannot tell. ${addCatalogAdviceFor(unique)}`
  );
}

function fixes(edit: EditContext, workflow: WorkflowModel, pair: Pair, hint: FloorHint, derived: Floor): Fix[] {
  const out: Fix[] = [];
  const annotations = workflow.annotations!;
  // Remove the hint; a block mapping left empty goes with it (an empty `annotations:` would be null).
  let removal: TextEdit | undefined;
  if (annotations.pairs.length === 1 && !annotations.flow && !edit.json) {
    const annotationsPair = getPair(workflow.node, 'annotations');
    removal = annotationsPair ? removePair(edit, workflow.node, annotationsPair) : undefined;
    // `- annotations:` opening a list item cannot lose its line: leave an empty mapping instead.
    // Not through an anchor or alias (removePair refuses those too).
    if (!removal && annotationsPair && !annotations.shared && !annotationsPair.key.shared)
      removal = { span: { start: annotationsPair.key.span.end, end: pair.value!.span.end }, newText: ': {}' };
  } else removal = removePair(edit, annotations, pair);
  if (removal) out.push({ title: `Remove ${hint}`, safe: false, edits: [removal] });

  const set = replaceValue(pair.value!, String(derived[hint]));
  if (set) out.push({ title: `Set ${hint} to ${derived[hint]} (the floor)`, safe: false, edits: [set] });

  // Every derived hint to the floor's value; title and idempotentHint stay as written.
  const edits: TextEdit[] = [];
  const missing: InsertEntry[] = [];
  let every = true;
  for (const h of FLOOR_HINTS) {
    const existing = getPair(annotations, h);
    if (!existing) missing.push({ key: h, value: { inline: String(derived[h]) } });
    else if (existing.value && !(isScalar(existing.value) && existing.value.value === derived[h])) {
      const change = replaceValue(existing.value, String(derived[h]));
      if (change) edits.push(change);
      else every = false;
    }
  }
  const insertion = missing.length ? insertPairs(edit, annotations, missing) : undefined;
  if (insertion) edits.push(insertion);
  if (every && edits.length > 1 && (!missing.length || insertion)) {
    out.push({
      title: `Set all annotations to the floor (readOnlyHint: ${derived.readOnlyHint}, destructiveHint: ${derived.destructiveHint}, openWorldHint: ${derived.openWorldHint})`,
      safe: false,
      edits,
    });
  }
  return out;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
