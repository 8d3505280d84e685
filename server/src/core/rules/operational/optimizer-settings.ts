// operational/optimizer-settings: `optimizer` values ToolHive refuses, in each dialect.
//
// A CLI file, when `vmcp serve` starts (optimizer.GetAndValidateConfig in
// pkg/vmcp/optimizer/optimizer.go, called from pkg/vmcp/cli/serve.go; `thv vmcp validate` does not
// look): an embeddingProvider other than tei or openai, openai without an embeddingModel, a non-zero
// maxToolsToReturn outside 1..50, a hybridSearchSemanticRatio outside 0..1 and a
// semanticDistanceThreshold outside 0..2 (strings Go reads with strconv.ParseFloat), and
// (resolveEmbeddingProvider, validateEmbeddingHeaders) embeddingHeaders with another provider than
// openai, or a header that is no valid name or value, or Authorization or Content-Type. An openai
// provider without embeddingService is left alone: `--enable-embedding` fills it.
//
// A VirtualMCPServer: the CRD's bounds, enum and patterns are its schema's (schema/invalid-value,
// CrdOptimizer in schemas/vmcp-server.schema.json). Here: the CRD's CEL rules, at admission
// (embeddingHeaders only with `embeddingProvider: openai`, whose CRD default is tei; header names
// that are HTTP tokens and neither Authorization nor Content-Type; spec.embeddingServerRef not with
// openai); VirtualMCPServer.validateEmbeddingServer, when the operator reconciles (an optimizer
// without embeddingServerRef or embeddingService, an empty embeddingServerRef name); and what the
// pod refuses at start that the CRD lets through (a ratio over 1 or a threshold over 2 match the
// pattern; openai without embeddingModel; a header name over 256 bytes).
import { getMap, getPair, getScalar, isMap, isScalar, type MapNode, type ScalarNode } from '../../parse/nodes.js';
import { workflowsOf } from '../../model/workflow.js';
import { refusedAtLoad, refusedAtStart } from '../../wording/refusalMoments.js';
import { defineRule, type RuleContext } from '../rule.js';

const PROVIDERS = ['tei', 'openai'];
/** An RFC 7230 token: the CEL rule's pattern, and httpguts.ValidHeaderFieldName. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The CRD's pattern for a number written as a string. */
const CRD_NUMBER = /^([0-9]*[.])?[0-9]+$/;
/** A control character other than tab (httpguts.ValidHeaderFieldValue refuses them). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/** Why the CRD's CEL rules refuse something: at admission. */
const BY_CEL = 'a CEL rule of the CRD refuses it, so the API server rejects the resource when it is applied';

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
  /** `provider`: as written, or empty for the default tei. */
  headersNeedOpenai: ({ provider, why }: { provider: string; why: string }) =>
    'Custom `embeddingHeaders` need `embeddingProvider: openai`: set it, or remove the headers. ' +
    `The provider here is ${provider ? `\`${provider}\`` : '`tei`, the default'}, which sends no custom headers. ${why}`,
  /** `name`: the header name as written. */
  headerName: ({ name, why }: { name: string; why: string }) =>
    `${JSON.stringify(name)} is no HTTP header name: use letters, digits and \`-\` (no spaces or \`:\`). ` +
    `A header name is an HTTP token of at most 256 bytes. ${why}`,
  headerReserved: ({ name, why }: { name: string; why: string }) =>
    `The optimizer sets \`${name}\` itself: remove it from \`embeddingHeaders\`. ` +
    'Authorization comes from the OPENAI_API_KEY environment variable, and Content-Type is always application/json. ' +
    why,
  headerValue: ({ name, why }: { name: string; why: string }) =>
    `Header ${JSON.stringify(name)} has no valid value: write 1 to 8192 characters, with no line break. ` +
    `A header value may hold no control character but tab. ${why}`,
  refWithOpenai: ({ why }: { why: string }) =>
    '`embeddingServerRef` cannot be combined with `embeddingProvider: openai`: keep one of the two. ' +
    'The referenced EmbeddingServer is a managed TEI server; the openai provider talks to `embeddingService` ' +
    `directly. ${why}`,
  noEmbeddingSource: ({ why }: { why: string }) =>
    'The optimizer has no embedding service: set `spec.embeddingServerRef`, or `embeddingService` here. ' +
    `The optimizer needs one to search tools by meaning, and the resource names none. ${why}`,
  emptyRefName: ({ why }: { why: string }) =>
    `\`embeddingServerRef.name\` is empty: name the EmbeddingServer, in the same namespace. ${why}`,
};

type Ctx = RuleContext<typeof messages>;

export const rule = defineRule({
  id: 'operational/optimizer-settings',
  defaultSeverity: 'error',
  summary:
    'Optimizer settings ToolHive refuses: an unknown embedding provider, openai without a model, a value out of range, bad embedding headers, no embedding service.',
  kinds: ['vmcp-config', 'vmcp-server'],
  messages,
  check(ctx) {
    const optimizer = getMap(workflowsOf(ctx).config, 'optimizer');
    if (ctx.doc.kind === 'vmcp-server') checkServer(ctx, optimizer);
    else if (optimizer) checkCli(ctx, optimizer);
  },
});

