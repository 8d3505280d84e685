import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  checkConditionRendersBoolean,
  extractReferences,
  isTemplate,
  knownFunctions,
  MAX_PAREN_DEPTH,
  parseTemplate,
  type BranchNode,
  type ConditionReason,
  type ExprNode,
  type FieldReference,
  type ParsedTemplate,
  type Pipeline,
  type TemplateError,
  type TemplateNode,
  type TemplateProblem,
} from '../../server/src/core/templates/index.js';
import { rule as syntaxRule } from '../../server/src/core/rules/template/syntax.js';
import type { TemplateString } from '../../server/src/core/model/templates.js';
import { seedFor } from '../helpers/seed.js';

const SEED = seedFor(20261207, 'templates properties');

// ---------------------------------------------------------------------------------------------
// helpers

/** Errors as [start, end, the text they cover] for compact exact assertions. */
function spans(text: string): [number, number, string][] {
  return parseTemplate(text).errors.map((e) => [e.start, e.end, text.slice(e.start, e.end)]);
}

function errorsOf(text: string): TemplateError[] {
  return parseTemplate(text).errors;
}

function onlyError(text: string): TemplateError {
  const errors = errorsOf(text);
  assert.equal(errors.length, 1, `expected one error for ${JSON.stringify(text)}, got ${JSON.stringify(errors)}`);
  return errors[0] as TemplateError;
}

/** What is wrong, without where: the code and its data. */
function problemOf(error: TemplateError | undefined): TemplateProblem | undefined {
  if (!error) return undefined;
  const problem: Partial<TemplateError> = { ...error };
  delete problem.start;
  delete problem.end;
  return problem as TemplateProblem;
}

/** The problem of the one error of `text`. */
function onlyProblem(text: string): TemplateProblem | undefined {
  return problemOf(onlyError(text));
}

function assertNoErrors(text: string): ParsedTemplate {
  const parsed = parseTemplate(text);
  assert.deepEqual(parsed.errors, [], `unexpected errors for ${JSON.stringify(text)}`);
  return parsed;
}

/** References as "root:seg1.seg2@start-end" strings. */
function refs(text: string): string[] {
  return extractReferences(parseTemplate(text)).map(
    (r) => `${r.segments.map((s) => s.name).join('.') || '.'}@${r.start}-${r.end}${r.viaIndex ? ' index' : ''}`,
  );
}

function firstPipeline(text: string): Pipeline {
  const node = parseTemplate(text).nodes.find((n) => n.kind === 'action');
  assert.ok(node && node.kind === 'action' && node.pipeline, 'expected a parsed action');
  return node.pipeline;
}

function firstArg(text: string, index = 0): ExprNode {
  const arg = firstPipeline(text).commands[0]?.args[index];
  assert.ok(arg);
  return arg;
}

function verdict(text: string) {
  return checkConditionRendersBoolean(parseTemplate(text));
}

/** Fails if any error, reference or node range lies outside the text or is inverted. */
function assertWellFormed(parsed: ParsedTemplate): void {
  const n = parsed.text.length;
  for (const e of parsed.errors) {
    assert.ok(e.start >= 0 && e.start <= e.end && e.end <= n, `bad error range ${JSON.stringify(e)}`);
    assert.equal(typeof e.code, 'string');
  }
  for (const r of extractReferences(parsed)) {
    assert.ok(r.start >= 0 && r.start <= r.end && r.end <= n, `bad reference range ${JSON.stringify(r)}`);
    for (const s of r.segments) assert.ok(s.start >= 0 && s.start <= s.end && s.end <= n);
  }
  let last = 0;
  for (const node of parsed.nodes) {
    assert.ok(node.start >= last && node.start <= node.end && node.end <= n, `bad node range ${node.kind}`);
    last = node.end;
  }
}

// ---------------------------------------------------------------------------------------------
// valid templates

const VALID = [
  '{{(index (fromJson .steps.search.output.text).items 0).body}}',
  '{{json .steps.list.output.images}}',
  '{{eq .steps.ask.output.action "accept"}}',
  '{{.forEach.img.ref}}',
  '{{.forEach.index}}',
  '{{if .params.x}}a{{else}}b{{end}}',
  '{{range $i, $v := .params.list}}{{$i}}: {{$v}}{{end}}',
  '{{range $v := .params.list}}{{$v.name}}{{end}}',
  '{{- .a -}}',
  '{{/* a comment */}}',
  '  {{- /* a trimmed comment */ -}}  ',
  'Release {{.params.version}}?',
  '{{.steps.summarize.output.text}}',
  '{{$x := .params.a}}{{$x}}{{$x = "b"}}{{$x}}',
  '{{if and (eq .a "x") (not .b)}}y{{else if or .c .d}}z{{else}}w{{end}}',
  '{{with .params.user}}{{.name}}{{else}}anonymous{{end}}',
  '{{with .a}}x{{else with .b}}y{{end}}',
  '{{range .params.items}}{{if .skip}}{{continue}}{{end}}{{if .last}}{{break}}{{end}}{{.}}{{end}}',
  '{{range .a}}x{{else}}empty{{end}}',
  '{{define "row"}}{{.}}{{end}}{{template "row" .params.x}}',
  '{{template "row"}}',
  '{{block "b" .}}x{{end}}',
  "{{print \"a\\n\\t\\\"b\\\"\" `raw` 1 -2 +3 3.5 .5 1e3 1.5e-3 0x1F 0X1f 0o17 0b101 1_000 0x1p-2 'a' '\\n' '\\'' true false nil}}",
  '{{printf "%s-%d" .a 3 | quote}}',
  '{{.a | json}}',
  '{{len .steps.x.output.items | printf "%d"}}',
  '{{ .a }}',
  '{{\n  .a\n}}',
  '{{"}}"}}',
  '{{"{{"}}',
  '{{index .steps "my-id" "output" "text"}}',
  'a }} b',
  '{{.a}} }}',
  '{ {} } {',
  '{{gt .steps.s.output.count 10.0}}',
  '{{slice .a 1 2}} {{html .a}} {{js .a}} {{urlquery .a}} {{call .f 1}} {{println .a}} {{ne 1 2}} {{lt 1 2}} {{le 1 2}} {{ge 1 2}}',
  '{{.params.café}} {{.params.名前}}',
  '{{$}}{{$.params.x}}',
  '{{(.a).b}}',
  '{{"\\x41\\u00e9\\U0001F600\\101"}}',
  '{{$a := 1}}{{if $b := .x}}{{$a}}{{$b}}{{else}}{{$b}}{{end}}',
  'no template at all',
  '',
];

test('valid templates parse without errors', () => {
  for (const text of VALID) assertNoErrors(text);
});

test('isTemplate tells templates from plain strings', () => {
  assert.equal(isTemplate('{{.a}}'), true);
  assert.equal(isTemplate('a {{ b'), true);
  assert.equal(isTemplate('plain'), false);
  assert.equal(isTemplate('a } } {'), false);
});

test('knownFunctions lists ToolHive functions and Go builtins', () => {
  for (const name of [
    'json',
    'quote',
    'fromJson',
    'and',
    'or',
    'not',
    'len',
    'index',
    'slice',
    'print',
    'printf',
    'println',
  ]) {
    assert.ok(knownFunctions.includes(name), name);
  }
  for (const name of ['html', 'js', 'urlquery', 'call', 'eq', 'ne', 'lt', 'le', 'gt', 'ge'])
    assert.ok(knownFunctions.includes(name), name);
  assert.equal(knownFunctions.length, 22);
  assert.ok(!knownFunctions.includes('toJson'));
});

