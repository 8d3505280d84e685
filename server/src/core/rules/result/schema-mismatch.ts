// result/schema-mismatch: recorded structuredContent that does not validate against the called
// tool's outputSchema (the dynamic tool's, for an envelope), in the schema's own dialect. Every
// failing place is reported at its own range; `isError: true` results are exempt. An explicit
// `structuredContent: null` is validated like any other value.
import { issueWords, pathText } from '../../jsonschema/arguments.js';
import {
  relevantIssue,
  validateAgainstSchema,
  validateAsDraft07,
  type SchemaIssue,
} from '../../jsonschema/validate.js';
import { callsOf } from '../../calls/calls.js';
import { decline } from '../../declined.js';
import { declineUnchecked, patternBudgetOf } from '../../calls/patterns.js';
import { getPair, isMap, nodeAtPath, pairAtPath, toValue, type Node, type Pair } from '../../parse/nodes.js';
import type { Span } from '../../types.js';
import { defineRule } from '../rule.js';
import { subjectInSentence, subjectWords, toolWords, type CallSubject } from '../../wording/callSubjects.js';
import { headlineFits } from '../../wording/headlines.js';

/** `where`: the path in structuredContent; `words`: what is wrong with the value there; `tool`: the tool in words. */
interface MismatchData {
  subject: CallSubject;
  where: string;
  words: string;
  tool: string;
}

