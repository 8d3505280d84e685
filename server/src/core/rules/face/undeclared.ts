// face/undeclared: a face for a tool the server does not list. The runtime only applies faces to
// listed tools, so such a face does nothing: inert, not fatal, hence a warning.
import { facesOf, faceTargetOf } from '../../model/faces.js';
import { toolNamesOf } from '../../catalog/index.js';
import { suggestionBudgetOf } from '../../context.js';
import { closest } from '../../text/suggest.js';
import { defineRule } from '../rule.js';
import { editContextOf } from '../../edit/mappingEdits.js';
import { listOf } from '../../text/words.js';
import { quote, replaceScalarFix } from '../../wording/faceWords.js';
import { FACE_KINDS } from '../../types.js';

/**
 * A face keyed by a tool its server does not list: `guess` is the listed tool probably meant,
 * `fixable` when no other face has it yet; `names` are the tools the server lists.
 */
interface Undeclared {
  tool: string;
  server: string;
  guess: string | undefined;
  fixable: boolean;
  names: readonly string[];
}

/** The headline, what is wrong, why it matters, and what to do. */
function undeclared(headline: string, what: string, { guess, fixable, names }: Undeclared): string {
  const advice = guess
    ? fixable
      ? ''
      : ` ${quote(guess)} already has a face in this map: merge the two.`
    : ` Key the face by a tool name exactly as the server lists it (${listOf(names) || 'it lists none'}), or remove it.`;
  return `${headline} ${what}: the runtime applies faces only to listed tools, so this face is inert and protects nothing.${advice}`;
}

const messages = {
  emptyName: (data: Undeclared) =>
    undeclared(
      'This face has an empty tool name: key it by a listed tool, or remove it.',
      `This face has an empty tool name, and server ${quote(data.server)} lists no such tool`,
      data,
    ),
  /** `dynamicIn`: the dynamic namespaces that serve the tool. */
  dynamicOnly: (data: Undeclared & { dynamicIn: readonly string[] }) =>
    undeclared(
      `${quote(data.tool)} is not a listed tool: key the face by one, or remove it.`,
      `Server ${quote(data.server)} serves ${quote(data.tool)} only through the dynamic namespace ${listOf(data.dynamicIn.map(quote))}, not in its tool list`,
      data,
    ),
  notListed: (data: Undeclared) =>
    undeclared(
      `No listed tool ${quote(data.tool)}: ${data.guess ? `did you mean ${quote(data.guess)}?` : 'key the face by a listed tool, or remove it.'}`,
      `Server ${quote(data.server)} does not list a tool ${quote(data.tool)}`,
      data,
    ),
};

export const rule = defineRule({
  id: 'face/undeclared',
  defaultSeverity: 'warning',
  summary: 'A face for a tool the server does not list (inert).',
  kinds: FACE_KINDS,
  messages,
  check(ctx) {
    for (const server of facesOf(ctx).servers) {
      const faced = new Set(server.faces.map((f) => f.toolName));
      for (const face of server.faces) {
        const target = faceTargetOf(ctx, server, face);
        if (target.state !== 'undeclared') continue;
        const names = toolNamesOf(target.server);
        const guess =
          face.toolName === '' ? undefined : closest(face.toolName, names, { budget: suggestionBudgetOf(ctx) });
        // Renaming the key to a tool that already has a face would make a duplicate key: say so, no fix.
        const fixable = guess !== undefined && !faced.has(guess);
        const data = { tool: face.toolName, server: target.serverName, guess, fixable, names };
        const place = {
          span: face.key.span,
          fixes: fixable ? replaceScalarFix(editContextOf(ctx.file), face.key, guess) : [],
        };
        if (face.toolName === '') ctx.report({ messageId: 'emptyName', data, ...place });
        else if (target.dynamicIn.length)
          ctx.report({ messageId: 'dynamicOnly', data: { ...data, dynamicIn: target.dynamicIn }, ...place });
        else ctx.report({ messageId: 'notListed', data, ...place });
      }
    }
  },
});
