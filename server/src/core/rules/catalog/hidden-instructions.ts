// A tool description that instructs the model instead of describing the tool: to ignore its other
// instructions, to read or send files and secrets, to call this tool before any other (or instead
// of another), to keep something from the user. This is how "tool poisoning" works: the person
// approving the server reads the description as documentation, the model reads it as orders. The
// MCP spec has clients treat tool descriptions as untrusted unless the server is trusted
// (specification/2026-07-28/index.mdx, "Tool Safety"). A heuristic, so a warning, at listing:
// narrow phrases only (core/audit/modelText.ts), and the message quotes the one that matched.
import { valueSpanMapper } from '../../parse/scalarOffsets.js';
import { defineRule } from '../rule.js';
import { catalogDeclarationsOf, describeTool, type ToolDecl } from '../../model/catalogDeclarations.js';
import { modelInstructions, modelTextsOf, type InstructionKind } from '../../audit/modelText.js';

const TELLS: Record<InstructionKind, string> = {
  ignore: 'to ignore its other instructions',
  secrets: 'to read or send files or secrets that have nothing to do with the call',
  first: 'to call a tool before any other, or instead of another',
  conceal: 'to keep something from the user',
};

export const rule = defineRule({
  id: 'catalog/hidden-instructions',
  defaultSeverity: 'warning',
  summary:
    'A tool description that instructs the model (ignore instructions, send secrets, call first, hide from the user).',
  kinds: ['tool-catalog'],
  messages: {
    /** `phrase`: the words that matched; `kind`: what they tell the model to do. */
    instructs: ({
      short,
      what,
      kind,
      phrase,
      tool,
    }: {
      short: string;
      what: string;
      kind: InstructionKind;
      phrase: string;
      tool: ToolDecl;
    }) =>
      `This ${short} gives the model orders: read all of it before approving the server. ` +
      `${what.charAt(0).toUpperCase()}${what.slice(1)} of ${describeTool(tool)} tells the model ${TELLS[kind]} ("${phrase}"). ` +
      'The model takes a description as instructions; the person approving the server reads it as documentation. ' +
      'If the server is yours, remove the sentence.',
  },
  check(ctx) {
    const text = ctx.file.source.text;
    for (const tool of catalogDeclarationsOf(ctx).tools) {
      for (const item of modelTextsOf(tool)) {
        if (!item.prose) continue;
        for (const found of modelInstructions(item.node.value as string)) {
          ctx.report({
            messageId: 'instructs',
            data: { short: item.short, what: item.what, kind: found.kind, phrase: found.phrase, tool },
            span: valueSpanMapper(text, item.node)(found.start, found.end),
          });
        }
      }
    }
  },
});