test('hasActions is true for any {{ }} including comments', () => {
  assert.equal(parseTemplate('plain').hasActions, false);
  assert.equal(parseTemplate('').hasActions, false);
  assert.equal(parseTemplate('a }} b').hasActions, false);
  assert.equal(parseTemplate('{{/* c */}}').hasActions, true);
  assert.equal(parseTemplate('x {{.a}}').hasActions, true);
});

// ---------------------------------------------------------------------------------------------
// tree shape

test('text and actions come in source order with their ranges', () => {
  const parsed = assertNoErrors('a{{.b}}c');
  assert.deepEqual(
    parsed.nodes.map((n) => [n.kind, n.start, n.end]),
    [
      ['text', 0, 1],
      ['action', 1, 7],
      ['text', 7, 8],
    ],
  );
  const text = parsed.nodes[0];
  assert.ok(text?.kind === 'text');
  assert.equal(text.value, 'a');
});

test('trim markers trim the neighbouring text but keep raw ranges', () => {
  const parsed = assertNoErrors('a  {{- .x -}}  b {{- .y}} c');
  const texts = parsed.nodes.filter((n): n is TemplateNode & { kind: 'text' } => n.kind === 'text');
  assert.deepEqual(
    texts.map((t) => [t.value, t.start, t.end, t.valueStart, t.valueEnd]),
    [
      ['a', 0, 3, 0, 1],
      ['b', 13, 17, 15, 16],
      [' c', 25, 27, 25, 27],
    ],
  );
});

test('trim markers around comments trim too', () => {
  const parsed = assertNoErrors(' x {{- /* c */ -}} y ');
  assert.deepEqual(
    parsed.nodes.map((n) => (n.kind === 'text' ? n.value : n.kind)),
    [' x', 'comment', 'y '],
  );
});

test('{{-3}} is the number -3, not a trim marker', () => {
  const arg = firstArg('{{-3}}');
  assert.equal(arg.kind, 'number');
  assert.ok(arg.kind === 'number');
  assert.equal(arg.value, -3);
  assert.equal(arg.start, 2);
  const parsed = assertNoErrors('x {{- 3}}');
  assert.equal(parsed.nodes[0]?.kind === 'text' && parsed.nodes[0].value, 'x');
});

test('pipelines, commands, parentheses and chains', () => {
  const p = firstPipeline('{{(index (fromJson .steps.a.output.text).items 0).body | json}}');
  assert.equal(p.commands.length, 2);
  const chain = p.commands[0]?.args[0];
  assert.ok(chain?.kind === 'chain');
  assert.deepEqual(
    chain.segments.map((s) => s.name),
    ['body'],
  );
  assert.ok(chain.node.kind === 'paren');
  const inner = chain.node.pipeline.commands[0]?.args ?? [];
  assert.deepEqual(
    inner.map((a) => a.kind),
    ['identifier', 'chain', 'number'],
  );
  const json = p.commands[1]?.args[0];
  assert.ok(json?.kind === 'identifier');
  assert.equal(json.name, 'json');
});

test('field chains keep one range per segment', () => {
  const arg = firstArg('{{.steps.fetch.output}}');
  assert.ok(arg.kind === 'field');
  assert.deepEqual(arg.segments, [
    { name: 'steps', start: 3, end: 8 },
    { name: 'fetch', start: 9, end: 14 },
    { name: 'output', start: 15, end: 21 },
  ]);
  assert.equal(arg.start, 2);
  assert.equal(arg.end, 21);
});

test('variables, $ and declarations', () => {
  const parsed = assertNoErrors('{{range $i, $v := .list}}{{$v.name}}{{end}}');
  const range = parsed.nodes[0];
  assert.ok(range?.kind === 'range');
  assert.deepEqual(
    range.pipeline?.decl.map((d) => [d.name, d.start, d.end]),
    [
      ['$i', 8, 10],
      ['$v', 12, 14],
    ],
  );
  assert.equal(range.pipeline?.isAssign, false);
  const body = range.body[0];
  assert.ok(body?.kind === 'action');
  const v = body.pipeline?.commands[0]?.args[0];
  assert.ok(v?.kind === 'variable');
  assert.equal(v.name, '$v');
  assert.deepEqual(v.segments, [{ name: 'name', start: 30, end: 34 }]);

  const assign = firstPipeline('{{$x := 1}}{{$x = 2}}');
  assert.equal(assign.isAssign, false);
  const dollar = firstArg('{{$.a}}');
  assert.ok(dollar.kind === 'variable');
  assert.equal(dollar.name, '$');
});

test('literals decode like Go', () => {
  const s = firstArg('{{"a\\x41\\u00e9\\n\\101\\\\"}}');
  assert.ok(s.kind === 'string');
  assert.equal(s.value, 'aAé\nA\\');
  assert.equal(s.raw, false);
  const raw = firstArg('{{`a\\n\r\nb`}}');
  assert.ok(raw.kind === 'string');
  assert.equal(raw.value, 'a\\n\nb');
  assert.equal(raw.raw, true);
  const numbers: [string, number, boolean][] = [
    ['10', 10, false],
    ['10.0', 10, true],
    ['1e3', 1000, true],
    ['0x1F', 31, false],
    ['0o17', 15, false],
    ['017', 15, false],
    ['0b101', 5, false],
    ['1_000', 1000, false],
    ['-2.5', -2.5, true],
    ['.5', 0.5, true],
    ['0x1p-2', 0.25, true],
  ];
  for (const [text, value, isFloat] of numbers) {
    const n = firstArg(`{{${text}}}`);
    assert.ok(n.kind === 'number', text);
    assert.equal(n.value, value, text);
    assert.equal(n.isFloat, isFloat, text);
    assert.equal(n.isChar, false);
  }
  const ch = firstArg("{{'a'}}");
  assert.ok(ch.kind === 'number');
  assert.equal(ch.isChar, true);
  assert.equal(ch.value, 97);
  const esc = firstArg("{{'\\n'}}");
  assert.ok(esc.kind === 'number');
  assert.equal(esc.value, 10);
  const b = firstArg('{{true}}');
  assert.ok(b.kind === 'bool' && b.value === true);
  assert.equal(firstArg('{{nil}}').kind, 'nil');
  assert.equal(firstArg('{{.}}').kind, 'dot');
});

test('if / else if / else chains nest like Go', () => {
  const parsed = assertNoErrors('{{if .a}}x{{else if .b}}y{{else}}z{{end}}');
  assert.equal(parsed.nodes.length, 1);
  const outer = parsed.nodes[0] as BranchNode;
  assert.equal(outer.kind, 'if');
  assert.deepEqual(outer.keyword, { start: 2, end: 4 });
  assert.deepEqual(outer.elseKeyword, { start: 12, end: 16 });
  assert.equal(outer.start, 0);
  assert.equal(outer.end, 41);
  assert.equal(outer.elseBody?.length, 1);
  const inner = outer.elseBody?.[0] as BranchNode;
  assert.equal(inner.kind, 'if');
  assert.deepEqual(inner.keyword, { start: 17, end: 19 });
  assert.deepEqual(
    inner.body.map((n) => n.kind === 'text' && n.value),
    ['y'],
  );
  assert.deepEqual(
    inner.elseBody?.map((n) => n.kind === 'text' && n.value),
    ['z'],
  );
  assert.equal(inner.end, 41);
});

