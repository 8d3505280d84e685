// result/malformed: a recorded tools/call result that is not a CallToolResult as MCP defines it
// (server/tools "Tool Result"; the CallToolResult and ContentBlock types of the schema):
//
// - `content` is required. The official TypeScript SDK v1 client fills in an empty list when it is
//   missing, so only stricter clients fail: a warning.
// - every content block is one of text, image, audio, resource_link or resource, with that kind's
//   required fields. The SDK v1 client rejects the whole result for one malformed block (its
//   callTool throws): an error. A block that is not an object at all is schema/wrong-type's.
// - `structuredContent` is an object up to 2025-11-25; 2026-07-28 allows any JSON value. The SDK v1
//   client (which speaks 2025-11-25 at the newest) rejects anything but an object. Checked only
//   where the tool has no outputSchema, or the result is an error: otherwise
//   result/schema-mismatch validates the value against the schema, which says the same.
import { callsOf } from '../../calls/calls.js';
import { getPair, getSeq, isMap, isScalar, isSeq, type MapNode, type Node } from '../../parse/nodes.js';
import { defineRule } from '../rule.js';
import { subjectWords, type CallSubject } from '../../wording/callSubjects.js';

const BLOCK_TYPES = ['text', 'image', 'audio', 'resource_link', 'resource'] as const;
/** The string fields each kind of block requires. */
const REQUIRED: Record<(typeof BLOCK_TYPES)[number], readonly string[]> = {
  text: ['text'],
  image: ['data', 'mimeType'],
  audio: ['data', 'mimeType'],
  resource_link: ['uri', 'name'],
  resource: [],
};
const REVISION_2026 = '2026-07-28';

export const rule = defineRule({
  id: 'result/malformed',
  defaultSeverity: 'error',
  summary:
    'A recorded tool result that is not a CallToolResult: no `content`, a malformed content block, or non-object structuredContent.',
  kinds: ['tool-calls'],
  messages: {
    noContent: ({ subject }: { subject: CallSubject }) =>
      `${subjectWords(subject)}: the result has no \`content\`: record the content blocks it returned. ` +
      'MCP requires `content` in every tool result (an empty list when there is nothing to say). The official TypeScript ' +
      'SDK client (v1) fills in an empty list, so it passes there; stricter clients reject the result.',
    /** `problem`: what is wrong with the block, in words (`has no \`text\``). */
    badBlock: ({ subject, problem }: { subject: CallSubject; problem: string }) =>
      `${subjectWords(subject)}: this content block ${problem}: fix it. ` +
      'MCP content blocks are text (`text`), image and audio (`data`, `mimeType`), resource_link (`uri`, `name`) and ' +
      'resource (`resource` with `uri` and `text` or `blob`). The official TypeScript SDK client (v1) rejects the whole ' +
      'result because of one malformed block: the call fails for its caller.',
    /** `what`: what the value is (`an array`); `revision`: the revision recorded, if any. */
    structuredNotObject: ({ subject, what, revision }: { subject: CallSubject; what: string; revision?: string }) =>
      `${subjectWords(subject)}: structuredContent is ${what}, not an object: wrap it in an object. ` +
      (revision !== undefined && revision >= REVISION_2026
        ? `MCP ${revision}, which the tool's server speaks, allows any JSON value there; but the official TypeScript SDK ` +
          'client (v1), like every client of 2025-11-25 and before, requires an object and rejects the result.'
        : `MCP${revision !== undefined ? ` ${revision}` : ''} requires structuredContent to be an object (2026-07-28 allows ` +
          'any JSON value), and the official TypeScript SDK client (v1) rejects the result: the call fails for its caller.'),
  },
  check(ctx) {
    for (const site of callsOf(ctx).calls) {
      const result = site.result;
      if (!result || !isMap(result.pair.value)) continue;
      const node = result.pair.value;
      const content = getPair(node, 'content');
      if (!content)
        ctx.report({
          severity: 'warning',
          messageId: 'noContent',
          data: { subject: site.subject },
          span: result.pair.key.span,
        });
      for (const block of getSeq(node, 'content')?.items ?? []) {
        // A block that is no mapping is schema/wrong-type's (the calls schema wants objects).
        if (!isMap(block)) continue;
        const problem = blockProblem(block);
        if (problem)
          ctx.report({
            messageId: 'badBlock',
            data: { subject: site.subject, problem: problem.words },
            span: problem.span,
          });
      }
      const structured = result.structured;
      if (!structured?.value) continue;
      if (site.tool?.outputSchema !== undefined && !result.isError) continue; // result/schema-mismatch's
      const what = notObject(structured.value);
      if (what === undefined) continue;
      const revision = site.tool?.revision;
      ctx.report({
        // Legal from 2026-07-28 on: only the clients of older revisions refuse it.
        ...(revision !== undefined && revision >= REVISION_2026 ? { severity: 'warning' as const } : {}),
        messageId: 'structuredNotObject',
        data: { subject: site.subject, what, ...(revision !== undefined ? { revision } : {}) },
        span: structured.value.span,
      });
    }
  },
});

function blockProblem(block: MapNode): { words: string; span: MapNode['span'] } | undefined {
  const typePair = getPair(block, 'type');
  if (!typePair) return { words: 'has no `type`', span: block.span };
  const type = isScalar(typePair.value) ? typePair.value.value : undefined;
  const typeSpan = (typePair.value ?? typePair.key).span;
  // A `type` that is no string at all (empty, a list, a mapping) has no value to quote.
  if (typeof type !== 'string') return { words: 'has a `type` that is not a string', span: typeSpan };
  if (!(BLOCK_TYPES as readonly string[]).includes(type))
    return { words: `has the unknown type \`${type}\``, span: typeSpan };
  for (const field of REQUIRED[type as (typeof BLOCK_TYPES)[number]]) {
    const pair = getPair(block, field);
    if (!pair)
      return {
        words: `is ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type} block without \`${field}\``,
        span: typePair.key.span,
      };
    if (!isScalar(pair.value) || typeof pair.value.value !== 'string')
      return { words: `has a \`${field}\` that is not a string`, span: (pair.value ?? pair.key).span };
  }
  if (type === 'resource') {
    const resource = getPair(block, 'resource');
    if (!resource) return { words: 'is a resource block without `resource`', span: typePair.key.span };
    const inner = resource.value;
    if (!isMap(inner)) return { words: 'has a `resource` that is not an object', span: (inner ?? resource.key).span };
    const uri = getPair(inner, 'uri');
    if (!uri || !isScalar(uri.value) || typeof uri.value.value !== 'string')
      return { words: 'has a `resource` without a string `uri`', span: resource.key.span };
    const text = getPair(inner, 'text');
    const blob = getPair(inner, 'blob');
    const isString = (n: Node | null | undefined) => isScalar(n) && typeof n.value === 'string';
    if (!(text && isString(text.value)) && !(blob && isString(blob.value)))
      return { words: 'has a `resource` without `text` or `blob`', span: resource.key.span };
  }
  return undefined;
}

/** What a value is when it is not an object (`an array`, `null`), else undefined. */
function notObject(node: Node): string | undefined {
  if (isMap(node)) return undefined;
  if (isSeq(node)) return 'an array';
  const value = node.value;
  if (value === null) return 'null';
  return typeof value === 'string' ? 'a string' : typeof value === 'boolean' ? 'a boolean' : 'a number';
}