function checkCli(ctx: Ctx, optimizer: MapNode): void {
  const why = `ToolHive checks it when the server starts (optimizer.GetAndValidateConfig): ${refusedAtStart(ctx.doc.kind)}.`;
  const provider = getScalar(optimizer, 'embeddingProvider');
  const providerText = typeof provider?.value === 'string' ? provider.value : '';
  if (providerText !== '' && !PROVIDERS.includes(providerText)) {
    ctx.report({ messageId: 'unknownProvider', data: { provider: providerText, why }, span: provider!.span });
  } else if (providerText === 'openai') {
    checkModel(ctx, optimizer, why);
  }

  const count = getScalar(optimizer, 'maxToolsToReturn');
  if (count && typeof count.value === 'number' && count.value !== 0 && (count.value < 1 || count.value > 50)) {
    ctx.report({ messageId: 'toolCount', data: { count: count.value, why }, span: count.span });
  }
  checkRange(ctx, getScalar(optimizer, 'hybridSearchSemanticRatio'), 'hybridSearchSemanticRatio', 1, why, false);
  checkRange(ctx, getScalar(optimizer, 'semanticDistanceThreshold'), 'semanticDistanceThreshold', 2, why, false);

  // resolveEmbeddingProvider: an unknown provider stops it before the headers are looked at.
  if (providerText !== '' && !PROVIDERS.includes(providerText)) return;
  const headers = getPair(optimizer, 'embeddingHeaders');
  if (!headers || !isMap(headers.value) || headers.value.pairs.length === 0) return;
  if (providerText !== 'openai') {
    ctx.report({ messageId: 'headersNeedOpenai', data: { provider: providerText, why }, span: headers.key.span });
    return;
  }
  for (const pair of headers.value.pairs) {
    const name = String(pair.key.value);
    if (!TOKEN.test(name) || name.length > 256) {
      ctx.report({ messageId: 'headerName', data: { name, why }, span: pair.key.span });
      continue;
    }
    const value = isScalar(pair.value) && typeof pair.value.value === 'string' ? pair.value.value : undefined;
    if (value !== undefined && (value === '' || value.length > 8192 || CONTROL.test(value))) {
      ctx.report({ messageId: 'headerValue', data: { name, why }, span: pair.value!.span });
      continue;
    }
    const lower = name.toLowerCase();
    if (lower === 'authorization' || lower === 'content-type') {
      ctx.report({ messageId: 'headerReserved', data: { name, why }, span: pair.key.span });
    }
  }
}

function checkServer(ctx: Ctx, optimizer: MapNode | undefined): void {
  const spec = getMap(ctx.doc.root, 'spec');
  const refPair = getPair(spec, 'embeddingServerRef');
  const byCel = `${capitalise(BY_CEL)}.`;
  const byOperator = `ToolHive checks it when the operator reconciles the resource (validateEmbeddingServer): ${refusedAtLoad(ctx.doc.kind)}.`;
  const atStart = `The CRD lets it through, but ToolHive checks it when the server starts (optimizer.GetAndValidateConfig): ${refusedAtStart(ctx.doc.kind)}.`;

  // validateEmbeddingServer, when the operator reconciles the resource.
  const refName = getScalar(getMap(spec, 'embeddingServerRef'), 'name');
  if (refName && refName.value === '') {
    ctx.report({ messageId: 'emptyRefName', data: { why: byOperator }, span: refName.span });
  }
  if (!optimizer) return;
  const service = getScalar(optimizer, 'embeddingService');
  const hasService = typeof service?.value === 'string' && service.value !== '';
  if (!refPair && !hasService) {
    const key = getPair(getMap(spec, 'config'), 'optimizer')!.key;
    ctx.report({ messageId: 'noEmbeddingSource', data: { why: byOperator }, span: key.span });
  }

  // The CEL rules: the provider defaults to tei when it is not written.
  const provider = getScalar(optimizer, 'embeddingProvider');
  const providerText = typeof provider?.value === 'string' ? provider.value : '';
  if (providerText === 'openai' && refPair) {
    ctx.report({ messageId: 'refWithOpenai', data: { why: byCel }, span: refPair.key.span });
  }
  const headers = getPair(optimizer, 'embeddingHeaders');
  if (headers && isMap(headers.value)) {
    if (providerText !== 'openai' && PROVIDERS.includes(providerText || 'tei')) {
      ctx.report({
        messageId: 'headersNeedOpenai',
        data: { provider: providerText, why: byCel },
        span: headers.key.span,
      });
    }
    for (const pair of headers.value.pairs) {
      const name = String(pair.key.value);
      const lower = name.toLowerCase();
      if (!TOKEN.test(name)) {
        ctx.report({ messageId: 'headerName', data: { name, why: byCel }, span: pair.key.span });
      } else if (lower === 'authorization' || lower === 'content-type') {
        ctx.report({ messageId: 'headerReserved', data: { name, why: byCel }, span: pair.key.span });
      } else if (name.length > 256 && providerText === 'openai') {
        ctx.report({ messageId: 'headerName', data: { name, why: atStart }, span: pair.key.span });
      }
    }
  }

  // What the CRD lets through and the pod refuses at start.
  if (providerText === 'openai' && hasService) checkModel(ctx, optimizer, atStart);
  checkRange(ctx, getScalar(optimizer, 'hybridSearchSemanticRatio'), 'hybridSearchSemanticRatio', 1, atStart, true);
  checkRange(ctx, getScalar(optimizer, 'semanticDistanceThreshold'), 'semanticDistanceThreshold', 2, atStart, true);
}

function checkModel(ctx: Ctx, optimizer: MapNode, why: string): void {
  const model = getScalar(optimizer, 'embeddingModel');
  if (!model || model.value === null || model.value === '') {
    ctx.report({ messageId: 'noModel', data: { why }, span: getPair(optimizer, 'embeddingProvider')!.key.span });
  }
}

/** `crd`: only values the CRD's pattern lets through are judged (the schema reports the others). */
function checkRange(
  ctx: Ctx,
  node: ScalarNode | undefined,
  field: string,
  max: number,
  why: string,
  crd: boolean,
): void {
  if (!node || node.value === null || node.value === '' || typeof node.value === 'boolean') return;
  if (crd && !(typeof node.value === 'string' && CRD_NUMBER.test(node.value))) return;
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

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
