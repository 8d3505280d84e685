// Rule documentation and `.toollens.yaml` over the protocol (issue 12): where a diagnostic links
// (the client's command, or the web page of the configuration's `ruleDocsUrl`), the "Disable RULE
// for this file" and "Show documentation for RULE" quick fixes, and the configuration served by
// Tool Lens itself: its problems with "did you mean" fixes, completion of keys, rule ids,
// severities, kinds and workloads, and the hover on a rule id.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  CodeActionRequest,
  CompletionRequest,
  ExecuteCommandRequest,
  HoverRequest,
  type CodeAction,
  type CompletionItem,
  type Diagnostic,
  type Hover,
} from 'vscode-languageserver-protocol/node';
import { ALL_RULES } from '../../server/src/core/rules/registry.js';
import { ruleDocsUrl } from '../../server/src/core/rules/rule.js';
import { SERVER_COMMANDS, type RuleItem } from '../../server/src/lsp/protocol.js';
import { applyLspEdits, cursor, makeWorkspace, startInProcess, type InProcess } from './harness.js';
import { CATALOG, CATALOG_PATH, WORKFLOW, WORKFLOW_PATH } from './workspace.js';

const COMMAND = 'toolLens.openRuleDocs';
const CONTRADICTION = 'annotations/contradiction';
const NOT_UPSTREAM = 'template/not-upstream';
/** The workflow with a second backend that no catalog describes (a workload to map). */
const GATEWAY = WORKFLOW.replace(
  'backends:\n',
  'backends:\n  - name: github\n    url: http://github:8080/mcp\n    transport: streamable-http\n',
);
const CONFIG_PATH = '.toollens.yaml';
const CONFIG = [
  'ruleDocsUrl: https://lint.example/tool-lens/{rule}',
  'rules:',
  '  annotations/contradicton: warning',
  '  template/not-upstream: warn',
  'kinds:',
  '  vmcp-confg: ["extra/*.yaml"]',
  'catalog: ["more/*.json"]',
  '',
].join('\n');

/** A diagnostic's message as text (LSP 3.18 lets it be markup). */
function textOf(message: string | { value: string }): string {
  return typeof message === 'string' ? message : message.value;
}

async function actionsAt(server: InProcess, uri: string, diagnostic: Diagnostic): Promise<CodeAction[]> {
  const result = await server.client.connection.sendRequest(CodeActionRequest.type, {
    textDocument: { uri },
    range: diagnostic.range,
    context: { diagnostics: [diagnostic] },
  });
  return (result ?? []) as CodeAction[];
}

function editOf(action: CodeAction | undefined, uri: string): { range: Diagnostic['range']; newText: string }[] {
  assert.ok(action?.edit?.changes?.[uri], `the action ${action?.title} edits ${uri}`);
  return action.edit.changes[uri];
}

async function completionAt(server: InProcess, uri: string, marked: string): Promise<CompletionItem[]> {
  const { text, position } = cursor(marked);
  await server.client.replaceAll(uri, text);
  const result = await server.client.connection.sendRequest(CompletionRequest.type, {
    textDocument: { uri },
    position,
  });
  return Array.isArray(result) ? result : (result?.items ?? []);
}

