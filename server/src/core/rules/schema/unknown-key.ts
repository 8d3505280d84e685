// schema/unknown-key: a key the document's format does not have. The validation (schema/validate.ts)
// says which key, where, and what it probably meant; the words here say what happens to it at run
// time (which depends on who reads the document) and what to do.
import { headlineFits } from '../../wording/headlines.js';
import { defineRule, reportShare } from '../rule.js';
import { listOf } from '../../text/words.js';
import { DOCUMENT_KINDS, type DocumentKind, type Fix } from '../../types.js';
import { schemaProblemsOf } from '../../structure/validate.js';
import type { UnknownKeyProblem } from '../../structure/problems.js';
import { getString, nodeAtPath, type Node } from '../../parse/nodes.js';
import { refusedAtLoad } from '../../wording/refusalMoments.js';

type Reason<R extends UnknownKeyProblem['reason']> = Extract<UnknownKeyProblem, { reason: R }>;

/** The message of each reason the key is unknown (the validation's problem is the data). */
const messages = {
  misplaced: (problem: Reason<'misplaced'>) => messageOf(problem),
  noSuchFeature: (problem: Reason<'no-such-feature'>) => messageOf(problem),
  /** `consequence`: in a resource, what ToolHive does without the field it meant, a sentence or empty. */
  misspelt: (problem: Reason<'misspelt'> & { consequence: string }) => messageOf(problem, problem.consequence),
  secondSpelling: (problem: Reason<'second-spelling'>) => messageOf(problem),
  unknownKey: (problem: Reason<'unknown'>) => messageOf(problem),
};

export const rule = defineRule({
  id: 'schema/unknown-key',
  defaultSeverity: 'error',
  summary: 'A key the format does not have (`maxRetries`, `failureMode`, ...), with a "did you mean" fix.',
  kinds: DOCUMENT_KINDS,
  messages,
  check(ctx) {
    reportShare(ctx, messages, 'schema/unknown-key', schemaProblemsOf(ctx), (problem) => {
      const fixes = fixesOf(problem);
      const place = { span: problem.span, ...(fixes ? { fixes } : {}) };
      switch (problem.reason) {
        case 'misplaced':
          return { messageId: 'misplaced', data: problem, ...place };
        case 'no-such-feature':
          return { messageId: 'noSuchFeature', data: problem, ...place };
        case 'misspelt':
          return {
            messageId: 'misspelt',
            data: { ...problem, consequence: consequenceOf(problem, ctx.doc.root, ctx.doc.kind) },
            ...place,
          };
        case 'second-spelling':
          return { messageId: 'secondSpelling', data: problem, ...place };
        case 'unknown':
          return { messageId: 'unknownKey', data: problem, ...place };
      }
    });
  },
});

/** Keys that are not misspellings but missing features: what to do instead. */
const NO_SUCH_FIELD: Record<string, string> = {
  failureMode:
    'ToolHive has no `failureMode` field (some of its docs show one): a workflow stops at the first failing step. ' +
    'To go on or retry, set `onError` on each step that may fail (`action: continue` with `defaultResults`, or ' +
    '`action: retry` with `retryCount`).',
  failure_mode:
    'ToolHive has no `failureMode` field: a workflow stops at the first failing step. Set `onError` on each step ' +
    'that may fail (`action: continue` or `action: retry` with `retryCount`).',
};

