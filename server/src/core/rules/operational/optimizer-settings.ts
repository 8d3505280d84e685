// operational/optimizer-settings: a CLI file's `optimizer` values that `vmcp serve` refuses when it
// starts (optimizer.GetAndValidateConfig in pkg/vmcp/optimizer/optimizer.go, called from
// pkg/vmcp/cli/serve.go): an embeddingProvider other than tei or openai, openai without an
// embeddingModel, a non-zero maxToolsToReturn outside 1..50, a hybridSearchSemanticRatio outside
// 0..1 and a semanticDistanceThreshold outside 0..2 (both strings Go reads with strconv.ParseFloat).
// An openai provider without embeddingService is left alone: `--enable-embedding` fills it.
import { getMap, getPair, getScalar, type ScalarNode } from '../../parse/nodes.js';
import { workflowsOf } from '../../model/workflow.js';
import { refusedAtStart } from '../../wording/refusalMoments.js';
import { defineRule, type RuleContext } from '../rule.js';

const PROVIDERS = ['tei', 'openai'];

const messages = {
  /** `why`: when and how ToolHive refuses it, a sentence. */
  unknownProvider: ({ provider, why }: { provider: string; why: string }) =>
    `${JSON.stringify(provider)} is not an embedding provider ToolHive has: use \`tei\` (the default) or \`openai\`. ${why}`,
  noModel: ({ why }: { why: string }) =>
    `The \`openai\` embedding provider needs an \`embeddingModel\`: name one. Such as \`text-embedding-3-small\`; ToolHive does not pick one. ${why}`,
  toolCount: ({ count, why }: { count: number; why: string }) =>
    `\`maxToolsToReturn\` ${count} is outside 1..50: write a count in that range, or leave it out. Left out, the default applies. ${why}`,
  /** `value`: the JSON form of what is written. */
  notANumber: ({ field, value, max, why }: { field: string; value: string; max: number; why: string }) =>
    `\`${field}\` ${value} is not a number: write one from 0 to ${max}. ${why}`,
  outOfRange: ({ field, value, max, why }: { field: string; value: string; max: number; why: string }) =>
    `\`${field}\` ${value} is outside 0..${max}: write a number in that range. ${why}`,
};

export const rule = defineRule({
  id: 'operational/optimizer-settings',
  defaultSeverity: 'error',
  summary:
    'Optimizer settings `vmcp serve` refuses: an unknown embedding provider, openai without a model, a count, ratio or threshold out of range.',
  kinds: ['vmcp-config'],
  messages,
  check(ctx) {
    const optimizer = getMap(workflowsOf(ctx).config, 'optimizer');
    if (!optimizer) return;
    const moment = refusedAtStart(ctx.doc.kind);
    const why = `ToolHive checks it when the server starts (optimizer.GetAndValidateConfig): ${moment}.`;

    const provider = getScalar(optimizer, 'embeddingProvider');
    if (
      provider &&
      typeof provider.value === 'string' &&
      provider.value !== '' &&
      !PROVIDERS.includes(provider.value)
    ) {
      ctx.report({
        messageId: 'unknownProvider',
        data: { provider: provider.value, why },
        span: provider.span,
      });
    } else if (provider?.value === 'openai') {
      const model = getScalar(optimizer, 'embeddingModel');
      if (!model || model.value === null || model.value === '') {
        ctx.report({
          messageId: 'noModel',
          data: { why },
          span: getPair(optimizer, 'embeddingProvider')!.key.span,
        });
      }
    }

    const count = getScalar(optimizer, 'maxToolsToReturn');
    if (count && typeof count.value === 'number' && count.value !== 0 && (count.value < 1 || count.value > 50)) {
      ctx.report({
        messageId: 'toolCount',
        data: { count: count.value, why },
        span: count.span,
      });
    }
    checkRange(ctx, getScalar(optimizer, 'hybridSearchSemanticRatio'), 'hybridSearchSemanticRatio', 1, why);
    checkRange(ctx, getScalar(optimizer, 'semanticDistanceThreshold'), 'semanticDistanceThreshold', 2, why);
  },
});

function checkRange(
  ctx: RuleContext<typeof messages>,
  node: ScalarNode | undefined,
  field: string,
  max: number,
  why: string,
): void {
  if (!node || node.value === null || node.value === '' || typeof node.value === 'boolean') return;
  const text = String(node.value).trim() === String(node.value) ? String(node.value) : undefined;
  const value = text === undefined ? Number.NaN : goFloat(text);
  if (value === undefined) return; // a form Tool Lens does not read (hex, underscores): not judged
  if (Number.isNaN(value) && text !== undefined && /^[+-]?nan$/i.test(text)) return; // NaN passes Go's comparisons
  if (Number.isNaN(value)) {
    ctx.report({
      messageId: 'notANumber',
      data: { field, value: JSON.stringify(node.value), max, why },
      span: node.span,
    });
  } else if (value < 0 || value > max) {
    ctx.report({ messageId: 'outOfRange', data: { field, value: String(node.value), max, why }, span: node.span });
  }
}

/** strconv.ParseFloat on the forms Tool Lens reads: NaN when Go refuses it, undefined when not judged. */
function goFloat(text: string): number | undefined {
  if (/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text)) return Number(text);
  if (/^[+-]?(inf|infinity)$/i.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  if (/^[+-]?nan$/i.test(text)) return Number.NaN;
  if (/^[+-]?0[xX]|_/.test(text)) return undefined;
  return Number.NaN;
}
