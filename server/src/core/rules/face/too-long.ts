// face/too-long: a render hint or list over its bound, or a parameter name longer than a tool key
// may be. Needs no catalog. No fix: only the user can say what to cut.
import {
  charCount,
  RENDER_HINT_ACTIVITY_MAX_CHARS,
  RENDER_HINT_MAX_CHARS,
  RENDER_HINT_MAX_LIST,
  TOOL_KEY_MAX_CHARS,
} from '../../faceVocabulary/constants.js';
import { facesOf, namedParams, type Face, type FaceList, type FaceString } from '../../model/faces.js';
import { defineRule, type RuleContext } from '../rule.js';
import { refusedToMount, refusesToMount } from '../../wording/faceWords.js';
import { FACE_KINDS } from '../../types.js';

const messages = {
  /** `field`: where the parameter is named; `length`: the name's length. */
  paramName: ({ field, length, toolName }: { field: string; length: number; toolName: string }) =>
    `${field} names a parameter of ${length} characters, over ${TOOL_KEY_MAX_CHARS}: name a property with a shorter name. ` +
    `Parameter names in a face may have at most ` +
    `${TOOL_KEY_MAX_CHARS}, so ${refusesToMount(toolName)}.`,
  text: ({ field, length, max, toolName }: { field: string; length: number; max: number; toolName: string }) =>
    `${field} is ${length} characters long, over its bound of ${max}: shorten it to ${max} or fewer. ${refusedToMount(toolName)}`,
  list: ({ field, entries, toolName }: { field: string; entries: number; toolName: string }) =>
    `${field} has ${entries} entries, over its bound of ${RENDER_HINT_MAX_LIST}: keep the ${RENDER_HINT_MAX_LIST} that matter most. ` +
    `This is the first one over. ${refusedToMount(toolName)}`,
};

export const rule = defineRule({
  id: 'face/too-long',
  defaultSeverity: 'error',
  summary: 'A face name, hint or list over its bound.',
  kinds: FACE_KINDS,
  messages,
  check(ctx) {
    for (const server of facesOf(ctx).servers) {
      for (const face of server.faces) {
        checkString(ctx, face, 'renderHints.userFacingName', face.renderHints?.userFacingName, RENDER_HINT_MAX_CHARS);
        checkString(ctx, face, 'renderHints.activity', face.renderHints?.activity, RENDER_HINT_ACTIVITY_MAX_CHARS);
        checkList(ctx, face, 'renderHints.summaryParams', face.renderHints?.summaryParams);
        checkList(ctx, face, 'renderHints.resultCards', face.renderHints?.resultCards);
        for (const param of namedParams(face)) {
          const length = charCount(param.value);
          if (length <= TOOL_KEY_MAX_CHARS) continue;
          ctx.report({
            messageId: 'paramName',
            data: { field: param.field, length, toolName: face.toolName },
            span: param.node.span,
          });
        }
      }
    }
  },
});

function checkString(
  ctx: RuleContext<typeof messages>,
  face: Face,
  field: string,
  value: FaceString | undefined,
  max: number,
): void {
  if (!value) return;
  const length = charCount(value.value);
  if (length <= max) return;
  ctx.report({
    messageId: 'text',
    data: { field, length, max, toolName: face.toolName },
    span: value.node.span,
  });
}

function checkList(ctx: RuleContext<typeof messages>, face: Face, field: string, list: FaceList | undefined): void {
  if (!list || list.node.items.length <= RENDER_HINT_MAX_LIST) return;
  const firstExtra = list.node.items[RENDER_HINT_MAX_LIST]!;
  ctx.report({
    messageId: 'list',
    data: { field, entries: list.node.items.length, toolName: face.toolName },
    span: firstExtra.span,
  });
}
