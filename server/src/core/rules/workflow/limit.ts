import { getPair, getScalar, isMap, type Node, type ScalarNode } from '../../parse/nodes.js';
import { allSteps, workflowsOf, type StepModel } from '../../model/workflow.js';
import { defineRule, type RuleContext } from '../rule.js';
import { WORKFLOW_KINDS, type DocumentKind } from '../../types.js';
import { refusedAtLoad, refusedAtStart } from '../../wording/refusalMoments.js';
import { parseGoDuration } from '../../text/durations.js';

const MAX_STEPS = 100;
const MAX_RETRY_COUNT = 10;
const MAX_PARALLEL = 50;
const MAX_ITERATIONS = 1000;
const MAX_ELICITATION_TIMEOUT_NS = 10 * 60 * 1e9;
/** composer/elicitation_handler.go maxSchemaSize and maxSchemaDepth. */
const MAX_SCHEMA_BYTES = 100 * 1024;
const MAX_SCHEMA_DEPTH = 10;
/** composer/workflow_engine.go defaultMaxIterations. */
const DEFAULT_MAX_ITERATIONS = 100;

/**
 * Values over ToolHive's limits. Where ToolHive refuses them the finding is an error: `maxParallel`
 * and `maxIterations` at load (validateForEachLimits, config/composite_validation.go), more than
 * 100 steps when the server starts (ValidateWorkflow, composer/workflow_engine.go). Where it only
 * caps them at run time with a log line (retries in getRetryConfig, the elicitation
 * timeout in elicitation_handler.go) the finding is a warning, as the rule's page says. Where a
 * written value makes a step fail every time it runs, the finding is an error: an elicitation
 * schema over 100 KB or nested deeper than 10 levels (validateSchemaSize, validateSchemaDepth in
 * composer/elicitation_handler.go), a literal forEach collection with more items than
 * maxIterations (validateCollectionSize in composer/workflow_engine.go).
 */
const messages = {
  tooManySteps: ({ steps, kind }: { steps: number; kind: DocumentKind | null }) =>
    `This workflow has ${steps} steps, over ToolHive's limit of ${MAX_STEPS}: split it into several composite tools. ` +
    `${capitalised(refusedAtStart(kind))}.`,
  retryCount: ({ value }: { value: number }) =>
    `\`retryCount\` ${value} is over ToolHive's cap of ${MAX_RETRY_COUNT}: set it to ${MAX_RETRY_COUNT} or less. ` +
    `ToolHive makes at most ${MAX_RETRY_COUNT} retries and logs a warning; the file should say what happens.`,
  maxParallel: ({ value, kind }: { value: number; kind: DocumentKind | null }) =>
    `\`maxParallel\` ${value} is over ToolHive's limit of ${MAX_PARALLEL}: use ${MAX_PARALLEL} or less. ${capitalised(refusedAtLoad(kind))}.`,
  maxIterations: ({ value, kind }: { value: number; kind: DocumentKind | null }) =>
    `\`maxIterations\` ${value} is over ToolHive's limit of ${MAX_ITERATIONS}: use ${MAX_ITERATIONS} or less, or split the collection. ` +
    `${capitalised(refusedAtLoad(kind))}.`,
  /** `bytes`: the schema's size as compact JSON. */
  schemaTooLarge: ({ bytes }: { bytes: number }) =>
    `This elicitation \`schema\` is ${bytes} bytes as JSON, over ToolHive's 100 KB: make it smaller. ` +
    'ToolHive checks the size before it asks the user (validateSchemaSize), so the step fails every time it runs.',
  schemaTooDeep: () =>
    `This value is nested more than ${MAX_SCHEMA_DEPTH} levels deep in the elicitation \`schema\`: flatten it. ` +
    'ToolHive counts every mapping and list from the schema down (validateSchemaDepth) before it asks the user, ' +
    'so the step fails every time it runs.',
  /** `count`: items in the literal collection; `max`: the limit that applies. */
  collectionSize: ({ count, max }: { count: number; max: number }) =>
    `This collection has ${count} items, over the step's limit of ${max}: raise \`maxIterations\`, or split it. ` +
    `\`maxIterations\` may be at most ${MAX_ITERATIONS}. ` +
    'ToolHive checks the size before the first iteration (validateCollectionSize), so the step fails every time it runs.',
  /** `timeout`: as written. */
  elicitationTimeout: ({ timeout }: { timeout: string }) =>
    `An elicitation \`timeout\` of ${timeout} is over ToolHive's 10m: use 10m or less. ` +
    `ToolHive waits at most 10m for an answer to an elicitation: a \`timeout\` of ${timeout} is cut to 10m at run time ` +
    '(with a warning in the log), and then the step is handled as cancelled.',
};

