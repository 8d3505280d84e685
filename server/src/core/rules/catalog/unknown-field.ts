// The keys of an MCP Tool and of its ToolAnnotations. The catalog schema keeps both objects open on
// purpose (servers add keys), so this rule, not schema/unknown-key, reports the others: both SDK
// clients drop unknown keys while parsing tools/list, at the top level of a tool and inside
// `annotations`, so whatever they hold never reaches a client. `execution` is a field up to
// 2025-11-25 only: the 2026-07-28 revision removed it (tasks became an extension).
import { getPair, isMap } from '../../parse/nodes.js';
import { editContextOf, replaceScalarText } from '../../edit/mappingEdits.js';
import { defineRule, type RuleContext } from '../rule.js';
import {
  ANNOTATION_FIELDS,
  catalogDeclarationsOf,
  describeTool,
  FOREIGN_TOOL_FIELDS,
  REVISION_2026,
  revisionAtLeast,
  suggestAnnotationField,
  suggestToolField,
  TOOL_FIELDS,
  type ToolDecl,
} from '../../model/catalogDeclarations.js';
import type { Pair } from '../../parse/nodes.js';
import { byCount, firstItems } from '../../text/words.js';

/** Why an unknown field is lost, and where it is. */
function dropped(tool: ToolDecl): string {
  return `It is in ${describeTool(tool)}. MCP clients drop unknown keys while reading the tool list, so nothing in it reaches them.`;
}

function droppedAnnotation(tool: ToolDecl): string {
  return (
    `It is in the annotations of ${describeTool(tool)}. MCP clients drop keys that ToolAnnotations does not have ` +
    'while reading the tool list, so no client or gateway sees it.'
  );
}

const messages = {
  /** `suggestion`: the MCP field probably meant (not written in this tool). */
  misspelt: ({ key, suggestion, tool }: { key: string; suggestion: string; tool: ToolDecl }) =>
    `\`${key}\` is not a field of an MCP tool: did you mean \`${suggestion}\`? ${Object.hasOwn(FOREIGN_TOOL_FIELDS, key) ? `\`${key}\` is ${FOREIGN_TOOL_FIELDS[key]!.slice(1, -1)}. ` : ''}${dropped(tool)}`,
  /** `suggestion`: the MCP field it seems to repeat, written in this tool too. */
  secondSpelling: ({ key, suggestion, tool }: { key: string; suggestion: string; tool: ToolDecl }) =>
    `\`${key}\` is not a field of an MCP tool: it looks like a second \`${suggestion}\`; keep one. ${dropped(tool)}`,
  unknownField: ({ key, tool }: { key: string; tool: ToolDecl }) =>
    `\`${key}\` is not a field of an MCP tool: remove it, or move vendor data under \`_meta\`. ${dropped(tool)}`,
  /** `revision`: the revision the snapshot records (2026-07-28 or later). */
  removedExecution: ({ tool, revision }: { tool: ToolDecl; revision: string }) =>
    `\`execution\` is not a field of an MCP tool in revision ${revision}: remove it. ` +
    `${describeTool(tool).replace(/^./, (c) => c.toUpperCase())} was listed under ${revision}, which removed ` +
    '`execution` (task support became the `io.modelcontextprotocol/tasks` extension, negotiated per request). ' +
    'Clients of that revision drop the key, so it promises nothing.',
  /** `suggestion`: the ToolAnnotations key probably meant (not written in these annotations). */
  annotationMisspelt: ({ key, suggestion, tool }: { key: string; suggestion: string; tool: ToolDecl }) =>
    `\`${key}\` is not a tool annotation: did you mean \`${suggestion}\`? ${droppedAnnotation(tool)} ` +
    `Until it is spelt \`${suggestion}\`, clients apply that hint's default.`,
  annotationSecondSpelling: ({ key, suggestion, tool }: { key: string; suggestion: string; tool: ToolDecl }) =>
    `\`${key}\` is not a tool annotation: it looks like a second \`${suggestion}\`; keep one. ${droppedAnnotation(tool)}`,
  /** `others`: how many more tools of the same server have the same key in their annotations (said once, here). */
  annotationUnknown: ({ key, tool, others }: { key: string; tool: ToolDecl; others: number }) =>
    `\`${key}\` is not a tool annotation: move it under the tool's \`_meta\`. ${droppedAnnotation(tool)} ` +
    (others > 0
      ? `${others} more ${byCount(others, 'tool', 'tools')} of this server ${byCount(others, 'has', 'have')} it too; this finding stands for all. `
      : '') +
    'Vendor data belongs in `_meta`, under a prefix of your own (`com.example/category`).',
};