describe('rule documentation and .toollens.yaml over the protocol', () => {
  describe('a client with a command for rule pages (VS Code)', () => {
    let server: InProcess;
    let ws: ReturnType<typeof makeWorkspace>;
    before(async () => {
      ws = makeWorkspace({ [CATALOG_PATH]: CATALOG, [WORKFLOW_PATH]: GATEWAY, [CONFIG_PATH]: CONFIG });
      server = startInProcess();
      await server.client.initialize(ws.root, undefined, { ruleDocsCommand: COMMAND });
    });
    after(async () => {
      await server.client.shutdown();
      server.dispose();
      ws.dispose();
    });

    test('each diagnostic links to the command with its rule id', async () => {
      const uri = ws.uri(WORKFLOW_PATH);
      await server.client.open(uri, GATEWAY);
      const contradiction = (await server.client.pullItems(uri)).find((d) => d.code === CONTRADICTION);
      assert.ok(contradiction, `${CONTRADICTION} is reported`);
      assert.equal(
        contradiction.codeDescription?.href,
        `command:${COMMAND}?${encodeURIComponent(JSON.stringify([CONTRADICTION]))}`,
      );
    });

    test('the quick fixes hold the line and file suppressions and the documentation, once per rule', async () => {
      const uri = ws.uri(WORKFLOW_PATH);
      const contradiction = (await server.client.pullItems(uri)).find((d) => d.code === CONTRADICTION)!;
      const actions = await actionsAt(server, uri, contradiction);
      const titles = actions.map((a) => a.title);
      for (const title of [
        `Disable ${CONTRADICTION} for this line`,
        `Disable ${CONTRADICTION} for the entire file`,
        `Show documentation for ${CONTRADICTION}`,
      ]) {
        assert.equal(titles.filter((t) => t === title).length, 1, `one "${title}" in ${JSON.stringify(titles)}`);
      }
      const docs = actions.find((a) => a.title === `Show documentation for ${CONTRADICTION}`)!;
      assert.deepEqual(docs.command, { title: docs.title, command: COMMAND, arguments: [CONTRADICTION] });
      assert.equal(docs.edit, undefined);
      assert.ok(
        titles.indexOf(`Disable ${CONTRADICTION} for this line`) <
          titles.indexOf(`Disable ${CONTRADICTION} for the entire file`),
        'the line before the file',
      );
    });

    test('"Disable RULE for the entire file" silences the rule in the file, and a second rule joins the same comment', async () => {
      const uri = ws.uri(WORKFLOW_PATH);
      const contradiction = (await server.client.pullItems(uri)).find((d) => d.code === CONTRADICTION)!;
      const disable = (await actionsAt(server, uri, contradiction)).find(
        (a) => a.title === `Disable ${CONTRADICTION} for the entire file`,
      );
      const once = applyLspEdits(GATEWAY, editOf(disable, uri));
      assert.equal(once, `# tool-lens-disable-file ${CONTRADICTION} -- \n${GATEWAY}`);
      await server.client.replaceAll(uri, once);
      let items = await server.client.pullItems(uri);
      assert.deepEqual(
        items.filter((d) => d.code === CONTRADICTION || d.code === 'lens/unused-suppression'),
        [],
      );
      const notUpstream = items.find((d) => d.code === NOT_UPSTREAM);
      assert.ok(notUpstream, `${NOT_UPSTREAM} is still reported`);
      const second = (await actionsAt(server, uri, notUpstream)).find(
        (a) => a.title === `Disable ${NOT_UPSTREAM} for the entire file`,
      );
      const twice = applyLspEdits(once, editOf(second, uri));
      assert.equal(twice, `# tool-lens-disable-file ${CONTRADICTION}, ${NOT_UPSTREAM} -- \n${GATEWAY}`);
      await server.client.replaceAll(uri, twice);
      items = await server.client.pullItems(uri);
      assert.deepEqual(
        items.filter(
          (d) => d.code === CONTRADICTION || d.code === NOT_UPSTREAM || d.code === 'lens/unused-suppression',
        ),
        [],
      );
      await server.client.replaceAll(uri, GATEWAY);
    });

    test('a file suppression that silences nothing is reported, with a fix that removes it', async () => {
      const uri = ws.uri(WORKFLOW_PATH);
      const text = `# tool-lens-disable-file workflow/duplicate-step-id -- never happens here\n${GATEWAY}`;
      await server.client.replaceAll(uri, text);
      const unused = (await server.client.pullItems(uri)).find((d) => d.code === 'lens/unused-suppression');
      assert.ok(unused, 'lens/unused-suppression is reported');
      assert.equal(
        textOf(unused.message),
        'This suppression of workflow/duplicate-step-id silences nothing: remove it.',
      );
      assert.match(
        unused.relatedInformation?.[0]?.message ?? '',
        /workflow\/duplicate-step-id reports nothing in this file/,
      );
      const remove = (await actionsAt(server, uri, unused)).find((a) => a.title === 'Remove this suppression comment');
      assert.equal(applyLspEdits(text, editOf(remove, uri)), GATEWAY);
      await server.client.replaceAll(uri, GATEWAY);
    });

    test('the rules command lists every rule with its severity and summary', async () => {
      const rules = (await server.client.connection.sendRequest(ExecuteCommandRequest.type, {
        command: SERVER_COMMANDS.rules,
        arguments: [],
      })) as RuleItem[];
      assert.deepEqual(
        rules.map((r) => r.id),
        ALL_RULES.map((r) => r.id),
      );
      const contradiction = rules.find((r) => r.id === CONTRADICTION)!;
      assert.equal(contradiction.summary, ALL_RULES.find((r) => r.id === CONTRADICTION)!.summary);
      assert.equal(contradiction.defaultSeverity, 'error');
    });

    test('.toollens.yaml: unknown rule ids, severities, kinds and keys, each with "did you mean" and its fix', async () => {
      const uri = ws.uri(CONFIG_PATH);
      await server.client.open(uri, CONFIG);
      const items = await server.client.pullItems(uri);
      const wanted: [string, string, string][] = [
        ['annotations/contradicton', `Did you mean ${CONTRADICTION}?`, `Change to ${CONTRADICTION}`],
        ['warn', 'Did you mean warning?', 'Change to warning'],
        ['vmcp-confg', 'Did you mean vmcp-config?', 'Change to vmcp-config'],
        ['catalog', 'Did you mean catalogs?', 'Change to catalogs'],
      ];
      assert.equal(items.length, wanted.length, JSON.stringify(items.map((d) => d.message)));
      let fixed = CONFIG;
      for (const [word, advice, title] of wanted) {
        const line = CONFIG.split('\n').findIndex((l) => l.includes(`${word}:`) || l.endsWith(` ${word}`));
        const diagnostic: Diagnostic | undefined = items.find((d) => d.range.start.line === line);
        assert.ok(diagnostic, `a problem on line ${line + 1} (${word})`);
        // The advice is in the message or the why under it (its related information).
        const message = [
          textOf(diagnostic.message),
          ...(diagnostic.relatedInformation ?? []).map((r) => r.message),
        ].join(' ');
        assert.ok(message.includes(advice), message);
        const actions = await actionsAt(server, uri, diagnostic);
        const change = actions.find((a) => a.title === title);
        assert.ok(change, `"${title}" in ${JSON.stringify(actions.map((a) => a.title))}`);
        assert.ok(
          actions.some((a) => a.title === `Show documentation for ${String(diagnostic.code)}`),
          'the documentation of the problem rule',
        );
        assert.ok(
          !actions.some((a) => /^(Suppress|Disable) /.test(a.title)),
          'no suppression comment in the configuration: its problems stop a run',
        );
        fixed = applyLspEdits(fixed, editOf(change, uri));
      }
      await server.client.replaceAll(uri, fixed);
      assert.deepEqual(await server.client.pullItems(uri), [], fixed);
    });

    test('.toollens.yaml: completion of keys, rule ids, severities, kinds and workload names', async () => {
      const uri = ws.uri(CONFIG_PATH);
      const labels = (items: CompletionItem[]) => items.map((i) => i.label);
      const top = await completionAt(server, uri, 'rules: {}\n‸\n');
      assert.deepEqual(labels(top), ['catalogs', 'workloads', 'overrides', 'kinds', 'limits', 'ruleDocsUrl']);
      const ids = await completionAt(server, uri, `rules:\n  ${NOT_UPSTREAM}: warning\n  anno‸\n`);
      assert.ok(labels(ids).includes(CONTRADICTION), JSON.stringify(labels(ids).slice(0, 5)));
      assert.ok(!labels(ids).includes(NOT_UPSTREAM), 'a rule already configured is not offered again');
      const contradiction = ids.find((i) => i.label === CONTRADICTION)!;
      assert.equal(contradiction.detail, 'error by default');
      assert.equal((contradiction.textEdit as { newText: string }).newText, `${CONTRADICTION}: `);
      // Accepting it opens the severity list at once.
      assert.deepEqual(contradiction.command, { title: 'Suggest', command: 'editor.action.triggerSuggest' });
      const inOverride = await completionAt(server, uri, 'overrides:\n  - files: ["a/**"]\n    rules:\n      ‸\n');
      assert.ok(labels(inOverride).includes(CONTRADICTION), 'rule ids in an override too');
      const severities = await completionAt(server, uri, `rules:\n  ${CONTRADICTION}: ‸\n`);
      assert.deepEqual(labels(severities), ['error', 'warning', 'info', 'hint', 'off']);
      assert.match(severities[0]!.detail ?? '', /the default/);
      const overrideSeverity = await completionAt(
        server,
        uri,
        `overrides:\n  - files: ["a/**"]\n    rules:\n      ${CONTRADICTION}: w‸\n`,
      );
      assert.ok(labels(overrideSeverity).includes('warning'));
      const kinds = await completionAt(server, uri, 'kinds:\n  ‸\n');
      assert.ok(
        labels(kinds).includes('vmcp-config') && labels(kinds).includes('face-overlay'),
        JSON.stringify(labels(kinds)),
      );
      const workloads = await completionAt(server, uri, 'workloads:\n  ‸\n');
      assert.deepEqual(labels(workloads).slice().sort(), ['filesystem', 'github']);
      const github = workloads.find((i) => i.label === 'github')!;
      assert.equal(github.detail, 'workload without a catalog');
      assert.ok(
        (github.sortText ?? '') < (workloads.find((i) => i.label === 'filesystem')!.sortText ?? ''),
        'the workload that needs a mapping first',
      );
      const servers = await completionAt(server, uri, 'workloads:\n  github: ‸\n');
      assert.deepEqual(labels(servers), ['filesystem']);
      await server.client.replaceAll(uri, CONFIG);
    });

    test('.toollens.yaml: hover on a rule id gives its summary', async () => {
      const uri = ws.uri(CONFIG_PATH);
      const { text, position } = cursor(
        `rules:\n  annotations/contra‸diction: warning\noverrides:\n  - files: ["a/**"]\n    rules:\n      ${NOT_UPSTREAM}: off\n`,
      );
      await server.client.replaceAll(uri, text);
      const hover: Hover | null = await server.client.connection.sendRequest(HoverRequest.type, {
        textDocument: { uri },
        position,
      });
      const value = (hover?.contents as { value: string } | undefined)?.value ?? '';
      assert.ok(value.startsWith(`**${CONTRADICTION}** (error by default)`), value);
      assert.ok(value.includes(ALL_RULES.find((r) => r.id === CONTRADICTION)!.summary.slice(0, 20)), value);
      const inOverride = cursor(text.replace(`${NOT_UPSTREAM}:`, `template/not-‸upstream:`)).position;
      const second: Hover | null = await server.client.connection.sendRequest(HoverRequest.type, {
        textDocument: { uri },
        position: inOverride,
      });
      assert.ok(((second?.contents as { value: string } | undefined)?.value ?? '').startsWith(`**${NOT_UPSTREAM}**`));
      const onKey = cursor(text.replace('rules:', 'ru‸les:')).position;
      assert.equal(
        await server.client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: onKey }),
        null,
      );
      await server.client.replaceAll(uri, CONFIG);
    });
  });

  describe('a client without one (Neovim, Helix)', () => {
    let server: InProcess;
    let ws: ReturnType<typeof makeWorkspace>;
    before(async () => {
      ws = makeWorkspace({
        [CATALOG_PATH]: CATALOG,
        [WORKFLOW_PATH]: GATEWAY,
        [CONFIG_PATH]: 'ruleDocsUrl: https://lint.example/tool-lens/{rule}\n',
      });
      server = startInProcess();
      await server.client.initialize(ws.root);
    });
    after(async () => {
      await server.client.shutdown();
      server.dispose();
      ws.dispose();
    });

    test('diagnostics link to the web page the configuration names, and no action needs a client command', async () => {
      const uri = ws.uri(WORKFLOW_PATH);
      await server.client.open(uri, GATEWAY);
      const contradiction = (await server.client.pullItems(uri)).find((d) => d.code === CONTRADICTION);
      assert.ok(contradiction);
      assert.equal(contradiction.codeDescription?.href, 'https://lint.example/tool-lens/annotations/contradiction');
      assert.equal(
        contradiction.codeDescription?.href,
        ruleDocsUrl(CONTRADICTION, 'https://lint.example/tool-lens/{rule}'),
      );
      const actions = await actionsAt(server, uri, contradiction);
      assert.ok(actions.some((a) => a.title === `Disable ${CONTRADICTION} for the entire file`));
      assert.ok(!actions.some((a) => a.command !== undefined), JSON.stringify(actions.map((a) => a.title)));
    });
  });
});
