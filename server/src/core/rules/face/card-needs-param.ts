// face/card-needs-param: an approval card that reads schema properties the tool does not have
// (file-edit and file-write need file_path, notebook-edit notebook_path, shell command, fetch url).
import { isApprovalCard, TOOL_APPROVAL_CARDS } from '../../faceVocabulary/constants.js';
import { facesOf, faceTargetOf } from '../../model/faces.js';
import { defineRule } from '../rule.js';
import { editContextOf } from '../../edit/mappingEdits.js';
import { listOf } from '../../text/words.js';
import { quote, refusesToMount, replaceScalarFix } from '../../wording/faceWords.js';
import { FACE_KINDS } from '../../types.js';

export const rule = defineRule({
  id: 'face/card-needs-param',
  defaultSeverity: 'error',
  summary: 'The approval card needs schema properties the tool lacks.',
  kinds: FACE_KINDS,
  messages: {
    /** `names`: the arguments the card shows that the tool lacks, quoted; `tool`: the tool, quoted. */
    paramNotSeen: ({ card, names, tool, toolName }: { card: string; names: string; tool: string; toolName: string }) =>
      `Approval card ${quote(card)} needs ${names}, which Tool Lens cannot see: check the tool has it. ` +
      `Tool Lens cannot find it among the properties of ${tool} ` +
      `it can see (the schema declares more through anyOf, oneOf or a remote $ref). If ${tool} has no such top-level property, ${refusesToMount(toolName)}.`,
    /** `properties`: the tool's top-level properties. */
    paramMissing: ({
      card,
      names,
      tool,
      toolName,
      properties,
    }: {
      card: string;
      names: string;
      tool: string;
      toolName: string;
      properties: string[];
    }) =>
      `Approval card ${quote(card)} needs ${names}, which the tool lacks: use the "generic" card. ` +
      `The card shows the ${names} argument, but ${tool} has no top-level property ${names} ` +
      `(its properties: ${listOf(properties) || 'none'}): the card cannot be drawn, so ${refusesToMount(toolName)}. ` +
      `Use the "generic" card, or a card whose arguments the tool has.`,
  },
  check(ctx) {
    for (const server of facesOf(ctx).servers) {
      for (const face of server.faces) {
        const card = face.renderHints?.approvalCard;
        if (!card || !isApprovalCard(card.value)) continue;
        const needs: readonly string[] = TOOL_APPROVAL_CARDS[card.value];
        if (needs.length === 0) continue;
        const target = faceTargetOf(ctx, server, face);
        if (target.state !== 'listed') continue;
        const missing = needs.filter((name) => !target.properties.properties.has(name));
        if (missing.length === 0) continue;
        const names = missing.map(quote).join(' and ');
        const tool = quote(face.toolName);
        const open = target.properties.open;
        ctx.report({
          // A schema that declares properties we cannot list might have them: info, not error.
          severity: open ? 'info' : undefined,
          ...(open
            ? { messageId: 'paramNotSeen' as const, data: { card: card.value, names, tool, toolName: face.toolName } }
            : {
                messageId: 'paramMissing' as const,
                data: {
                  card: card.value,
                  names,
                  tool,
                  toolName: face.toolName,
                  properties: [...target.properties.properties.keys()],
                },
              }),
          span: card.node.span,
          fixes: replaceScalarFix(editContextOf(ctx.file), card.node, 'generic', 'Use the "generic" card'),
        });
      }
    }
  },
});