test('define, template, block and loop control nodes', () => {
  const parsed = assertNoErrors(
    '{{define "x"}}a{{end}}{{template "x" .}}{{block "b" .p}}c{{end}}{{range .l}}{{break}}{{continue}}{{end}}',
  );
  assert.deepEqual(
    parsed.nodes.map((n) => n.kind),
    ['define', 'template', 'block', 'range'],
  );
  const def = parsed.nodes[0];
  assert.ok(def?.kind === 'define');
  assert.equal(def.name, 'x');
  assert.deepEqual(def.nameSpan, { start: 9, end: 12 });
  const call = parsed.nodes[1];
  assert.ok(call?.kind === 'template');
  assert.equal(call.name, 'x');
  assert.equal(call.pipeline?.commands[0]?.args[0]?.kind, 'dot');
  const range = parsed.nodes[3];
  assert.ok(range?.kind === 'range');
  assert.deepEqual(
    range.body.map((n) => n.kind),
    ['break', 'continue'],
  );
});

test('every action appears in the tree, even broken ones', () => {
  const parsed = parseTemplate('{{end}}{{ ) }}{{.a}}');
  assert.deepEqual(
    parsed.nodes.map((n) => [n.kind, n.kind === 'action' ? n.pipeline !== null : null]),
    [
      ['action', false],
      ['action', false],
      ['action', true],
    ],
  );
});

// ---------------------------------------------------------------------------------------------
// errors, at exact characters

test('unclosed action is reported at its {{', () => {
  assert.deepEqual(spans('{{ .a'), [[0, 2, '{{']]);
  assert.deepEqual(onlyProblem('{{ .a'), { code: 'unclosedAction', runsInto: 'end' });
  // The next {{ starts a new action, which still parses.
  assert.deepEqual(spans('x {{ .a {{ .b }}'), [[2, 4, '{{']]);
  assert.deepEqual(refs('x {{ .a {{ .b }}'), ['a@5-7', 'b@11-13']);
  assert.deepEqual(spans('ok {{.a}} then {{-  .b'), [[15, 17, '{{']]);
});

test('an unclosed if does not also report a missing end', () => {
  assert.deepEqual(spans('{{if .a'), [[0, 2, '{{']]);
});

test('empty action', () => {
  assert.deepEqual(spans('{{}}'), [[0, 4, '{{}}']]);
  assert.deepEqual(onlyProblem('{{}}'), { code: 'emptyAction' });
  assert.deepEqual(spans('a {{ }} b'), [[2, 7, '{{ }}']]);
});

test('comparison operators point to the functions', () => {
  const text = '{{if .a == "b"}}x{{end}}';
  assert.deepEqual(spans(text), [[8, 10, '==']]);
  assert.deepEqual(onlyProblem(text), { code: 'foreignOperator', operator: '==' });
  assert.deepEqual(spans('{{ .a != 1 }}'), [[6, 8, '!=']]);
  assert.deepEqual(spans('{{ .a && .b }}'), [[6, 8, '&&']]);
  assert.deepEqual(spans('{{ .a || .b }}'), [[6, 8, '||']]);
  assert.deepEqual(spans('{{ .a < 1 }}{{ .a >= 1 }}'), [
    [6, 7, '<'],
    [18, 20, '>='],
  ]);
  assert.deepEqual(problemOf(errorsOf('{{ .a < 1 }}')[0]), { code: 'foreignOperator', operator: '<' });
  assert.deepEqual(spans('{{ !.a }}'), [[3, 4, '!']]);
  assert.deepEqual(problemOf(errorsOf('{{ !.a }}')[0]), { code: 'foreignOperator', operator: '!' });
});

test('single-quoted strings are errors, single characters are not', () => {
  const text = "{{eq .steps.ask.output.action 'accept'}}";
  const error = onlyError(text);
  assert.equal(error.code, 'singleQuotedString');
  assert.deepEqual([error.start, error.end], [30, 38]);
  assert.equal(text.slice(error.start, error.end), "'accept'");
  assertNoErrors("{{eq .a 'x'}}");
  assert.deepEqual(spans("{{ '' }}"), [[3, 5, "''"]]);
});

test('the broken example from the ToolHive docs reports both mistakes and keeps the reference', () => {
  const text = "{{.steps.confirm_deploy.action == 'accept'}}";
  assert.deepEqual(spans(text), [
    [31, 33, '=='],
    [34, 42, "'accept'"],
  ]);
  assert.deepEqual(refs(text), ['steps.confirm_deploy.action@2-30']);
});

test('unterminated strings stop at }} so the rest still parses', () => {
  assert.deepEqual(spans('{{"abc}}'), [[2, 6, '"abc']]);
  assert.deepEqual(onlyProblem('{{"abc}}'), { code: 'unclosedString' });
  assert.deepEqual(spans('{{"abc }} and {{.b}}'), [[2, 6, '"abc']]);
  assert.deepEqual(refs('{{"abc }} and {{.b}}'), ['b@16-18']);
  assert.deepEqual(spans('{{ "abc\n}}'), [[3, 7, '"abc']]);
  assert.deepEqual(spans('{{ `abc }} x'), [[3, 7, '`abc']]);
  assert.deepEqual(onlyProblem('{{ `abc }} x'), { code: 'unclosedRawString' });
  assert.deepEqual(spans("{{ 'abc }} {{.x}}"), [[3, 7, "'abc"]]);
  assert.deepEqual(onlyProblem("{{ 'abc }} {{.x}}"), { code: 'unclosedSingleQuoted' });
});

test('invalid escapes and numbers', () => {
  assert.deepEqual(spans('{{"a\\qb"}}'), [[4, 6, '\\q']]);
  assert.deepEqual(spans('{{"\\x4"}}'), [[3, 6, '\\x4']]);
  assert.deepEqual(spans('{{"\\400"}}'), [[3, 7, '\\400']]);
  assert.deepEqual(spans('{{ 10abc }}'), [[3, 8, '10abc']]);
  assert.deepEqual(onlyProblem('{{ 10abc }}'), { code: 'badNumber', literal: '10abc' });
  assert.deepEqual(spans('{{ 0x }}'), [[3, 5, '0x']]);
  assert.deepEqual(spans('{{ 1e }}'), [[3, 5, '1e']]);
  assert.deepEqual(spans('{{ 0b12 }}'), [[3, 7, '0b12']]);
});

test('unmatched end and else', () => {
  assert.deepEqual(spans('a {{end}}'), [[4, 7, 'end']]);
  assert.deepEqual(onlyProblem('{{end}}'), { code: 'endWithoutBlock' });
  assert.deepEqual(spans('{{ else }}'), [[3, 7, 'else']]);
  assert.deepEqual(onlyProblem('{{else}}'), { code: 'elseWithoutBlock' });
  assert.deepEqual(spans('{{define "x"}}{{else}}{{end}}'), [[16, 20, 'else']]);
  assert.deepEqual(spans('{{if .a}}{{else}}{{else}}{{end}}'), [[19, 23, 'else']]);
  assert.deepEqual(problemOf(errorsOf('{{if .a}}{{else}}{{else}}{{end}}')[0]), { code: 'secondElse', keyword: 'if' });
  assert.deepEqual(spans('{{if .a}}{{end}}{{end}}'), [[18, 21, 'end']]);
});

