// face/reserved-card: `plan` and `question` cards belong to the runtime's own tools; an MCP tool's
// face may not claim them. Needs no catalog.
import { RESERVED_APPROVAL_CARDS, type ToolApprovalCard } from '../../faceVocabulary/constants.js';
import { facesOf } from '../../model/faces.js';
import { defineRule } from '../rule.js';
import { editContextOf } from '../../edit/mappingEdits.js';
import { quote, refusesToMount, replaceScalarFix } from '../../wording/faceWords.js';
import { FACE_KINDS } from '../../types.js';

export const rule = defineRule({
  id: 'face/reserved-card',
  defaultSeverity: 'error',
  summary: 'A reserved approval card on an MCP tool.',
  kinds: FACE_KINDS,
  messages: {
    reservedCard: ({ card, toolName }: { card: string; toolName: string }) =>
      `Approval card ${quote(card)} is reserved for the runtime: use the "generic" card. ` +
      `It is the runtime's own ${card} tool's card; an MCP tool may not ` +
      `present itself that way, so ${refusesToMount(toolName)}.`,
  },
  check(ctx) {
    for (const server of facesOf(ctx).servers) {
      for (const face of server.faces) {
        const card = face.renderHints?.approvalCard;
        if (!card || !(RESERVED_APPROVAL_CARDS as readonly string[]).includes(card.value)) continue;
        const reserved = card.value as ToolApprovalCard;
        ctx.report({
          messageId: 'reservedCard',
          data: { card: reserved, toolName: face.toolName },
          span: card.node.span,
          fixes: replaceScalarFix(editContextOf(ctx.file), card.node, 'generic', 'Use the "generic" card'),
        });
      }
    }
  },
});
