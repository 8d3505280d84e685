// face/unknown-param: a parameter a face names (pathTarget.param, patternParam, summaryParams,
// ruleFace entries) that is not a top-level property of the tool's input schema. Aliases are
// other names the runtime accepts for the path, so they need not be properties.
// Also, once per server without a catalog, the `info` that says which checks wait for one.
import { addCatalogAdvice } from '../../wording/catalogAdvice.js';
import type { TopLevelProperties } from '../../jsonschema/properties.js';
import { catalogServerOf, faceTargetOf, facesOf, pathTargetNames, type Face } from '../../model/faces.js';
import type { ScalarNode } from '../../parse/nodes.js';
import { suggestionBudgetOf } from '../../context.js';
import { closest } from '../../text/suggest.js';
import { defineRule, type RuleContext } from '../rule.js';
import { editContextOf } from '../../edit/mappingEdits.js';
import { listOf } from '../../text/words.js';
import { quote, refusesToMount, replaceScalarFix } from '../../wording/faceWords.js';
import { FACE_KINDS } from '../../types.js';

/** A face field naming a parameter the tool lacks: `names` are the tool's top-level properties, `guess` the one probably meant. */
interface UnknownParam {
  field: string;
  value: string;
  tool: string;
  names: readonly string[];
  guess: string | undefined;
}

function known(names: readonly string[]): string {
  return names.length
    ? `its top-level properties are ${listOf(names)}`
    : 'its input schema declares no top-level properties';
}

const messages = {
  noCatalog: ({ server }: { server: string }) =>
    `No catalog for server ${quote(server)}: add one to check these faces fully. ` +
    `The face checks that need its tools' input schemas wait: ` +
    `named parameters (pathTarget.param, patternParam, summaryParams, ruleFace), the parameters each approval card needs, ` +
    `and faces for tools the server does not list. The other face checks ran. ${addCatalogAdvice(server)}`,
  /** The schema may declare properties Tool Lens cannot list (anyOf, oneOf, a remote $ref). */
  notSeen: (data: UnknownParam) =>
    `${data.field} ${quote(data.value)} is not a property Tool Lens sees: check that the tool has it. ` +
    `It is not among the properties Tool Lens can see for ${quote(data.tool)} (${known(data.names)}), but the schema ` +
    `may declare more through anyOf, oneOf or a remote $ref. If ${quote(data.tool)} has no top-level property ${quote(data.value)}, ` +
    `${refusesToMount(data.tool)}.`,
  /** `pathOk`: the field may also name the path target. */
  notAProperty: (data: UnknownParam & { pathOk: boolean }) => {
    const problem = data.pathOk
      ? `It is neither a top-level property of ${quote(data.tool)} (${known(data.names)}) nor the path target (pathTarget.param or an alias)`
      : `It is not a top-level property of ${quote(data.tool)} (${known(data.names)})`;
    const advice = data.guess ? `did you mean ${quote(data.guess)}?` : 'name one of its top-level properties.';
    return `${data.field} ${quote(data.value)} is not a property of the tool: ${advice} ${problem}: ${refusesToMount(data.tool)}.`;
  },
};

export const rule = defineRule({
  id: 'face/unknown-param',
  defaultSeverity: 'error',
  summary: 'A face names a parameter that is not a top-level property of the tool.',
  kinds: FACE_KINDS,
  messages,
  check(ctx) {
    for (const server of facesOf(ctx).servers) {
      if (server.faces.length === 0) continue;
      if (server.name !== undefined && !catalogServerOf(ctx, server) && server.toolFacesPair) {
        ctx.report({
          severity: 'info',
          messageId: 'noCatalog',
          data: { server: server.name },
          span: server.toolFacesPair.key.span,
        });
        continue;
      }
      for (const face of server.faces) {
        const target = faceTargetOf(ctx, server, face);
        if (target.state === 'listed') checkFace(ctx, face, target.properties);
      }
    }
  },
});

function checkFace(ctx: RuleContext<typeof messages>, face: Face, properties: TopLevelProperties): void {
  const pathNames = pathTargetNames(face);
  const one = (field: string, node: ScalarNode, value: string, pathOk: boolean) => {
    if (properties.properties.has(value) || (pathOk && pathNames.has(value))) return;
    report(ctx, face, field, node, value, properties, pathOk);
  };
  const target = face.pathTarget;
  if (target?.param) one('pathTarget.param', target.param.node, target.param.value, false);
  if (target?.patternParam) one('pathTarget.patternParam', target.patternParam.node, target.patternParam.value, false);
  for (const entry of face.renderHints?.summaryParams?.entries ?? [])
    one('renderHints.summaryParams', entry.node, entry.value, false);
  for (const entry of face.ruleFace?.params?.entries ?? []) one('ruleFace.params', entry.node, entry.value, true);
  for (const entry of face.ruleFace?.primaryParams?.entries ?? [])
    one('ruleFace.primaryParams', entry.node, entry.value, true);
}

/** The property names of a schema, made once per schema (a face may name many unknown ones). */
const propertyNames = new WeakMap<TopLevelProperties, string[]>();

function report(
  ctx: RuleContext<typeof messages>,
  face: Face,
  field: string,
  node: ScalarNode,
  value: string,
  properties: TopLevelProperties,
  pathOk: boolean,
): void {
  let names = propertyNames.get(properties);
  if (!names) propertyNames.set(properties, (names = [...properties.properties.keys()]));
  const guess = closest(value, names, { budget: suggestionBudgetOf(ctx) });
  const data = { field, value, tool: face.toolName, names, guess };
  if (properties.open) {
    // The schema may declare properties we cannot list (anyOf, oneOf, a remote $ref): say so, softly.
    ctx.report({
      severity: 'info',
      messageId: 'notSeen',
      data,
      span: node.span,
      fixes: guess ? replaceScalarFix(editContextOf(ctx.file), node, guess) : [],
    });
    return;
  }
  ctx.report({
    messageId: 'notAProperty',
    data: { ...data, pathOk },
    span: node.span,
    fixes: guess ? replaceScalarFix(editContextOf(ctx.file), node, guess) : [],
  });
}