test('missing end is reported at the opening keyword', () => {
  assert.deepEqual(spans('{{if .a}}x'), [[2, 4, 'if']]);
  assert.deepEqual(onlyProblem('{{if .a}}x'), { code: 'unclosedBlock', keyword: 'if' });
  assert.deepEqual(spans('{{ range .a }}x'), [[3, 8, 'range']]);
  assert.deepEqual(spans('{{- with .a}}x'), [[4, 8, 'with']]);
  assert.deepEqual(spans('{{if .a}}{{range .b}}{{end}}'), [[2, 4, 'if']]);
  assert.deepEqual(spans('{{if .a}}x{{else if .b}}y'), [[2, 4, 'if']]);
  assert.deepEqual(spans('{{define "d"}}x'), [[2, 8, 'define']]);
  assert.deepEqual(spans('{{if .a}}{{with .b}}'), [
    [2, 4, 'if'],
    [11, 15, 'with'],
  ]);
});

test('branches need a value', () => {
  assert.deepEqual(spans('{{if}}{{end}}'), [[2, 4, 'if']]);
  assert.deepEqual(onlyProblem('{{if}}{{end}}'), { code: 'branchWithoutValue', keyword: 'if' });
  assert.deepEqual(spans('{{range}}{{end}}'), [[2, 7, 'range']]);
  assert.deepEqual(spans('{{with}}{{end}}'), [[2, 6, 'with']]);
  assert.deepEqual(spans('{{if .a}}{{else if}}{{end}}'), [[16, 18, 'if']]);
});

test('unknown functions are reported at the identifier', () => {
  const error = onlyError('{{toJson .a}}');
  assert.deepEqual([error.start, error.end], [2, 8]);
  assert.deepEqual(problemOf(error), { code: 'unknownFunction', name: 'toJson' });
  assert.deepEqual(spans('{{foo .a | bar}}'), [
    [2, 5, 'foo'],
    [11, 14, 'bar'],
  ]);
  assert.deepEqual(spans('{{if default .a "x"}}{{end}}'), [[5, 12, 'default']]);
});

test('unexpected and extra tokens', () => {
  assert.deepEqual(spans('{{ .a ) }}'), [[6, 7, ')']]);
  assert.deepEqual(onlyProblem('{{ .a ) }}'), { code: 'unmatchedRightParen' });
  assert.deepEqual(spans('{{ (.a }}'), [[3, 4, '(']]);
  assert.deepEqual(onlyProblem('{{ (.a }}'), { code: 'unclosedParen' });
  assert.deepEqual(spans('{{ ( ) }}'), [[3, 6, '( )']]);
  assert.deepEqual(spans('{{end .x}}'), [
    [2, 5, 'end'],
    [6, 8, '.x'],
  ]);
  assert.deepEqual(spans('{{if .a}}{{else .b}}{{end}}'), [[16, 18, '.b']]);
  assert.deepEqual(problemOf(errorsOf('{{if .a}}{{else .b}}{{end}}')[0]), {
    code: 'trailingAfterKeyword',
    keyword: 'else',
  });
  assert.deepEqual(spans('{{range .a}}{{break 1}}{{end}}'), [[20, 21, '1']]);
  assert.deepEqual(spans('{{ .a := 1 }}'), [[6, 8, ':=']]);
  assert.deepEqual(spans('{{ .a | }}'), [[6, 7, '|']]);
  assert.deepEqual(onlyProblem('{{ .a | }}'), { code: 'pipeWithoutFunction' });
  assert.deepEqual(spans('{{ | .a }}'), [[3, 4, '|']]);
  assert.deepEqual(spans('{{ .a || }}'), [[6, 8, '||']]);
  assert.deepEqual(spans('{{ $x := }}'), [[6, 8, ':=']]);
  assert.deepEqual(spans('{{ .a if }}'), [[6, 8, 'if']]);
  assert.deepEqual(spans('{{ .a , .b }}'), [[6, 7, ',']]);
  assert.deepEqual(spans('{{ .a : }}'), [[6, 7, ':']]);
  assert.deepEqual(spans('{{ # }}'), [[3, 4, '#']]);
  assert.deepEqual(spans('{{{.a}}}'), [[2, 3, '{']]);
});

test('missing space between operands', () => {
  assert.deepEqual(spans('{{.a"b"}}'), [[4, 7, '"b"']]);
  assert.deepEqual(onlyProblem('{{.a"b"}}'), { code: 'missingSpace', token: '"b"' });
  assert.deepEqual(spans('{{eq(.a) 1}}'), [[4, 5, '(']]);
});

test('constants cannot take fields or piped input', () => {
  assert.deepEqual(spans('{{"a".b}}'), [[5, 7, '.b']]);
  assert.deepEqual(spans('{{.a | "b"}}'), [[7, 10, '"b"']]);
  assert.deepEqual(onlyProblem('{{.a | "b"}}'), { code: 'constantReceivesPipe' });
});

test('variables must be declared and go out of scope at end', () => {
  assert.deepEqual(spans('{{$x}}'), [[2, 4, '$x']]);
  assert.deepEqual(onlyProblem('{{$x}}'), { code: 'undefinedVariable', name: '$x' });
  assert.deepEqual(spans('{{$y = 3}}'), [[2, 4, '$y']]);
  assert.deepEqual(spans('{{if .a}}{{$x := 1}}{{end}}{{$x}}'), [[29, 31, '$x']]);
  assertNoErrors('{{$x := 1}}{{if .a}}{{$x}}{{end}}{{$x}}');
  assert.deepEqual(spans('{{range $i, $v := .l}}{{end}}{{$v}}'), [[31, 33, '$v']]);
  // A define body is a separate template: outer variables are not visible in it.
  assert.deepEqual(spans('{{$x := 1}}{{define "d"}}{{$x}}{{end}}{{$x}}'), [[27, 29, '$x']]);
});

test('only range declares two variables', () => {
  assert.deepEqual(spans('{{with $x, $y := .a}}{{end}}'), [[7, 13, '$x, $y']]);
  assertNoErrors('{{range $k, $v := .m}}{{$k}}{{$v}}{{end}}');
});

test('break and continue only inside range', () => {
  assert.deepEqual(spans('{{break}}'), [[2, 7, 'break']]);
  assert.deepEqual(spans('{{if .a}}{{continue}}{{end}}'), [[11, 19, 'continue']]);
  assertNoErrors('{{range .a}}{{if .b}}{{break}}{{end}}{{end}}');
});

test('define only at the top level; names must be quoted', () => {
  assert.deepEqual(spans('{{if .a}}{{define "x"}}{{end}}{{end}}'), [[11, 17, 'define']]);
  assert.deepEqual(spans('{{define x}}{{end}}'), [[9, 10, 'x']]);
  assert.deepEqual(problemOf(errorsOf('{{define x}}{{end}}')[0]), { code: 'templateNameMissing', keyword: 'define' });
  assert.deepEqual(spans('{{template}}'), [[2, 10, 'template']]);
});

test('else if / else with only after the matching keyword', () => {
  assert.deepEqual(spans('{{range .a}}{{else if .b}}{{end}}'), [[19, 21, 'if']]);
  assert.deepEqual(spans('{{if .a}}{{else with .b}}{{end}}'), [[16, 20, 'with']]);
});

test('a dashed field name suggests index', () => {
  const text = '{{.steps.fetch-data.output.text}}';
  const error = onlyError(text);
  assert.deepEqual([error.start, error.end], [9, 19]);
  assert.deepEqual(problemOf(error), { code: 'dashInFieldName', name: 'fetch-data', chain: '.steps' });
  // The reference still names the step as written, so step rules can use it.
  assert.deepEqual(refs(text), ['steps.fetch-data.output.text@2-31']);
});