function messageOf(problem: UnknownKeyProblem, consequence = ''): string {
  const { key } = problem;
  if (problem.reason === 'misplaced') {
    return (
      `\`${problem.place}.${key}\` belongs under \`${problem.belongsUnder}\`: move it to \`${problem.belongsUnder}.${key}\`. ` +
      'It is not a VirtualMCPServer field (some ToolHive docs put it there): Kubernetes prunes it, so it has no effect.'
    );
  }
  const where =
    problem.place === undefined
      ? problem.callLine
        ? 'a field of this call'
        : 'a top-level field'
      : `a field of \`${problem.place}\``;
  const effect = consequence
    ? `${problem.preserved ? PRESERVED_KEPT : PRUNED}: ${consequence}`
    : problem.preserved
      ? PRESERVED
      : effectOf(problem.kind, problem.inFace);
  const why = `${effect.charAt(0).toUpperCase()}${effect.slice(1)}.`;
  // A deep place does not fit on a row beside the key: the headline says "here", the why where.
  const placed = `\`${key}\` is not ${where}`;
  const fits = headlineFits(`${placed}: remove or rename it.`);
  const unknown = fits ? placed : `\`${key}\` is not a field here`;
  const whereWhy = fits ? '' : `It is not ${where}. `;
  switch (problem.reason) {
    case 'no-such-feature':
      return `${unknown}: remove it. ${whereWhy}${why}${Object.hasOwn(NO_SUCH_FIELD, key) ? ` ${NO_SUCH_FIELD[key]!}` : ''}`;
    case 'misspelt': {
      const { suggestion } = problem;
      const note = problem.docMistake
        ? ` Some ToolHive docs and examples write \`${key}\`, but the field is \`${suggestion}\`.`
        : problem.required
          ? ` \`${suggestion}\` is required and missing here.`
          : '';
      return `\`${key}\` is not a field here: did you mean \`${suggestion}\`? It is not ${where}. ${why}${note}`;
    }
    case 'second-spelling':
      return `\`${key}\` looks like a second spelling of \`${problem.suggestion}\`, already set here: remove it. ${placed}. ${why}`;
    case 'unknown': {
      const list = problem.known.length
        ? ` Fields here: ${listOf(
            problem.known.map((k) => `\`${k}\``),
            10,
          )}.`
        : '';
      return `${unknown}: remove or rename it. ${whereWhy}${why}${list}`;
    }
  }
}

function fixesOf(problem: UnknownKeyProblem): Fix[] | undefined {
  if (problem.reason !== 'misspelt' || !problem.rename) return undefined;
  return [{ title: `Rename \`${problem.key}\` to \`${problem.suggestion}\``, safe: false, edits: [problem.rename] }];
}

/**
 * In a resource, what the misspelling costs when the field it meant matters: a pruned key leaves
 * the object without that field, and ToolHive refuses some objects without it. `retry` without
 * `retryCount` counts 0 retries, which config.ValidateStepErrorHandling refuses; a field our schema
 * marks required is refused by the CRD or by the operator. Empty where leaving the field out is
 * allowed (the setting then has no effect) and in a CLI file (whose loader refuses the key itself).
 */
function consequenceOf(problem: Reason<'misspelt'>, root: Node | null, kind: DocumentKind | null): string {
  if (kind !== 'vmcp-server' && kind !== 'vmcp-composite') return '';
  if (problem.suggestion === 'retryCount' && getString(nodeAtPath(root, problem.path), 'action') === 'retry') {
    return `\`retry\` is left without a \`retryCount\`, which ToolHive refuses (it would retry 0 times): ${refusedAtLoad(kind)}`;
  }
  if (problem.required)
    return `\`${problem.suggestion}\` is then missing, and ToolHive refuses the resource without it`;
  return '';
}

/** The start of the effect sentence when the key's loss has a consequence. */
const PRUNED =
  'Kubernetes prunes fields the CRD does not declare (or rejects the object under strict field validation)';
const PRESERVED_KEPT = 'The CRD keeps unknown fields here, but the operator drops it when it reads the resource';

/** A key where the CRD keeps unknown fields (UnknownKeyProblem.preserved): kept, then dropped without a word. */
const PRESERVED =
  'the CRD keeps unknown fields here, so Kubernetes accepts it, but the operator drops it when it reads the resource, so the setting has no effect';

/** What happens to a key the format does not have, by who reads the document. */
function effectOf(kind: DocumentKind, inFace: boolean): string {
  if (inFace) return 'the tool-face format has no such field, so the setting has no effect';
  switch (kind) {
    case 'vmcp-config':
      return "ToolHive's CLI loader refuses a file with a key it does not know, so the whole configuration fails to load";
    case 'vmcp-server':
    case 'vmcp-composite':
      return 'Kubernetes prunes fields the CRD does not declare (or rejects the object under strict field validation), so the setting has no effect';
    case 'tool-catalog':
      return 'the catalog snapshot format has no such field, so Tool Lens ignores it';
    case 'tool-calls':
      return 'a calls file has no such field, so it is ignored';
    case 'mcp-servers':
      return 'the client does not read it, so the setting has no effect';
    default:
      return 'it is not part of the format, so it has no effect';
  }
}