export const rule = defineRule({
  id: 'catalog/unknown-field',
  defaultSeverity: 'warning',
  summary: 'An unknown key in a tool declaration or its annotations.',
  kinds: ['tool-catalog'],
  messages,
  check(ctx) {
    // An unknown annotation key repeated on several tools of one server is one mistake: the first
    // place reports it, with the others as related places.
    const repeated = new Map<string, Pair[]>();
    const unknownAnnotations: { tool: ToolDecl; pair: Pair; group: string }[] = [];
    for (const tool of catalogDeclarationsOf(ctx).tools) {
      for (const pair of tool.node.pairs) {
        const key = String(pair.key.value);
        if (key === 'execution' && revisionAtLeast(tool.server, REVISION_2026)) {
          ctx.report({
            messageId: 'removedExecution',
            data: { tool, revision: tool.server.revision! },
            span: pair.key.span,
          });
          continue;
        }
        if ((TOOL_FIELDS as readonly string[]).includes(key)) continue;
        const suggestion = suggestToolField(key);
        if (suggestion && !getPair(tool.node, suggestion)) {
          reportMisspelt(ctx, 'misspelt', tool, pair, key, suggestion);
          continue;
        }
        if (suggestion)
          ctx.report({ messageId: 'secondSpelling', data: { key, suggestion, tool }, span: pair.key.span });
        else ctx.report({ messageId: 'unknownField', data: { key, tool }, span: pair.key.span });
      }
      const annotations = getPair(tool.node, 'annotations')?.value;
      // Annotations that are no mapping are schema/wrong-type's.
      if (!isMap(annotations)) continue;
      for (const pair of annotations.pairs) {
        const key = String(pair.key.value);
        if ((ANNOTATION_FIELDS as readonly string[]).includes(key)) continue;
        const suggestion = suggestAnnotationField(key);
        if (suggestion && !getPair(annotations, suggestion)) {
          reportMisspelt(ctx, 'annotationMisspelt', tool, pair, key, suggestion);
          continue;
        }
        if (suggestion) {
          ctx.report({ messageId: 'annotationSecondSpelling', data: { key, suggestion, tool }, span: pair.key.span });
          continue;
        }
        const group = `${tool.server.node.span.start}\0${key}`;
        repeated.set(group, [...(repeated.get(group) ?? []), pair]);
        unknownAnnotations.push({ tool, pair, group });
      }
    }
    const reported = new Set<string>();
    for (const { tool, pair, group } of unknownAnnotations) {
      if (reported.has(group)) continue;
      reported.add(group);
      const others = repeated.get(group)!.slice(1);
      ctx.report({
        messageId: 'annotationUnknown',
        data: { key: String(pair.key.value), tool, others: others.length },
        span: pair.key.span,
        related: firstItems(others).shown.map((other) => ({ span: other.key.span, message: 'here too' })),
      });
    }
  },
});

function reportMisspelt(
  ctx: RuleContext<typeof messages>,
  messageId: 'misspelt' | 'annotationMisspelt',
  tool: ToolDecl,
  pair: Pair,
  key: string,
  suggestion: string,
): void {
  const edit = replaceScalarText(editContextOf(ctx.file), pair.key, suggestion);
  ctx.report({
    messageId,
    data: { key, suggestion, tool },
    span: pair.key.span,
    ...(edit ? { fixes: [{ title: `Rename \`${key}\` to \`${suggestion}\``, safe: false, edits: [edit] }] } : {}),
  });
}
