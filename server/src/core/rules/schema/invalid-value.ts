// schema/invalid-value: a value of the right type that the schema refuses: outside an enum, a
// pattern, a range or a format, too short or too long, or an object of none of the accepted shapes.
// The validation (schema/validate.ts) says which check failed, with its limit or allowed values and
// the closest allowed one; the words here say what is wrong, what follows and what is expected.
import { defineRule, reportShare } from '../rule.js';
import { isScalar } from '../../parse/nodes.js';
import { ensurePeriod, lowerFirst } from '../../text/words.js';
import { capitalize, counted, listOf } from '../../text/words.js';
import { DOCUMENT_KINDS, type DocumentKind, type Fix } from '../../types.js';
import { schemaProblemsOf } from '../../structure/validate.js';
import type { InvalidValueProblem } from '../../structure/problems.js';
import { firstSentence, headlineFits } from '../../wording/headlines.js';

type Keyword<K extends InvalidValueProblem['keyword']> = Extract<InvalidValueProblem, { keyword: K }>;
type Limited = Extract<InvalidValueProblem, { limit: number }>;

/** The message of each kind of check the value fails (the validation's problem is the data). */
const messages = {
  notInEnum: (problem: Keyword<'enum'>) => messageOf(problem),
  notConst: (problem: Keyword<'const'>) => messageOf(problem),
  noPatternMatch: (problem: Keyword<'pattern'>) => messageOf(problem),
  badFormat: (problem: Keyword<'format'>) => messageOf(problem),
  /** A bound: `minimum`, `maximum` and their exclusive forms. */
  outOfRange: (problem: Limited) => messageOf(problem),
  /** A string's `minLength` or `maxLength`. */
  badLength: (problem: Limited) => messageOf(problem),
  /** A list's `minItems` or `maxItems`, an object's `minProperties` or `maxProperties`. */
  badCount: (problem: Limited) => messageOf(problem),
  noShape: (problem: Extract<InvalidValueProblem, { keyword: 'not' | 'anyOf' | 'oneOf' }>) => messageOf(problem),
  other: (problem: Keyword<'other'>) => messageOf(problem),
};

export const rule = defineRule({
  id: 'schema/invalid-value',
  defaultSeverity: 'error',
  summary: 'A value outside an enum, pattern, range or format.',
  kinds: DOCUMENT_KINDS,
  messages,
  check(ctx) {
    reportShare(ctx, messages, 'schema/invalid-value', schemaProblemsOf(ctx), (problem) => {
      const fixes = fixesOf(problem);
      const place = { span: problem.span, ...(fixes ? { fixes } : {}) };
      switch (problem.keyword) {
        case 'enum':
          return { messageId: 'notInEnum', data: problem, ...place };
        case 'const':
          return { messageId: 'notConst', data: problem, ...place };
        case 'pattern':
          return { messageId: 'noPatternMatch', data: problem, ...place };
        case 'format':
          return { messageId: 'badFormat', data: problem, ...place };
        case 'minimum':
        case 'maximum':
        case 'exclusiveMinimum':
        case 'exclusiveMaximum':
          return { messageId: 'outOfRange', data: problem, ...place };
        case 'minLength':
        case 'maxLength':
          return { messageId: 'badLength', data: problem, ...place };
        case 'minItems':
        case 'maxItems':
        case 'minProperties':
        case 'maxProperties':
          return { messageId: 'badCount', data: problem, ...place };
        case 'not':
        case 'anyOf':
        case 'oneOf':
          return { messageId: 'noShape', data: problem, ...place };
        case 'other':
          return { messageId: 'other', data: problem, ...place };
      }
    });
  },
});

/** What a pattern asks for, in words, where the schema's description says something else. */
const PATTERN_EXPECTED: Record<string, string> = {
  'WorkflowStep/properties/tool':
    'a tool reference that starts with a letter or digit and holds only letters, digits, `.`, `_` and `-`, such as `github.create_pr`.',
  'ForEachInnerStep/properties/tool':
    'a tool reference that starts with a letter or digit and holds only letters, digits, `.`, `_` and `-`, such as `github.create_pr`.',
  'WorkflowStep/properties/itemVar':
    'a Go identifier (letters, digits and `_`, not starting with a digit) other than `index`, which is taken by the loop index.',
  'ForEachInnerStep/properties/itemVar':
    'a Go identifier (letters, digits and `_`, not starting with a digit) other than `index`.',
  'KeysVirtualMCPServerSpec/properties/authServerConfig/properties/issuer':
    'an http(s) URL with no query, fragment or trailing slash, such as `https://auth.example.com`.',
  'KeysVirtualMCPServerSpec/properties/authServerConfig/properties/authorizationEndpointBaseUrl':
    'an http(s) URL with no query, fragment or trailing slash, such as `https://auth.example.com`.',
  'KeysVirtualMCPServerSpec/properties/authServerConfig/properties/upstreamProviders/items/properties/name':
    'a DNS label: lower-case letters, digits and `-`, starting and ending with a letter or digit.',
  'KeysVirtualMCPServerSpec/properties/authServerConfig/properties/primaryUpstreamProvider':
    'a DNS label: lower-case letters, digits and `-`, starting and ending with a letter or digit.',
};

