// `readOnlyHint: true` on a catalog tool whose own words say it changes something: the leading
// verb of its name or description (create, delete, send, ...), a later sentence that saves or
// writes a file, a parameter that holds what a changing tool takes (content, body, command), or a
// file parameter whose description says the tool writes there. The words are evidence, never proof.
import { hintAuditOf, type LocatedEvidence } from '../../audit/hints.js';
import { describeTool } from '../../model/catalogDeclarations.js';
import { listWords, quotedList } from '../../text/words.js';
import { overrideAdvice, toolHeadline } from '../../wording/hintAdvice.js';
import type { ToolDecl } from '../../model/catalogDeclarations.js';
import { defineRule, reportShare } from '../rule.js';

const messages = {
  /** `evidence`: what says it writes, in words (`its name says "create"`). */
  mayWrite: ({ tool, evidence }: { tool: ToolDecl; evidence: string[] }) =>
    toolHeadline(describeTool(tool), tool.name, 'declares readOnlyHint: true but may write: check what it does.') +
    ` It declares readOnlyHint: true, but ${listWords(evidence)}: it may change something. ` +
    'If it writes, correct its hints upstream or in the gateway. A client that runs read-only ' +
    'tools without asking would run it unasked, and a composite tool that calls it may be advertised as read-only. ' +
    overrideAdvice(tool.name ?? 'TOOL', 'readOnlyHint: false'),
};

export const rule = defineRule({
  id: 'hints/read-only-writes',
  defaultSeverity: 'warning',
  summary:
    'A catalog tool declares readOnlyHint: true while its name, description or parameters say it changes something.',
  kinds: ['tool-catalog'],
  messages,
  check(ctx) {
    const text = ctx.file.source.text;
    reportShare(ctx, messages, 'hints/read-only-writes', hintAuditOf(ctx), (problem) => {
      const described = problem.evidence.filter((e) => e.where === 'description');
      const words = [
        ...problem.evidence.filter((e) => e.where === 'name').map((e) => evidenceWords(e, text)),
        ...(described.length > 0
          ? [`its description says ${quotedList(described.map((e) => text.slice(e.span.start, e.span.end)))}`]
          : []),
        ...problem.evidence
          .filter((e) => e.where === 'parameter' || e.where === 'file-parameter')
          .map((e) => evidenceWords(e, text)),
      ];
      return {
        messageId: 'mayWrite',
        data: { tool: problem.tool, evidence: words },
        span: problem.span,
        related: problem.evidence.map((e) => ({ span: e.span, message: `${evidenceWords(e, text)}` })),
      };
    });
  },
});

function evidenceWords(evidence: LocatedEvidence, text: string): string {
  if (evidence.where === 'name') return `its name says "${evidence.verb.text}"`;
  if (evidence.where === 'description')
    return `its description says "${text.slice(evidence.span.start, evidence.span.end)}"`;
  if (evidence.where === 'file-parameter')
    return evidence.parameter.writes === 'always'
      ? `it writes a file even without its parameter "${evidence.parameter.name}", which only names it`
      : `it writes a file when given its parameter "${evidence.parameter.name}"`;
  return `it takes a parameter "${evidence.parameter.name}" (${evidence.parameter.word === 'command' || evidence.parameter.word === 'cmd' || evidence.parameter.word === 'script' ? 'something to run' : 'something to write or send'})`;
}