test('comment errors', () => {
  assert.deepEqual(spans('{{/* never closed'), [[0, 4, '{{/*']]);
  assert.deepEqual(spans('{{/* x */ }} after'), [[7, 9, '*/']]);
  assert.deepEqual(onlyProblem('{{/* x */ }}'), { code: 'badCommentEnd' });
  // A comment must start right after {{ (or {{- ); otherwise / is just an unexpected character.
  assert.deepEqual(spans('{{ /* x */ }}'), [[3, 5, '/*']]);
  assert.deepEqual(onlyProblem('{{ /* x */ }}'), { code: 'misplacedComment' });
  assert.deepEqual(spans('{{ .a /* x }} {{.b}}'), [[6, 8, '/*']]);
});

test('independent errors are all reported, in order', () => {
  const text = '{{foo}} {{.a == 1}} {{end}} {{"x}} {{.ok}}';
  assert.deepEqual(spans(text), [
    [2, 5, 'foo'],
    [13, 15, '=='],
    [22, 25, 'end'],
    [30, 32, '"x'],
  ]);
  assert.deepEqual(refs(text), ['a@10-12', 'ok@37-40']);
});

test('a stray }} in literal text is not an error', () => {
  assertNoErrors('}}');
  assertNoErrors('{{.a}}}}');
  assertNoErrors('{ {.a} }');
});

test('an error is a code with data taken from the template, never a sentence; template/syntax words every code', () => {
  const samples = [
    '{{',
    '{{}}',
    '{{ ) }}',
    '{{if}}',
    '{{end}}',
    '{{"x',
    "{{'ab'}}",
    '{{x}}',
    '{{ .a == 1 }}',
    '{{/*',
    '{{ .a }',
    '{{ .a } }}',
    '{{ .a -}',
    '{{"\\q \\x4 \\U00110000"}}',
    '{{ .steps.fetch-data.text }}',
    '{{ $v := }}{{ .a := 1 }}{{ .a if }}',
  ];
  const codes = new Set<string>();
  for (const s of samples) {
    const errors = errorsOf(s);
    assert.ok(errors.length > 0, s);
    for (const e of errors) {
      assert.ok(!('message' in e), `an error of ${JSON.stringify(s)} carries a sentence`);
      assert.ok(Object.hasOwn(syntaxRule.messages, e.code), `template/syntax has no message for ${e.code}`);
      codes.add(e.code);
      // The data says which case this is with the template's own pieces (a name, a token, an
      // escape) or a closed set of values: nothing in it is worded.
      for (const [key, value] of Object.entries(problemOf(e) ?? {})) {
        if (key === 'code' || key === 'runsInto' || typeof value !== 'string') continue;
        assert.ok(s.includes(value), `${e.code}.${key} = ${JSON.stringify(value)} is not from ${JSON.stringify(s)}`);
      }
    }
  }
  assert.ok(codes.size >= 15, `only ${codes.size} codes seen`);
  assert.deepEqual(problemOf(errorsOf('{{"\\x4"}}')[0]), { code: 'badHexEscape', escape: '\\x', width: 2 });
});

test('template/syntax words a code from its data, its headline decided by the message', () => {
  const template = { checkedAtLoad: true } as TemplateString;
  const load = 'ToolHive parses this template when it loads the workflow and refuses the configuration.';
  assert.equal(
    syntaxRule.messages.unknownFunction({ code: 'unknownFunction', name: 'toJson', template }),
    `Function "toJson" is not defined: use a known one. Known functions: ${knownFunctions.join(', ')}. ${load}`,
  );
  // What to do joins the headline when the whole fits on a Problems row, and follows it when not.
  assert.equal(
    syntaxRule.messages.unclosedAction({ code: 'unclosedAction', runsInto: 'end', template }),
    `This action is never closed: it runs on to the end of the text; add }} where it should end. ${load}`,
  );
  assert.equal(
    syntaxRule.messages.unclosedAtBrace({ code: 'unclosedAtBrace', trim: false, runsInto: 'end', template }),
    `This action is never closed: a single "}" does not end it, so it runs on to the end of the text. Write }}. ${load}`,
  );
});

// ---------------------------------------------------------------------------------------------
// one slip, one error: no echoes of an unclosed action, a lone brace or an open string

/** Errors as [start, end, covered text, problem]. */
function fullErrors(text: string): [number, number, string, TemplateProblem | undefined][] {
  return parseTemplate(text).errors.map((e) => [e.start, e.end, text.slice(e.start, e.end), problemOf(e)]);
}

test('an action one brace short gets one error, at the lone brace', () => {
  assert.deepEqual(fullErrors('{{ .params.path }'), [
    [16, 17, '}', { code: 'unclosedAtBrace', trim: false, runsInto: 'end' }],
  ]);
  assert.deepEqual(fullErrors('{{.a}'), [[4, 5, '}', { code: 'unclosedAtBrace', trim: false, runsInto: 'end' }]]);
  // The action is read up to the brace: its reference is kept.
  assert.deepEqual(refs('{{ .params.path }'), ['params.path@3-15']);
  assert.deepEqual(spans('{{ index .a "x" }'), [[16, 17, '}']]);
  assert.deepEqual(spans('{{ .a | printf "%s" }'), [[20, 21, '}']]);
  assert.deepEqual(spans('{{ }'), [[3, 4, '}']]);
  assert.deepEqual(spans('{{ .a }-}'), [[6, 7, '}']]);
});

test('the text and actions after a lone brace are read as the user meant them', () => {
  const text = '{{ .a } and {{ .b }}';
  assert.deepEqual(fullErrors(text), [[6, 7, '}', { code: 'unclosedAtBrace', trim: false, runsInto: 'next' }]]);
  assert.deepEqual(refs(text), ['a@3-5', 'b@15-17']);
  assert.deepEqual(
    parseTemplate(text).nodes.map((n) => [n.kind, n.start, n.end, n.kind === 'text' ? n.value : null]),
    [
      ['action', 0, 7, null],
      ['text', 7, 12, ' and '],
      ['action', 12, 20, null],
    ],
  );
  // Words after the brace are text, not unknown functions.
  assert.deepEqual(spans('{{ .a } text here'), [[6, 7, '}']]);
  assert.deepEqual(spans('{{ .a }\n and {{ .b }}'), [[6, 7, '}']]);
});

test('a lone brace keeps the block structure: no missing end, no unmatched end', () => {
  assert.deepEqual(spans('{{ if .a }x{{ end }}'), [[9, 10, '}']]);
  assert.deepEqual(spans('{{ if .a }}x{{ end }'), [[19, 20, '}']]);
  assert.deepEqual(spans('{{ range .a }}{{ .b }{{ end }}'), [[20, 21, '}']]);
  // Two slips, two errors.
  assert.deepEqual(spans('{{ if .a }x{{ end }'), [
    [9, 10, '}'],
    [18, 19, '}'],
  ]);
  // The if is open: its body is not read against the root, and no {{end}} is demanded.
  assert.deepEqual(spans('{{ if .a }x'), [[9, 10, '}']]);
  assert.deepEqual(refs('{{ with .a }{{ .b }}{{ end }}'), ['a@8-10']);
  // An {{end}} with nothing to close is its own mistake, and still reported.
  assert.deepEqual(spans('{{ .a }} {{ end }'), [
    [12, 15, 'end'],
    [16, 17, '}'],
  ]);
});

