// face/inconsistent: path-target fields that cannot go together, and ruleFace entries that name a
// property rules cannot match on. The first three need no catalog.
import { facesOf, faceTargetOf, pathTargetNames, type Face, type FaceList } from '../../model/faces.js';
import type { TopLevelProperties } from '../../jsonschema/properties.js';
import { getPair } from '../../parse/nodes.js';
import { defineRule, type RuleContext } from '../rule.js';
import { editContextOf } from '../../edit/mappingEdits.js';
import { quote, refusesToMount, replaceScalarFix } from '../../wording/faceWords.js';
import { FACE_KINDS } from '../../types.js';

const messages = {
  rootBaseWritten: ({ tool }: { tool: string }) =>
    `pathTarget.base "root" needs access "read": use base "cwd", or access "read" if the tool only reads. ` +
    `This path is written, and the write guards resolve targets against the ` +
    `working directory only, so ${refusesToMount(tool)}.`,
  absentBaseWritten: ({ tool }: { tool: string }) =>
    `pathTarget.absent "base" needs access "read": use absent "refuse" for a written path. ` +
    `This path is written, and an empty path would mean "search from the ` +
    `base", which only reading has, so ${refusesToMount(tool)}. With absent "refuse" a call without a path is refused.`,
  /** `absentWritten`: pathTarget.absent is set (to "refuse"); else it is not set. */
  patternWithoutBase: ({ pattern, absentWritten, tool }: { pattern: string; absentWritten: boolean; tool: string }) =>
    `pathTarget.patternParam needs absent "base": set it (read access only), or remove patternParam. ` +
    `${quote(pattern)} only works with absent "base" (a pattern searches ` +
    `within the base when the path is empty), but ${absentWritten ? 'absent is "refuse"' : 'absent is not set'}, so the pattern could never apply; the runtime takes that for a ` +
    `broken face: ${refusesToMount(tool)}.`,
  /** `field`: the rule-face list; `type`: the property's type in words. */
  notScalar: ({ field, property, type, tool }: { field: string; property: string; type: string; tool: string }) =>
    `${field} ${quote(property)} is not a scalar property: remove it, or name a scalar one. ` +
    `It names a property of ${quote(tool)} whose type is ${type}: rules match ` +
    `only on scalar values (string, number, integer, boolean) or on the path target, so ${refusesToMount(tool)}.`,
};

export const rule = defineRule({
  id: 'face/inconsistent',
  defaultSeverity: 'error',
  summary:
    'Path access, base, absent and patternParam that cannot go together, or a ruleFace entry rules cannot match on.',
  kinds: FACE_KINDS,
  messages,
  check(ctx) {
    for (const server of facesOf(ctx).servers) {
      for (const face of server.faces) {
        checkPathTarget(ctx, face);
        const target = faceTargetOf(ctx, server, face);
        if (target.state === 'listed') {
          checkRuleFace(ctx, face, face.ruleFace?.params, 'ruleFace.params', target.properties);
          checkRuleFace(ctx, face, face.ruleFace?.primaryParams, 'ruleFace.primaryParams', target.properties);
        }
      }
    }
  },
});

function checkPathTarget(ctx: RuleContext<typeof messages>, face: Face): void {
  const target = face.pathTarget;
  if (!target) return;
  const edit = editContextOf(ctx.file);
  // Only a known access other than read conflicts; a missing or misspelt one is another rule's.
  const access = target.access?.value;
  const writes = access === 'write';
  const tool = face.toolName;
  if (writes && target.base?.value === 'root') {
    ctx.report({
      messageId: 'rootBaseWritten',
      data: { tool },
      span: target.base.node.span,
      fixes: replaceScalarFix(edit, target.base.node, 'cwd', 'Use base "cwd"'),
      related: target.access ? [{ span: target.access.node.span, message: 'the access that conflicts' }] : undefined,
    });
  }
  if (writes && target.absent?.value === 'base') {
    ctx.report({
      messageId: 'absentBaseWritten',
      data: { tool },
      span: target.absent.node.span,
      fixes: replaceScalarFix(edit, target.absent.node, 'refuse', 'Use absent "refuse"'),
      related: target.access ? [{ span: target.access.node.span, message: 'the access that conflicts' }] : undefined,
    });
  }
  const absent = target.absent?.value;
  const absentWritten = getPair(target.node, 'absent') !== undefined;
  if (target.patternParam && (!absentWritten || absent === 'refuse')) {
    ctx.report({
      messageId: 'patternWithoutBase',
      data: { pattern: target.patternParam.value, absentWritten, tool },
      span: target.patternParam.node.span,
      // Switching refuse to base is only right when the access allows it.
      fixes:
        absent === 'refuse' && access === 'read' && target.absent
          ? replaceScalarFix(edit, target.absent.node, 'base', 'Use absent "base"')
          : [],
    });
  }
}

function checkRuleFace(
  ctx: RuleContext<typeof messages>,
  face: Face,
  list: FaceList | undefined,
  field: string,
  properties: TopLevelProperties,
): void {
  const pathNames = pathTargetNames(face);
  for (const entry of list?.entries ?? []) {
    const property = properties.properties.get(entry.value);
    // Not a property at all is face/unknown-param's finding; the path target is always allowed.
    if (!property || property.scalar || pathNames.has(entry.value)) continue;
    ctx.report({
      messageId: 'notScalar',
      data: { field, property: entry.value, type: property.typeText, tool: face.toolName },
      span: entry.node.span,
    });
  }
}
