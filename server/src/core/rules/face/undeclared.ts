// face/undeclared: a face for a tool the server does not list. The runtime only applies faces to
// listed tools, so such a face does nothing: inert, not fatal, hence a warning.
import { facesOf, faceTargetOf } from '../../model/faces.js';
import { toolNamesOf } from '../../catalog/index.js';
import { suggestionBudgetOf } from '../../context.js';
import { closest } from '../../text/suggest.js';
import type { Rule } from '../rule.js';
import { editContextOf } from '../../edit/mappingEdits.js';
import { listOf } from '../../text/words.js';
import { quote, replaceScalarFix } from '../../wording/faceWords.js';
import { FACE_KINDS } from '../../types.js';

export const rule: Rule = {
  id: 'face/undeclared',
  defaultSeverity: 'warning',
  summary: 'A face for a tool the server does not list (inert).',
  kinds: FACE_KINDS,
  check(ctx) {
    for (const server of facesOf(ctx).servers) {
      const faced = new Set(server.faces.map((f) => f.toolName));
      for (const face of server.faces) {
        const target = faceTargetOf(ctx, server, face);
        if (target.state !== 'undeclared') continue;
        const names = toolNamesOf(target.server);
        const guess = face.toolName === '' ? undefined : closest(face.toolName, names, { budget: suggestionBudgetOf(ctx) });
        // Renaming the key to a tool that already has a face would make a duplicate key: say so, no fix.
        const fixable = guess !== undefined && !faced.has(guess);
        const serverName = quote(target.serverName);
        const what =
          face.toolName === ''
            ? `This face has an empty tool name, and server ${serverName} lists no such tool`
            : target.dynamicIn.length
              ? `Server ${serverName} serves ${quote(face.toolName)} only through the dynamic namespace ${listOf(target.dynamicIn.map(quote))}, not in its tool list`
              : `Server ${serverName} does not list a tool ${quote(face.toolName)}`;
        const headline =
          face.toolName === ''
            ? 'This face has an empty tool name: key it by a listed tool, or remove it.'
            : target.dynamicIn.length
              ? `${quote(face.toolName)} is not a listed tool: key the face by one, or remove it.`
              : `No listed tool ${quote(face.toolName)}: ${guess ? `did you mean ${quote(guess)}?` : 'key the face by a listed tool, or remove it.'}`;
        const advice = guess
          ? fixable
            ? ''
            : ` ${quote(guess)} already has a face in this map: merge the two.`
          : ` Key the face by a tool name exactly as the server lists it (${listOf(names) || 'it lists none'}), or remove it.`;
        ctx.report({
          message: `${headline} ${what}: the runtime applies faces only to listed tools, so this face is inert and protects nothing.${advice}`,
          span: face.key.span,
          fixes: fixable ? replaceScalarFix(editContextOf(ctx.file), face.key, guess) : [],
        });
      }
    }
  },
};