const RELATION = {
  minimum: 'at least',
  maximum: 'at most',
  exclusiveMinimum: 'more than',
  exclusiveMaximum: 'less than',
} as const;

function messageOf(problem: InvalidValueProblem): string {
  const field = problem.field ?? 'the document';
  const shown = isScalar(problem.node) ? JSON.stringify(problem.node.value) : undefined;
  const effect = problem.byCrd ? CRD_REFUSES : effectOf(problem.kind, problem.inFace);
  // The headline says what the value must be; what ToolHive or Kubernetes does with it follows.
  const why = ` ${capitalize(effect)}.`;
  const invalid = `${shown ?? 'This value'} is not a valid \`${field}\``;
  switch (problem.keyword) {
    case 'enum': {
      const allowed = listOf(
        problem.allowed.map((a) => `\`${a}\``),
        10,
      );
      if (problem.suggestion) {
        const guess = `: did you mean \`${problem.suggestion}\`?`;
        // A long value and its long neighbour do not fit on one row: the field and the guess do.
        const headline = headlineFits(`${invalid}${guess}`)
          ? `${invalid}${guess}`
          : `This value is not a valid \`${field}\`${guess}`;
        return `${headline}${why} Allowed: ${allowed}.`;
      }
      const short = `${invalid}: use ${problem.allowed.length === 1 ? allowed : `one of ${allowed}`}.`;
      return headlineFits(short)
        ? `${short}${why}`
        : `${invalid}: use one of the values allowed.${why} Allowed: ${allowed}.`;
    }
    case 'const':
      return `\`${field}\` must be \`${problem.allowed}\`${shown ? `, not ${shown}` : ''}.${why}`;
    case 'pattern': {
      const { schemaName, description } = problem;
      const known =
        schemaName !== undefined && Object.hasOwn(PATTERN_EXPECTED, schemaName)
          ? PATTERN_EXPECTED[schemaName]
          : undefined;
      const expected = known ?? (description ? ensurePeriod(lowerFirst(description)) : undefined);
      if (!expected) return `${invalid}: fix it.${why}`;
      const short = `${invalid}: write ${expected}`;
      return headlineFits(firstSentence(short)) && firstSentence(short) === short
        ? `${short}${why}`
        : `${invalid}: write it in the expected form.${why} Expected: ${expected}`;
    }
    case 'format':
      return `${shown ?? 'This value'} is not a valid ${problem.format} for \`${field}\`: write a valid one.${why}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `\`${field}\` must be ${RELATION[problem.keyword]} ${problem.limit}, not ${shown ?? 'this'}.${why}`;
    case 'minLength':
      return problem.limit === 1
        ? `\`${field}\` must not be empty.${why}`
        : `\`${field}\` must be at least ${problem.limit} characters long.${why}`;
    case 'maxLength':
      return `\`${field}\` must be at most ${problem.limit} characters long.${why}`;
    case 'minItems':
      return `\`${field}\` must list at least ${counted(problem.limit, 'item')}.${why}`;
    case 'maxItems':
      return `\`${field}\` may list at most ${problem.limit} items.${why}`;
    case 'minProperties':
      return `\`${field}\` must have at least ${counted(problem.limit, 'entry', 'entries')}.${why}`;
    case 'maxProperties':
      return `\`${field}\` may have at most ${counted(problem.limit, 'entry', 'entries')}.${why}`;
    case 'not':
    case 'anyOf':
    case 'oneOf': {
      const text =
        problem.description ??
        `${capitalize(subjectOf(problem))} does not have any of the accepted shapes: give it one.`;
      return `${ensurePeriod(text)}${why}`;
    }
    case 'other':
      return `${capitalize(subjectOf(problem))}: ${problem.detail ?? 'invalid value'}.${why}`;
  }
}

function fixesOf(problem: InvalidValueProblem): Fix[] | undefined {
  if (problem.keyword === 'enum' && problem.edit && problem.suggestion) {
    return [{ title: `Change to \`${problem.suggestion}\``, safe: false, edits: [problem.edit] }];
  }
  if (problem.keyword === 'const' && problem.edit)
    return [{ title: `Change to \`${problem.allowed}\``, safe: false, edits: [problem.edit] }];
  return undefined;
}

/** The object: its place, or the document (a JSONL line is one call). */
function subjectOf(problem: InvalidValueProblem): string {
  if (problem.place !== undefined) return `\`${problem.place}\``;
  return problem.callLine ? 'this call' : 'the document';
}

/** A value only the CRD's schema refuses (InvalidValueProblem.byCrd). */
const CRD_REFUSES = "the CRD's schema refuses it, so the API server rejects the resource when it is applied";

/** What a refused value does at run time, by who reads the document. */
function effectOf(kind: DocumentKind, inFace: boolean): string {
  if (inFace) return 'the runtime cannot apply the face as written';
  switch (kind) {
    case 'vmcp-config':
      return 'ToolHive refuses the configuration';
    case 'vmcp-server':
    case 'vmcp-composite':
      return 'the resource is rejected (by the CRD validation or by the operator)';
    case 'tool-catalog':
      return 'Tool Lens cannot use it as written';
    case 'tool-calls':
      return 'Tool Lens cannot tell what the entry calls, so it checks nothing in it';
    case 'mcp-servers':
      return 'the client cannot use this entry as written';
    default:
      return 'it cannot be used as written';
  }
}
