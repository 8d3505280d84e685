// aggregation/strategy-settings: a conflict-resolution strategy without the settings ToolHive's
// validator wants for it (`validateAggregation` and `validateConflictStrategy` in
// pkg/vmcp/config/validator.go; `VirtualMCPServer.validateAggregation` in the operator).
//
// The dialects differ. A CLI file is validated as written: a whole configuration needs
// `conflictResolution`, a `conflictResolutionConfig` and, under prefix, a `prefixFormat` (the
// `{workload}_` default is the Kubernetes CRD's and the operator's, not the CLI's). A
// VirtualMCPServer gets those from the CRD defaults and the operator's conversion
// (`applyConflictResolutionDefaults`), except an explicitly empty `prefixFormat`, which no default
// replaces. In both, priority needs a non-empty `priorityOrder` and manual at least one `tools`
// entry. A CLI file with composite tools only is a fragment (schemas/vmcp-config.schema.json):
// it is not asked for the CLI-only settings.
import {
  editContextOf,
  insertPairs,
  plainEntry,
  replaceScalarText,
  type InsertEntry,
  type PlainValue,
} from '../../edit/mappingEdits.js';
import { aggregationOf, DEFAULT_PREFIX_FORMAT, type GatewaySettings } from '../../model/aggregation.js';
import { getPair } from '../../parse/nodes.js';
import type { Fix, Span, TextEdit } from '../../types.js';
import { defineRule, type RuleContext } from '../rule.js';

const STRATEGIES: readonly string[] = ['prefix', 'priority', 'manual'];

/** What the CLI does with a file that leaves a conflict setting out. */
const CLI_REFUSES =
  'The CLI reads the file as written and fills in no defaults (only a VirtualMCPServer gets them), so `thv vmcp validate` and `vmcp serve` refuse it.';

const messages = {
  /** The CLI file names neither `conflictResolution` nor its config (`both`), or only the first. */
  noStrategy: ({ both }: { both: boolean }) =>
    both
      ? `\`aggregation\` sets no conflict resolution: add \`conflictResolution: prefix\` and its config. ` +
        `It has neither \`conflictResolution\` nor \`conflictResolutionConfig\`; the usual pair is \`conflictResolution: prefix\` with \`conflictResolutionConfig: {prefixFormat: "${DEFAULT_PREFIX_FORMAT}"}\` (or another strategy and its settings). ${CLI_REFUSES}`
      : '`aggregation` has no `conflictResolution`: add `conflictResolution: prefix` (or `priority`, `manual`). ' +
        CLI_REFUSES,
  /** `moment`: when ToolHive refuses it. */
  noPriorityOrder: ({ moment }: { moment: string }) =>
    '`conflictResolution: priority` has no `priorityOrder`: list the workloads there, first wins. ' +
    'The first workload in `conflictResolutionConfig.priorityOrder` keeps a name several serve. ' +
    `ToolHive refuses the priority strategy without it (validateConflictStrategy): ${moment}.`,
  noManualTools: ({ moment }: { moment: string }) =>
    '`conflictResolution: manual` has no `tools` entries: add overrides under `aggregation.tools`. ' +
    'They are what tells conflicting tools apart. ' +
    `ToolHive refuses the manual strategy without any (validateConflictStrategy): ${moment}.`,
  noResolutionConfig: ({ strategy }: { strategy: 'prefix' | 'manual' }) =>
    strategy === 'prefix'
      ? `\`conflictResolution: prefix\` has no \`conflictResolutionConfig\`: add one with a \`prefixFormat\`. The usual one is \`conflictResolutionConfig: {prefixFormat: "${DEFAULT_PREFIX_FORMAT}"}\`. ${CLI_REFUSES}`
      : `\`conflictResolution: manual\` has no \`conflictResolutionConfig\`: add an empty one, \`{}\`. The validator wants it for every strategy. ${CLI_REFUSES}`,
  /** `kubernetes`: a VirtualMCPServer (else a CLI file). */
  emptyPrefixFormat: ({ kubernetes }: { kubernetes: boolean }) =>
    `\`prefixFormat\` is empty: write the prefix (\`"${DEFAULT_PREFIX_FORMAT}"\` is the usual one). ` +
    (kubernetes
      ? "No default replaces a value that is written, so the operator passes the empty format on and the vMCP pod's validator refuses it: the pod does not start."
      : 'ToolHive refuses the prefix strategy without a format (validateConflictStrategy): `thv vmcp validate` and `vmcp serve` refuse the file.'),
  noPrefixFormat: () =>
    `\`conflictResolutionConfig\` has no \`prefixFormat\`: add \`prefixFormat: "${DEFAULT_PREFIX_FORMAT}"\` (or your own). ` +
    'The prefix strategy needs one. ' +
    'The CLI reads the file as written and fills in no defaults (only a VirtualMCPServer gets them), so `thv vmcp validate` and `vmcp serve` refuse it.',
};