test('a trim marker one brace short: one error covering -}, and the trim still applies', () => {
  assert.deepEqual(fullErrors('{{ .a -}'), [[6, 8, '-}', { code: 'unclosedAtBrace', trim: true, runsInto: 'end' }]]);
  assert.deepEqual(spans('{{- .a -}'), [[7, 9, '-}']]);
  const parsed = parseTemplate(' {{ .x -}  y');
  assert.deepEqual(
    parsed.nodes.map((n) => (n.kind === 'text' ? n.value : n.kind)),
    [' ', 'action', 'y'],
  );
  // `{{-` alone at the end is an action being typed: no second error for the "-".
  assert.deepEqual(spans('{{-'), [[0, 2, '{{']]);
});

test('a lone brace inside an action that }} closes later: one error, nothing after it', () => {
  assert.deepEqual(fullErrors('{{ .a }text}}'), [[6, 7, '}', { code: 'strayBrace', trim: false }]]);
  assert.deepEqual(spans('{{ .a } } }}'), [[6, 7, '}']]);
  assert.deepEqual(spans("{{ .a } isn't == }}"), [[6, 7, '}']]);
  assert.deepEqual(spans('{{ } }}'), [[3, 4, '}']]);
  assert.deepEqual(spans('{{ .a -} .b }}'), [[6, 8, '-}']]);
  // A mistake before the brace is still reported.
  assert.deepEqual(spans('{{ .a == } }}'), [
    [6, 8, '=='],
    [9, 10, '}'],
  ]);
});

test('an {{end}} being typed at the end does not also report the block it would close', () => {
  assert.deepEqual(spans('{{ if .a }}yes{{ en'), [[14, 16, '{{']]);
  assert.deepEqual(spans('{{ range .a }}{{ if .b }}x{{'), [[26, 28, '{{']]);
  assert.deepEqual(spans('{{- range .l -}}{{ . }}{{- end -'), [[23, 25, '{{']]);
  assert.deepEqual(spans('{{ .a -'), [[0, 2, '{{']]);
  // A finished action (even one brace short) is not an {{end}} in progress: the block is reported.
  assert.deepEqual(spans('{{ if .a }}yes{{ .b }'), [
    [3, 5, 'if'],
    [20, 21, '}'],
  ]);
});

test('an unclosed action names where it runs to', () => {
  assert.deepEqual(fullErrors('{{ .a'), [[0, 2, '{{', { code: 'unclosedAction', runsInto: 'end' }]]);
  assert.deepEqual(fullErrors('{{ .a {{ .b }}'), [[0, 2, '{{', { code: 'unclosedAction', runsInto: 'next' }]]);
});

test('an unclosed action ends at its line for our reading: the next lines are text', () => {
  const text = "{{ .a\nisn't == here {{ .b }}";
  assert.deepEqual(spans(text), [[0, 2, '{{']]);
  assert.deepEqual(refs(text), ['a@3-5', 'b@23-25']);
  assert.deepEqual(
    parseTemplate(text).nodes.map((n) => [n.kind, n.start, n.end]),
    [
      ['action', 0, 5],
      ['text', 5, 20],
      ['action', 20, 28],
    ],
  );
  // The block it opens still scopes the lines after it.
  assert.deepEqual(spans('{{ if .a\n x {{ .b }}{{ end }}'), [[0, 2, '{{']]);
  // A lone brace on a later line still marks where the action was meant to end.
  assert.deepEqual(spans('{{\n  .a\n}'), [[8, 9, '}']]);
});

test('an open string in an unclosed action: one error at the string that says both', () => {
  assert.deepEqual(fullErrors('{{ "abc'), [[3, 7, '"abc', { code: 'unclosedStringAndAction' }]]);
  assert.deepEqual(fullErrors('{{ `abc'), [[3, 7, '`abc', { code: 'unclosedRawStringAndAction' }]]);
  assert.deepEqual(fullErrors("{{ 'a }"), [[3, 7, "'a }", { code: 'unclosedSingleQuotedAndAction' }]]);
  assert.deepEqual(spans('{{ .a "x }'), [[6, 10, '"x }']]);
  assert.deepEqual(spans('{{ "abc\nmore'), [[3, 7, '"abc']]);
  assert.deepEqual(spans('{{"\n"\n"'), [[2, 3, '"']]);
  // Stopped by the next {{, which still parses.
  assert.deepEqual(spans('{{ .a "x } {{ .b }}'), [[6, 10, '"x }']]);
  assert.deepEqual(refs('{{ .a "x } {{ .b }}'), ['a@3-5', 'b@14-16']);
  assert.deepEqual(onlyProblem('{{ .a /* c'), { code: 'misplacedCommentAndAction' });
  // Closed strings before a lone brace are fine; the brace is the one slip.
  assert.deepEqual(spans('{{ "abc" }'), [[9, 10, '}']]);
  // With }} the action is closed: the string alone is reported, as before.
  assert.deepEqual(onlyProblem('{{ "abc }}'), { code: 'unclosedString' });
});

test('a comment one brace short ends at that brace, and the next action still parses', () => {
  assert.deepEqual(spans('{{/* x */} {{ .b }}'), [[7, 9, '*/']]);
  assert.deepEqual(refs('{{/* x */} {{ .b }}'), ['b@14-16']);
  assert.deepEqual(refs('{{/* x */ foo {{ .b }}'), ['b@17-19']);
  const parsed = parseTemplate('{{/* x */ -}  y');
  assert.deepEqual(
    parsed.nodes.map((n) => (n.kind === 'text' ? n.value : n.kind)),
    ['comment', 'y'],
  );
});

test('removing any one brace of a valid template gives at most one error', () => {
  for (const text of VALID) {
    for (let i = text.indexOf('}'); i >= 0; i = text.indexOf('}', i + 1)) {
      const broken = text.slice(0, i) + text.slice(i + 1);
      const errors = errorsOf(broken);
      assert.ok(errors.length <= 1, `${JSON.stringify(broken)}: ${JSON.stringify(errors)}`);
    }
  }
});

// ---------------------------------------------------------------------------------------------
// references

test('root field chains with exact segment ranges', () => {
  const parsed = parseTemplate('x {{.steps.fetch.output.text}}');
  const [ref, ...rest] = extractReferences(parsed);
  assert.equal(rest.length, 0);
  assert.deepEqual(ref, {
    root: 'steps',
    segments: [
      { name: 'steps', start: 5, end: 10 },
      { name: 'fetch', start: 11, end: 16 },
      { name: 'output', start: 17, end: 23 },
      { name: 'text', start: 24, end: 28 },
    ],
    start: 4,
    end: 28,
  } satisfies FieldReference);
});

test('references from the ToolHive examples', () => {
  assert.deepEqual(refs('{{.params.query}}'), ['params.query@2-15']);
  assert.deepEqual(refs('{{json .steps.list.output.images}}'), ['steps.list.output.images@7-32']);
  assert.deepEqual(refs('{{eq .steps.ask.output.action "accept"}}'), ['steps.ask.output.action@5-29']);
  assert.deepEqual(refs('{{.forEach.img.ref}} {{.forEach.index}}'), ['forEach.img.ref@2-18', 'forEach.index@23-37']);
  assert.deepEqual(refs('{{.workflow.id}} {{.vars.x}}'), ['workflow.id@2-14', 'vars.x@19-26']);
  const roots = extractReferences(
    parseTemplate('{{.params.a}}{{.steps.b}}{{.forEach.c}}{{.vars.d}}{{.workflow.e}}'),
  ).map((r) => r.root);
  assert.deepEqual(roots, ['params', 'steps', 'forEach', 'vars', 'workflow']);
});