export const rule = defineRule({
  id: 'workflow/limit',
  defaultSeverity: 'error',
  summary: 'A value over a limit ToolHive refuses (error) or caps at run time (warning).',
  kinds: WORKFLOW_KINDS,
  messages,
  check(ctx) {
    for (const workflow of workflowsOf(ctx).workflows) {
      const stepsNode = workflow.stepsNode;
      if (stepsNode && stepsNode.items.length > MAX_STEPS) {
        ctx.report({
          messageId: 'tooManySteps',
          data: { steps: stepsNode.items.length, kind: ctx.doc.kind },
          span: getPair(workflow.node, 'steps')!.key.span,
        });
      }
      for (const step of allSteps(workflow)) checkStep(ctx, step);
    }
  },
});

function checkStep(ctx: RuleContext<typeof messages>, step: StepModel): void {
  const retryCount = numberAt(getScalar(step.onError, 'retryCount'));
  if (retryCount && retryCount.value > MAX_RETRY_COUNT) {
    ctx.report({
      messageId: 'retryCount',
      data: { value: retryCount.value },
      span: retryCount.node.span,
      severity: 'warning',
    });
  }
  if (step.type === 'forEach') {
    const maxParallel = numberAt(getScalar(step.node, 'maxParallel'));
    if (maxParallel && maxParallel.value > MAX_PARALLEL) {
      ctx.report({
        messageId: 'maxParallel',
        data: { value: maxParallel.value, kind: ctx.doc.kind },
        span: maxParallel.node.span,
      });
    }
    const maxIterations = numberAt(getScalar(step.node, 'maxIterations'));
    if (maxIterations && maxIterations.value > MAX_ITERATIONS) {
      ctx.report({
        messageId: 'maxIterations',
        data: { value: maxIterations.value, kind: ctx.doc.kind },
        span: maxIterations.node.span,
      });
    }
  }
  if (step.type === 'forEach') checkCollection(ctx, step);
  if (step.type === 'elicitation') {
    const schemaPair = getPair(step.node, 'schema');
    if (schemaPair && isMap(schemaPair.value)) {
      const bytes = jsonBytes(schemaPair.value);
      if (bytes > MAX_SCHEMA_BYTES) {
        ctx.report({ messageId: 'schemaTooLarge', data: { bytes }, span: schemaPair.key.span });
      } else {
        const deep = tooDeep(schemaPair.value, 0);
        if (deep) ctx.report({ messageId: 'schemaTooDeep', span: deep.span });
      }
    }
    const timeout = getScalar(step.node, 'timeout');
    const ns = typeof timeout?.value === 'string' ? parseGoDuration(timeout.value) : undefined;
    if (timeout && ns !== undefined && ns > MAX_ELICITATION_TIMEOUT_NS) {
      ctx.report({
        messageId: 'elicitationTimeout',
        data: { timeout: String(timeout.value) },
        span: timeout.span,
        severity: 'warning',
      });
    }
  }
}

/** A literal collection (no template) that parses as a JSON array longer than the step allows. */
function checkCollection(ctx: RuleContext<typeof messages>, step: StepModel): void {
  const collection = step.collection;
  if (!collection || typeof collection.value !== 'string' || collection.value.includes('{{')) return;
  let items: unknown;
  try {
    items = JSON.parse(collection.value);
  } catch {
    return; // not JSON: another finding's
  }
  if (!Array.isArray(items)) return;
  const written = numberAt(getScalar(step.node, 'maxIterations'))?.value ?? 0;
  const max = Math.min(written > 0 ? written : DEFAULT_MAX_ITERATIONS, MAX_ITERATIONS);
  if (items.length > max) {
    ctx.report({ messageId: 'collectionSize', data: { count: items.length, max }, span: collection.span });
  }
}

/** The first node more than MAX_SCHEMA_DEPTH containers below the schema (validateSchemaDepth). */
function tooDeep(node: Node, depth: number): Node | undefined {
  if (depth > MAX_SCHEMA_DEPTH) return node;
  const children = node.type === 'map' ? node.pairs.map((p) => p.value) : node.type === 'seq' ? node.items : [];
  for (const child of children) {
    const found = child ? tooDeep(child, depth + 1) : undefined;
    if (found) return found;
  }
  return undefined;
}

/**
 * The node's size as Go's json.Marshal writes it: compact, with `<`, `>`, `&`, U+2028 and U+2029
 * escaped as six characters each.
 */
function jsonBytes(node: Node): number {
  const text = JSON.stringify(plain(node)) ?? '';
  let bytes = new TextEncoder().encode(text).length;
  for (const ch of text) {
    if (ch === '<' || ch === '>' || ch === '&') bytes += 5;
    else if (ch === '\u2028' || ch === '\u2029') bytes += 3;
  }
  return bytes;
}

function plain(node: Node): unknown {
  if (node.type === 'scalar') return node.value;
  if (node.type === 'seq') return node.items.map(plain);
  const out = new Map<string, unknown>();
  for (const pair of node.pairs)
    if (!out.has(String(pair.key.value))) out.set(String(pair.key.value), pair.value ? plain(pair.value) : null);
  return Object.fromEntries(out);
}

function numberAt(node: ScalarNode | undefined): { node: ScalarNode; value: number } | undefined {
  return node && typeof node.value === 'number' ? { node, value: node.value } : undefined;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