export const rule = defineRule({
  id: 'aggregation/strategy-settings',
  defaultSeverity: 'error',
  summary:
    'A conflict-resolution strategy lacks the settings ToolHive requires for it (priorityOrder, tools, prefixFormat, ...).',
  kinds: ['vmcp-config', 'vmcp-server'],
  messages,
  check(ctx) {
    const settings = aggregationOf(ctx);
    const agg = settings.aggregation;
    const node = agg.node;
    if (!node) return;
    const w = agg.written;
    const written = w.strategy?.value;
    // A value that is no strategy (or not a string) is the schema rules' finding.
    if (w.strategy && !(typeof written === 'string' && STRATEGIES.includes(written))) return;
    const strict = settings.dialect === 'cli' && settings.wholeConfig;
    const target = editContextOf(ctx.file);
    const aggregationKey = settings.aggregationPair?.key.span ?? node.span;
    const resolutionValueOk = w.resolutionPair === undefined || w.resolution !== undefined;
    if (!resolutionValueOk) return; // `conflictResolutionConfig` that is not a mapping: the schema rules say so.

    if (strict && !w.strategy) {
      const both = !w.resolutionPair;
      const entries: InsertEntry[] = [plainEntry(target, 'conflictResolution', 'prefix')];
      if (both) entries.push(plainEntry(target, 'conflictResolutionConfig', { prefixFormat: DEFAULT_PREFIX_FORMAT }));
      ctx.report({
        messageId: 'noStrategy',
        data: { both },
        span: aggregationKey,
        fixes: fixOf(
          both ? 'Add prefix conflict resolution with the `{workload}_` format' : 'Add `conflictResolution: prefix`',
          insertPairs(target, node, entries),
        ),
      });
      return;
    }
    const strategy = typeof written === 'string' ? written : 'prefix';
    const strategySpan = w.strategy?.span ?? aggregationKey;
    const strategyPair = getPair(node, 'conflictResolution');

    if (strategy === 'priority') {
      const order = w.priorityOrder;
      if (!order || order.items.length === 0) {
        const span: Span = order?.span ?? w.resolutionPair?.key.span ?? strategySpan;
        const backends = settings.backends ?? [];
        let edit: TextEdit | undefined;
        if (backends.length > 0 && !order) {
          edit = w.resolution
            ? insertPairs(target, w.resolution, [plainEntry(target, 'priorityOrder', backends)])
            : insertPairs(
                target,
                node,
                [
                  {
                    key: 'conflictResolutionConfig',
                    value: { entries: [plainEntry(target, 'priorityOrder', backends)] },
                  },
                ],
                strategyPair,
              );
        }
        ctx.report({
          messageId: 'noPriorityOrder',
          data: { moment: priorityMoment(settings, strict) },
          span,
          fixes: fixOf('List the backends in `priorityOrder` (in the order of the `backends` list)', edit),
        });
      }
    }

    if (strategy === 'manual' && (!w.tools || w.tools.items.length === 0)) {
      ctx.report({
        messageId: 'noManualTools',
        data: { moment: laterMoment(settings) },
        span: strategySpan,
      });
    }

    if (strict && !w.resolutionPair && strategy !== 'priority') {
      const value: PlainValue = strategy === 'prefix' ? { prefixFormat: DEFAULT_PREFIX_FORMAT } : {};
      ctx.report({
        messageId: 'noResolutionConfig',
        data: { strategy: strategy === 'prefix' ? 'prefix' : 'manual' },
        span: strategySpan,
        fixes: fixOf(
          strategy === 'prefix'
            ? 'Add `conflictResolutionConfig` with the `{workload}_` format'
            : 'Add `conflictResolutionConfig: {}`',
          insertPairs(target, node, [plainEntry(target, 'conflictResolutionConfig', value)], strategyPair),
        ),
      });
      return;
    }

    if (strategy === 'prefix' && w.resolution) checkPrefixFormat(ctx, settings, strict);
  },
});

function checkPrefixFormat(ctx: RuleContext<typeof messages>, settings: GatewaySettings, strict: boolean): void {
  const w = settings.aggregation.written;
  const format = w.prefixFormat;
  const target = editContextOf(ctx.file);
  if (format && format.value === '') {
    const edit = replaceScalarText(target, format, DEFAULT_PREFIX_FORMAT);
    ctx.report({
      messageId: 'emptyPrefixFormat',
      data: { kubernetes: settings.dialect === 'kubernetes' },
      span: format.span,
      fixes: fixOf(`Set \`prefixFormat: "${DEFAULT_PREFIX_FORMAT}"\``, edit),
    });
    return;
  }
  if (strict && !getPair(w.resolution, 'prefixFormat') && w.resolution && w.resolutionPair) {
    ctx.report({
      messageId: 'noPrefixFormat',
      span: w.resolutionPair.key.span,
      fixes: fixOf(
        `Add \`prefixFormat: "${DEFAULT_PREFIX_FORMAT}"\``,
        insertPairs(target, w.resolution, [plainEntry(target, 'prefixFormat', DEFAULT_PREFIX_FORMAT)]),
      ),
    });
  }
}

function priorityMoment(settings: GatewaySettings, strict: boolean): string {
  if (settings.dialect === 'cli')
    return strict
      ? '`thv vmcp validate` and `vmcp serve` refuse the file'
      : 'ToolHive refuses the configuration this goes into';
  return settings.aggregation.written.resolution
    ? 'the operator refuses the resource when it reconciles it (VirtualMCPServer.Validate)'
    : "the operator fills in an empty `conflictResolutionConfig` and the vMCP pod's validator refuses it, so the pod does not start";
}

function laterMoment(settings: GatewaySettings): string {
  if (settings.dialect === 'kubernetes')
    return "the operator accepts the resource, but the vMCP pod's validator refuses it and the pod does not start";
  return settings.wholeConfig
    ? '`thv vmcp validate` and `vmcp serve` refuse the file'
    : 'ToolHive refuses the configuration this goes into';
}

function fixOf(title: string, edit: TextEdit | undefined): Fix[] {
  return edit ? [{ title, safe: false, edits: [edit] }] : [];
}