export const rule = defineRule({
  id: 'result/schema-mismatch',
  defaultSeverity: 'error',
  summary: "Recorded structuredContent that does not fit the tool's outputSchema (each failing path).",
  kinds: ['tool-calls'],
  messages: {
    /** `where`: the path in structuredContent; `words`: what is wrong with the value there; `tool`: the tool in words. */
    mismatch: ({ subject, where, words, tool }: MismatchData) => {
      return `${mismatchHeadline(subject, where, words)} So the result does not fit the outputSchema of ${tool}; clients that validate results reject it as an error.`;
    },
    /** As `mismatch`, where the official TypeScript SDK v1 client, validating as draft-07, accepts the whole result. */
    mismatchSdkAccepts: ({ subject, where, words, tool }: MismatchData) => {
      return (
        `${mismatchHeadline(subject, where, words)} So the result does not fit the outputSchema of ${tool} (JSON Schema 2020-12); clients that validate ` +
        'results in the dialect the schema is written in reject it. The official TypeScript SDK client (v1) validates every ' +
        'outputSchema as draft-07, ignores the 2020-12 keywords this rests on, and accepts it.'
      );
    },
    /** `where`, `words`: the first place the SDK v1 client's draft-07 validation fails, in words. */
    sdkRejects: ({ subject, where, words, tool }: MismatchData) =>
      `${subjectWords(subject)}: the result fits its 2020-12 schema, yet SDK v1 rejects it: check the schema. ` +
      `The official TypeScript SDK client (v1) validates every outputSchema as draft-07 whatever its \`$schema\`, and there ` +
      `${where} ${words}; a 2020-12 keyword such as \`prefixItems\` is ignored while \`items\` keeps its draft-07 meaning. ` +
      `So callers on that client get an error for this result of ${tool}. Write the outputSchema so that both dialects agree.`,
  },
  check(ctx) {
    for (const site of callsOf(ctx).calls) {
      const result = site.result;
      const tool = site.tool;
      const structured = result?.structured;
      if (!result || !structured || !tool || tool.outputSchema === undefined || result.isError) continue;
      const validation = validateAgainstSchema(tool.outputSchema, toValue(structured.value), patternBudgetOf(ctx));
      // A schema that does not compile is catalog/invalid-schema's finding.
      if (!validation.compiled) continue;
      const who = toolWords(tool);
      if (validation.tooMuchWork) {
        const words = `the structuredContent of ${subjectInSentence(site.subject)}`;
        decline(ctx, {
          limit: 'schemaWork',
          span: (structured.value ?? structured.key).span,
          what: `${words} against the outputSchema of ${who}`,
        });
        continue;
      }
      if (structured.value) {
        const words = `the structuredContent of ${subjectInSentence(site.subject)}`;
        declineUnchecked(
          ctx,
          { node: structured.value, words, schema: `the outputSchema of ${who}` },
          validation.unchecked,
        );
      }
      // The SDK v1 client validates as draft-07 whatever the dialect: say where it parts ways.
      const sdk =
        validation.dialect === '2020-12'
          ? validateAsDraft07(tool.outputSchema, toValue(structured.value), patternBudgetOf(ctx))
          : undefined;
      const sdkIssues = sdk?.compiled && !sdk.tooMuchWork ? sdk.issues.filter(relevantIssue) : undefined;
      const relevant = validation.issues.filter(relevantIssue);
      if (relevant.length === 0 && sdkIssues && sdkIssues.length > 0) {
        const issue = sdkIssues[0]!;
        const node = structured.value ? nodeAtPath(structured.value, issue.path) : undefined;
        ctx.report({
          severity: 'warning',
          messageId: 'sdkRejects',
          data: {
            subject: site.subject,
            where: whereOf(issue),
            words: issueWords(issue, node ? toValue(node) : null),
            tool: who,
          },
          span: spanOf(structured, issue, node),
        });
        continue;
      }
      const sdkAccepts = sdkIssues !== undefined && sdkIssues.length === 0;
      const seen = new Set<string>();
      for (const issue of validation.issues) {
        if (!relevantIssue(issue)) continue;
        const key = `${issue.instancePath}\0${issue.keyword}\0${JSON.stringify(issue.params)}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const node = structured.value ? nodeAtPath(structured.value, issue.path) : undefined;
        const where = issue.path.length
          ? `structuredContent.${pathText(issue.path)}`.replace('structuredContent.[', 'structuredContent[')
          : 'structuredContent';
        const words = issueWords(issue, node ? toValue(node) : null);
        ctx.report({
          messageId: sdkAccepts ? 'mismatchSdkAccepts' : 'mismatch',
          data: { subject: site.subject, where, words, tool: who },
          span: spanOf(structured, issue, node),
        });
      }
    }
  },
});

/** `structuredContent.a.b`, or `structuredContent` for the whole value. */
function whereOf(issue: SchemaIssue): string {
  return issue.path.length
    ? `structuredContent.${pathText(issue.path)}`.replace('structuredContent.[', 'structuredContent[')
    : 'structuredContent';
}

/** The failing value; a missing or extra property at the key that holds it (or names it). */
function spanOf(structured: Pair, issue: SchemaIssue, node: Node | undefined): Span {
  const root = structured.value;
  if (issue.keyword === 'additionalProperties' && node) {
    const extra = getPair(node, String(issue.params.additionalProperty));
    if (extra) return extra.key.span;
  }
  if (
    issue.keyword === 'required' ||
    issue.keyword === 'additionalProperties' ||
    issue.keyword === 'minProperties' ||
    issue.keyword === 'dependencies' ||
    issue.keyword === 'dependentRequired'
  ) {
    // Pointing at the whole object would cover many lines: its key, or the first line of a list item.
    if (issue.path.length === 0) return structured.key.span;
    const holder = pairAtPath(root, issue.path);
    if (holder) return holder.key.span;
    if (isMap(node) && node.pairs[0] && !node.flow) return node.pairs[0].key.span;
  }
  if (node && node.span.start < node.span.end) return node.span;
  return structured.key.span;
}

/** What is wrong at `where`, in one row; when that is too long, the place first and the words after. */
function mismatchHeadline(subject: CallSubject, where: string, words: string): string {
  const short = `${subjectWords(subject)}: ${where} ${words}.`;
  return headlineFits(short)
    ? short
    : `${subjectWords(subject)}: \`${where}\` does not fit its schema: fix the value. It ${words}.`;
}
