// Characters in a tool's text that a person reviewing the server never sees and the model reads
// as any other: Unicode tag characters (U+E0000..U+E007F, which mirror ASCII and so can carry a
// whole hidden sentence), bidirectional controls (which reorder what is shown), zero-width and
// other invisible characters, control characters, and runs of variation selectors. The MCP spec
// has clients treat tool descriptions as untrusted (specification/2026-07-28/index.mdx, "Tool
// Safety"); none of these has a job in a tool's name, description or schema, so each is an error,
// at listing: it reaches the model with the tool list.
import { getNode, getPair, isMap, isScalar } from '../../parse/nodes.js';
import { valueSpanMapper } from '../../parse/scalarOffsets.js';
import { defineRule } from '../rule.js';
import { catalogDeclarationsOf, describeTool, type ToolDecl } from '../../model/catalogDeclarations.js';
import { codePointName, hiddenCharacters, modelTextsOf, tagText, type HiddenRun } from '../../audit/modelText.js';

const KIND_WORDS: Record<HiddenRun['kind'], string> = {
  tag: 'tag characters',
  bidi: 'bidirectional controls',
  invisible: 'zero-width or invisible characters',
  control: 'control characters',
  variation: 'variation selectors with nothing to vary',
};

/** How many hidden characters: `a character`, `28 characters`. */
function counted(runs: readonly HiddenRun[]): { n: string; them: string } {
  const count = runs.reduce((n, r) => n + r.codePoints.length, 0);
  return count === 1 ? { n: 'a character', them: 'it' } : { n: `${count} characters`, them: 'them' };
}

/** The characters found, in words: their kinds, the first code points, and what tag characters spell. */
function describeRuns(runs: readonly HiddenRun[]): string {
  const kinds = [...new Set(runs.map((r) => KIND_WORDS[r.kind]))].join(' and ');
  const points = [...new Set(runs.flatMap((r) => r.codePoints))];
  const listed = `${points.slice(0, 4).map(codePointName).join(', ')}${points.length > 4 ? ', ...' : ''}`;
  const spelt = tagText(runs.filter((r) => r.kind === 'tag').flatMap((r) => r.codePoints));
  const shown = spelt.length > 120 ? `${spelt.slice(0, 117)}...` : spelt;
  return `${capital(kinds)}: ${listed}${shown ? `; the tag characters spell "${shown}"` : ''}.`;
}

export const rule = defineRule({
  id: 'catalog/hidden-characters',
  defaultSeverity: 'error',
  summary:
    "Invisible, bidirectional-control or tag characters in a tool's name, description or schema, or in the server's instructions.",
  kinds: ['tool-catalog'],
  messages: {
    /** `short`: which text, in a word or two; `what`: the same in full (`the description of parameter "path"`). */
    hidden: ({
      short,
      what,
      runs,
      tool,
    }: {
      short: string;
      what: string;
      runs: readonly HiddenRun[];
      tool: ToolDecl;
    }) =>
      `This ${short} hides ${counted(runs).n}: remove ${counted(runs).them} before approving the server. ` +
      `It is ${what} of ${describeTool(tool)}. ${describeRuns(runs)} ` +
      'A person reviewing the tool sees the text without them; the model gets them with the tool list.',
    hiddenInstructions: ({ server, runs }: { server: string; runs: readonly HiddenRun[] }) =>
      `These server instructions hide ${counted(runs).n}: remove ${counted(runs).them} before approving the server. ` +
      `They are the instructions of server "${server}". ${describeRuns(runs)} ` +
      'A person reviewing the server sees the text without them; the model gets them when the session starts.',
  },
  check(ctx) {
    const text = ctx.file.source.text;
    const declarations = catalogDeclarationsOf(ctx);
    for (const decl of declarations.tools) {
      // The message names the tool with its hidden characters written out, so they show there.
      const tool = decl.name === undefined ? decl : { ...decl, name: writtenOut(decl.name) };
      for (const item of modelTextsOf(decl)) {
        const runs = hiddenCharacters(item.node.value as string);
        if (runs.length === 0) continue;
        ctx.report({
          messageId: 'hidden',
          data: { short: item.short, what: item.what, runs, tool },
          span: valueSpanMapper(text, item.node)(runs[0]!.start, runs[0]!.end),
        });
      }
    }
    for (const server of declarations.servers) {
      const fetched = getNode(server.node, 'fetched');
      const node = getPair(isMap(fetched) ? fetched : server.node, 'instructions')?.value;
      if (!isScalar(node) || typeof node.value !== 'string') continue;
      const runs = hiddenCharacters(node.value);
      if (runs.length === 0) continue;
      ctx.report({
        messageId: 'hiddenInstructions',
        data: { server: server.name, runs },
        span: valueSpanMapper(text, node)(runs[0]!.start, runs[0]!.end),
      });
    }
  },
});

function writtenOut(text: string): string {
  let out = text;
  for (const run of hiddenCharacters(text).reverse())
    out = `${out.slice(0, run.start)}${run.codePoints.map((cp) => `\\u{${cp.toString(16).toUpperCase()}}`).join('')}${out.slice(run.end)}`;
  return out;
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