test('index with literal keys becomes one reference pointing at the strings', () => {
  const text = '{{index .steps "my-id" "output" "text"}}';
  const [ref] = extractReferences(parseTemplate(text));
  assert.ok(ref);
  assert.equal(ref.viaIndex, true);
  assert.equal(ref.root, 'steps');
  assert.deepEqual(ref.segments, [
    { name: 'steps', start: 9, end: 14 },
    { name: 'my-id', start: 16, end: 21 },
    { name: 'output', start: 24, end: 30 },
    { name: 'text', start: 33, end: 37 },
  ]);
  assert.deepEqual([ref.start, ref.end], [8, 38]);
  assert.equal(text.slice(16, 21), 'my-id');
});

test('index variants', () => {
  // A non-literal key stops the chain; later arguments are visited on their own.
  assert.deepEqual(refs('{{index .steps .params.k "output"}}'), ['steps@8-14', 'params.k@15-24']);
  assert.deepEqual(refs('{{index . "params" "x"}}'), ['params.x@8-22 index']);
  assert.deepEqual(refs('{{(index .steps "a" "output").text}}'), ['steps.a.output.text@9-34 index']);
  assert.deepEqual(refs('{{index .steps.a.output.items 0}}'), ['steps.a.output.items@8-29']);
  assert.deepEqual(refs('{{index .steps `raw-id`}}'), ['steps.raw-id@8-23 index']);
  // index of a non-root value is not a root reference.
  assert.deepEqual(refs('{{range .l}}{{index . "a"}}{{end}}'), ['l@8-10']);
});

test('fromJson: the inner chain is the reference', () => {
  assert.deepEqual(refs('{{(fromJson .steps.a.output.text).items}}'), ['steps.a.output.text@12-32']);
  assert.deepEqual(refs('{{(index (fromJson .steps.search.output.text).items 0).body}}'), [
    'steps.search.output.text@19-44',
  ]);
});

test('range and with bodies change the dot', () => {
  const text = '{{range $i, $v := .params.list}}{{.x}}{{$v.y}}{{$.params.z}}{{else}}{{.params.w}}{{end}}';
  assert.deepEqual(refs(text), ['params.list@18-30', 'params.z@48-58', 'params.w@70-79']);
  // `$.params.z`: the chain starts at the `$`, the segments at their names.
  const dollar = extractReferences(parseTemplate(text))[1];
  assert.equal(dollar?.root, 'params');
  assert.deepEqual(dollar?.segments, [
    { name: 'params', start: 50, end: 56 },
    { name: 'z', start: 57, end: 58 },
  ]);
  assert.deepEqual(refs('{{with .params.user}}{{.name}}{{$.params.id}}{{else}}{{.params.fallback}}{{end}}'), [
    'params.user@7-19',
    'params.id@32-43',
    'params.fallback@55-71',
  ]);
  // `with .` keeps the root; nested range inside with still changes it.
  assert.deepEqual(refs('{{with .}}{{.params.a}}{{range .b}}{{.c}}{{end}}{{end}}'), [
    '.@7-8',
    'params.a@12-21',
    'b@31-33',
  ]);
  assert.deepEqual(refs('{{if .a}}{{.b}}{{else}}{{.c}}{{end}}'), ['a@5-7', 'b@11-13', 'c@25-27']);
});

test('variables are not root references, except $ itself', () => {
  assert.deepEqual(refs('{{$x := .steps}}{{$x.fetch.output}}'), ['steps@8-14']);
  assert.deepEqual(refs('{{$}}{{$.a.b}}{{.}}'), ['.@2-3', 'a.b@7-12', '.@16-17']);
  const [bare] = extractReferences(parseTemplate('{{json .}}'));
  assert.equal(bare?.root, '');
  assert.deepEqual(bare?.segments, []);
});

test('define bodies are not root references; template and block arguments are', () => {
  assert.deepEqual(refs('{{define "d"}}{{.a}}{{$.b}}{{end}}{{template "d" .params}}'), ['params@49-56']);
  assert.deepEqual(refs('{{block "b" .}}{{.params.z}}{{end}}'), ['.@12-13', 'params.z@17-26']);
  assert.deepEqual(refs('{{block "b" .params}}{{.z}}{{end}}'), ['params@12-19']);
});

test('references in control pipelines and after syntax errors', () => {
  assert.deepEqual(refs('{{if eq .steps.a.status "completed"}}x{{end}}'), ['steps.a.status@8-23']);
  assert.deepEqual(refs('{{if .a}}x{{else if .b}}y{{end}}'), ['a@5-7', 'b@20-22']);
  assert.deepEqual(refs('{{ .a && .b }}'), ['a@3-5', 'b@9-11']);
  assert.deepEqual(refs('{{if .a == 1}}{{.b}}{{end}}'), ['a@5-7', 'b@16-18']);
});

test('references are in source order and UTF-16 offsets', () => {
  assert.deepEqual(refs('😀 {{.b}} {{.a}}'), ['b@5-7', 'a@12-14']);
  assert.deepEqual(refs('{{.params.名前}}'), ['params.名前@2-12']);
});

// ---------------------------------------------------------------------------------------------
// condition verdicts

test('conditions that can render true or false are ok', () => {
  const ok = [
    '{{eq .steps.ask.output.action "accept"}}',
    '{{.params.enabled}}',
    '{{not .params.x}}',
    '{{and .a (or .b .c)}}',
    '{{ne .a "b"}}',
    '{{gt .steps.s.output.count 10.0}}',
    'true',
    'True',
    'TRUE',
    'false',
    'False',
    'FALSE',
    '',
    '{{- .a -}}\n',
    '  {{- .a -}}  ',
    '{{if .a}}true{{else}}false{{end}}',
    '{{index .a 0}}',
    '{{json .a}}',
    '{{print .a}}',
    '{{printf "%v" .a}}',
    '{{printf "%t" .a}}',
    '{{"true"}}',
    '{{true}}',
    '{{/* why */}}{{.a}}',
    '{{$x := .a}}{{$x}}',
    '{{ .a == "b" }}', // a syntax error: parseTemplate reports it
  ];
  for (const text of ok) assert.deepEqual(verdict(text), { ok: true }, text);
});

test('plain text conditions are not ok', () => {
  const yes = verdict('yes');
  assert.ok(!yes.ok);
  assert.deepEqual([yes.start, yes.end], [0, 3]);
  assert.deepEqual(yes.reason, { code: 'plainText', text: 'yes' });
  const v = verdict('enabled');
  assert.ok(!v.ok);
  assert.deepEqual(v.reason, { code: 'plainText', text: 'enabled' });
  assert.deepEqual([v.start, v.end], [0, 7]);
  const spaced = verdict(' true');
  assert.ok(!spaced.ok);
  assert.deepEqual([spaced.start, spaced.end], [0, 5]);
});

test('literal text beside the action is not ok', () => {
  const v = verdict('x{{.a}}');
  assert.ok(!v.ok);
  assert.deepEqual([v.start, v.end], [0, 1]);
  assert.deepEqual(v.reason, { code: 'textBeside', text: 'x' });
  const nl = verdict('{{.a}}\n');
  assert.ok(!nl.ok);
  assert.deepEqual([nl.start, nl.end], [6, 7]);
  const around = verdict(' {{eq .a "b"}} ');
  assert.ok(!around.ok);
  assert.deepEqual([around.start, around.end], [0, 1]);
  const beside = verdict('{{if .a}}{{end}} x');
  assert.ok(!beside.ok);
  assert.deepEqual([beside.start, beside.end], [16, 18]);
});

