// face/reserved-card: `plan` and `question` cards belong to the runtime's own tools; an MCP tool's
// face may not claim them. Needs no catalog.
import { RESERVED_APPROVAL_CARDS, type ToolApprovalCard } from '../../faces/constants.js';
import { facesOf } from '../../model/faces.js';
import type { Rule } from '../rule.js';
import { editContextOf } from '../../edit/mappingEdits.js';
import { quote, refusesToMount, replaceScalarFix } from '../../wording/faceWords.js';
import { FACE_KINDS } from '../../types.js';

export const rule: Rule = {
  id: 'face/reserved-card',
  defaultSeverity: 'error',
  summary: 'A reserved approval card on an MCP tool.',
  kinds: FACE_KINDS,
  check(ctx) {
    for (const server of facesOf(ctx).servers) {
      for (const face of server.faces) {
        const card = face.renderHints?.approvalCard;
        if (!card || !(RESERVED_APPROVAL_CARDS as readonly string[]).includes(card.value)) continue;
        const reserved = card.value as ToolApprovalCard;
        ctx.report({
          message:
            `Approval card ${quote(reserved)} is reserved for the runtime: use the "generic" card. ` +
            `It is the runtime's own ${reserved} tool's card; an MCP tool may not ` +
            `present itself that way, so ${refusesToMount(face.toolName)}.`,
          span: card.node.span,
          fixes: replaceScalarFix(editContextOf(ctx.file), card.node, 'generic', 'Use the "generic" card'),
        });
      }
    }
  },
};