test('functions that never render a bool are not ok', () => {
  const cases: [string, number, number, ConditionReason][] = [
    ['{{quote .a}}', 2, 7, { code: 'neverBooleanFunction', name: 'quote' }],
    ['{{.a | quote}}', 7, 12, { code: 'neverBooleanFunction', name: 'quote' }],
    ['{{len .a}}', 2, 5, { code: 'neverBooleanFunction', name: 'len' }],
    ['{{println .a}}', 2, 9, { code: 'neverBooleanFunction', name: 'println' }],
    ['{{printf "%s!" .a}}', 9, 14, { code: 'printfAddsText', format: '%s!' }],
    ['{{"yes"}}', 2, 7, { code: 'alwaysString', value: 'yes' }],
    ['{{1}}', 2, 3, { code: 'alwaysNumber' }],
    ['{{(quote .a)}}', 3, 8, { code: 'neverBooleanFunction', name: 'quote' }],
  ];
  for (const [text, start, end, reason] of cases) {
    const v = verdict(text);
    assert.ok(!v.ok, text);
    assert.deepEqual([v.start, v.end], [start, end], text);
    assert.deepEqual(v.reason, reason, text);
  }
});

test('conditions that render empty or only non-bool branches are not ok', () => {
  const empty = verdict('{{/* nothing */}}');
  assert.ok(!empty.ok);
  assert.deepEqual(empty.reason, { code: 'rendersEmpty' });
  assert.deepEqual([empty.start, empty.end], [0, 17]);
  const branches = verdict('{{if .a}}yes{{else}}no{{end}}');
  assert.ok(!branches.ok);
  assert.deepEqual([branches.start, branches.end], [0, 29]);
  assert.deepEqual(branches.reason, { code: 'everyBranchPrintsText' });
  // Without an else the body may not run: not certain.
  assert.deepEqual(verdict('{{if .a}}yes{{end}}'), { ok: true });
});

// ---------------------------------------------------------------------------------------------
// robustness

test('random strings never throw and give well-formed ranges', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (text) => {
      const parsed = parseTemplate(text);
      assertWellFormed(parsed);
      checkConditionRendersBoolean(parsed);
    }),
    { numRuns: 500, seed: SEED },
  );
});

test('random template-like strings never throw and give well-formed ranges', () => {
  const pieces = [
    '{{',
    '}}',
    '{{-',
    ' -}}',
    '{{/*',
    '*/}}',
    '*/',
    '(',
    ')',
    '.',
    '.a',
    '.steps',
    '.b-c',
    '$',
    '$x',
    '$x :=',
    ':=',
    '=',
    '==',
    '|',
    '||',
    ',',
    '"',
    '"s"',
    '`',
    '`r`',
    "'",
    "'c'",
    "'ab'",
    '\\',
    'if',
    'else',
    'end',
    'range',
    'with',
    'define',
    'block',
    'template',
    'break',
    'continue',
    'eq',
    'index',
    'fromJson',
    'json',
    'nope',
    'nil',
    'true',
    '1',
    '-2',
    '0x',
    '1e',
    '.5',
    ' ',
    '\n',
    'x',
    '😀',
    '}',
    '{',
  ];
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
      const parsed = parseTemplate(parts.join(''));
      assertWellFormed(parsed);
      checkConditionRendersBoolean(parsed);
    }),
    { numRuns: 2000, seed: SEED },
  );
});

test('a 100 KB template parses', () => {
  const line =
    'text {{.params.x}} and {{index .steps "a-b" "output"}} {{if eq .steps.c.status "done"}}y{{else}}n{{end}}\n';
  const text = line.repeat(Math.ceil(100_000 / line.length));
  assert.ok(text.length >= 100_000);
  const parsed = parseTemplate(text);
  const references = extractReferences(parsed);
  assert.deepEqual(parsed.errors, []);
  assert.equal(references.length, 3 * Math.ceil(100_000 / line.length));
});

test('5,000 nested parentheses give one clear error, no stack overflow', () => {
  const text = '{{' + '('.repeat(5000) + '.a' + ')'.repeat(5000) + '}}';
  const errors = errorsOf(text);
  assert.equal(errors.length, 1);
  const [error] = errors;
  assert.deepEqual(problemOf(error), { code: 'parensTooDeep', limit: MAX_PAREN_DEPTH });
  // The first parenthesis beyond the limit.
  assert.deepEqual([error?.start, error?.end], [2 + MAX_PAREN_DEPTH, 3 + MAX_PAREN_DEPTH]);
  // Exactly at the limit is fine.
  assertNoErrors('{{' + '('.repeat(MAX_PAREN_DEPTH) + '.a' + ')'.repeat(MAX_PAREN_DEPTH) + '}}');
  // Unclosed parentheses also stop at the limit.
  assert.equal(errorsOf('{{' + '('.repeat(5000) + '}}').length, 1);
});

test('5,000 nested blocks do not overflow and keep the tree shallow', () => {
  const text = '{{if .a}}'.repeat(5000) + '{{.params.x}}' + '{{end}}'.repeat(5000);
  const parsed = parseTemplate(text);
  assert.equal(parsed.errors.length, 1);
  assert.deepEqual(problemOf(parsed.errors[0]), { code: 'blocksTooDeep', limit: 100 });
  assert.doesNotThrow(() => JSON.stringify(parsed));
  assert.ok(extractReferences(parsed).length > 0);
  assert.deepEqual(checkConditionRendersBoolean(parsed), { ok: true });
  // Unclosed: the missing ends are reported for the kept levels only.
  const unclosed = parseTemplate('{{range .a}}'.repeat(5000));
  assert.equal(unclosed.errors.length, 101);
  // Long else-if chains and many siblings are fine.
  assertNoErrors('{{if .a}}' + '{{else if .b}}'.repeat(50) + '{{end}}');
  assertNoErrors('{{if .a}}x{{end}}'.repeat(5000));
});

test('more errors than a function call takes arguments', () => {
  assert.equal(errorsOf('{{'.repeat(150_000)).length, 150_000);
  assert.equal(errorsOf('{{"' + '\\q'.repeat(150_000) + '"}}').length, 150_000);
});

// Speed is measured by the benchmark suite, not asserted here; a quadratic regression on these
// inputs shows up as a suite that takes minutes.
test('pathological inputs parse without throwing (no rescanning to the end)', () => {
  const inputs = [
    '{{ /* '.repeat(16_000),
    '{{' + '"\n'.repeat(50_000),
    '{{`'.repeat(33_000),
    '{{/*'.repeat(25_000),
    '{{' + '.a-b'.repeat(25_000) + '}}',
    '{{$x := 1}}'.repeat(10_000) + '{{$x}}',
  ];
  for (const text of inputs) {
    const parsed = parseTemplate(text);
    assert.doesNotThrow(() => extractReferences(parsed));
    assert.doesNotThrow(() => checkConditionRendersBoolean(parsed));
  }
});

test('long field chains and many actions', () => {
  const chain = '.a'.repeat(10_000);
  const [ref] = extractReferences(parseTemplate(`{{${chain}}}`));
  assert.equal(ref?.segments.length, 10_000);
  const many = parseTemplate('{{'.repeat(5000));
  assert.equal(many.errors.length, 5000);
  assertWellFormed(many);
});
