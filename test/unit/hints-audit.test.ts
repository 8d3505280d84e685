// The annotation audit's reading of a tool's words (server/src/core/audit/words.ts) and its verdicts
// over plain values (audit/hints.ts), on real tools and on the words that would trip a substring
// match. The hints/* fixtures check the findings in documents; this checks the analysis others reuse.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { auditTool, declaredHints, hintsKey, stampOf, type AuditedTool } from '../../server/src/core/audit/hints.js';
import {
  changeParameters,
  identifierWords,
  leadingDescriptionVerbs,
  leadingNameVerb,
  noChangeStatement,
  toolWords,
  verbOf,
} from '../../server/src/core/audit/words.js';
import { serversFromDocument } from '../../server/src/core/catalog/load.js';
import { checkFile } from '../../server/src/core/engine.js';
import type { ToolAnnotations } from '../../server/src/core/types.js';
import { Workspace } from '../../server/src/core/workspace.js';

const words = (text: string) => identifierWords(text).map((w) => w.text);
const changes = (tool: AuditedTool) =>
  toolWords(tool).changes.map((c) =>
    c.where === 'parameter'
      ? `parameter:${c.parameter.name}`
      : c.where === 'file-parameter'
        ? `file-parameter:${c.parameter.name}:${c.parameter.writes}`
        : `${c.where}:${c.verb.base}`,
  );

test('identifiers split into whole words at _, -, ., digits and camelCase, with their offsets', () => {
  assert.deepEqual(words('github_create_issue'), ['github', 'create', 'issue']);
  assert.deepEqual(words('get-tiny-image'), ['get', 'tiny', 'image']);
  assert.deepEqual(words('getHTTPStatus'), ['get', 'http', 'status']);
  assert.deepEqual(words('fs.readFile2'), ['fs', 'read', 'file', '2']);
  assert.deepEqual(words('postgres'), ['postgres']);
  const [, second] = identifierWords('list_deletedItems');
  assert.deepEqual(second, { text: 'deleted', start: 5, end: 12 });
});

test('verbs in their base form and third person; other inflections and longer words are no verbs', () => {
  assert.equal(verbOf({ text: 'creates', start: 0, end: 7 })?.base, 'create');
  assert.equal(verbOf({ text: 'pushes', start: 0, end: 6 })?.base, 'push');
  assert.equal(verbOf({ text: 'copies', start: 0, end: 6 })?.base, 'copy');
  assert.equal(verbOf({ text: 'queries', start: 0, end: 7 })?.sense, 'reads');
  for (const word of ['deleted', 'updated', 'settings', 'postgres', 'poster', 'address']) {
    assert.equal(verbOf({ text: word, start: 0, end: word.length }), undefined, word);
  }
});

test('the first known verb of a name decides it, whatever follows', () => {
  assert.equal(leadingNameVerb('github_create_issue')?.sense, 'changes');
  assert.equal(leadingNameVerb('slack_post_message')?.base, 'post');
  assert.equal(leadingNameVerb('get_post')?.sense, 'reads');
  assert.equal(leadingNameVerb('list_deleted_items')?.sense, 'reads');
  assert.equal(leadingNameVerb('trigger-long-running-operation')?.sense, 'neutral');
  assert.equal(leadingNameVerb('directory_tree'), undefined);
});

test("a description's leading verbs: after a preamble, joined by and / or / commas, in its first sentence only", () => {
  const bases = (text: string) => leadingDescriptionVerbs(text).map((v) => v.base);
  assert.deepEqual(bases('Create, update or delete a note.'), ['create', 'update', 'delete']);
  assert.deepEqual(bases('Use this tool to execute a shell command'), ['execute']);
  assert.deepEqual(bases('Search and replace text'), ['search', 'replace']);
  assert.deepEqual(bases('Get post details'), ['get']);
  assert.deepEqual(bases('Returns the rows that were deleted. Delete them with purge_rows.'), ['return']);
  assert.deepEqual(bases('Demonstrates a long running operation with progress updates.'), []);
  const [verb] = leadingDescriptionVerbs('  This tool sends mail');
  assert.deepEqual([verb?.text, verb?.start, verb?.end], ['sends', 12, 17]);
});

test('a description that says the tool changes nothing', () => {
  assert.equal(noChangeStatement('Run a read-only SQL query')?.text, 'read-only');
  assert.equal(noChangeStatement("Shows the plan; it doesn't modify anything")?.text, "doesn't modify");
  assert.equal(noChangeStatement('Checks the file without modifying it')?.text, 'without modifying');
  assert.equal(noChangeStatement('Read the complete contents of a file'), undefined);
});

test('parameters: the head word of the name, and a type that can hold text or data', () => {
  const schema = {
    properties: {
      content: { type: 'string' },
      fileContent: {},
      requestBody: { type: ['object', 'null'] },
      contentType: { type: 'string' },
      includeBody: { type: 'boolean' },
      command: { type: 'string' },
      path: { type: 'string' },
    },
  };
  assert.deepEqual(
    changeParameters(schema).map((p) => p.name),
    ['content', 'fileContent', 'requestBody', 'command'],
  );
  assert.deepEqual(changeParameters({ properties: [] }), []);
  assert.deepEqual(changeParameters(undefined), []);
});

test("a tool's change evidence: names, descriptions and parameters, unless a read verb leads or it says it changes nothing", () => {
  assert.deepEqual(changes({ name: 'github_create_issue', description: 'Create a new issue.' }), [
    'name:create',
    'description:create',
  ]);
  assert.deepEqual(
    changes({
      name: 'shell',
      description: 'Use this tool to execute a command.',
      inputSchema: { properties: { command: { type: 'string' } } },
    }),
    ['description:execute', 'parameter:command'],
  );
  assert.deepEqual(changes({ name: 'note_keeper', inputSchema: { properties: { noteContent: { type: 'string' } } } }), [
    'parameter:noteContent',
  ]);
  assert.deepEqual(
    changes({ name: 'render_markdown', inputSchema: { properties: { content: { type: 'string' } } } }),
    [],
  );
  assert.deepEqual(
    changes({ name: 'summarize', description: 'Summarize a text.', inputSchema: { properties: { content: {} } } }),
    [],
  );
  assert.deepEqual(
    changes({ name: 'delete_preview', description: 'Show what would be deleted; does not modify anything.' }),
    [],
  );
  assert.deepEqual(changes({ name: 'postgres_query', description: 'Run a read-only SQL query' }), []);
});

test('auditTool: one verdict per cause, and none on a tool whose hints fit its words', () => {
  assert.deepEqual(auditTool({ name: 'get_forecast' }), [{ kind: 'none-declared', titleOnly: false }]);
  assert.deepEqual(auditTool({ name: 'delete_item', annotations: { title: 'Delete' } }), [
    { kind: 'none-declared', titleOnly: true },
  ]);
  assert.deepEqual(auditTool({ name: 'start_job', annotations: { openWorldHint: false } }), [
    { kind: 'destructive-unstated', readOnlyDeclared: false },
  ]);
  assert.deepEqual(auditTool({ name: 'retry_job', annotations: { readOnlyHint: false, destructiveHint: false } }), []);
  assert.deepEqual(auditTool({ name: 'read_file', annotations: { readOnlyHint: true } }), []);
  const [verdict] = auditTool({ name: 'delete_entities', annotations: { readOnlyHint: true, destructiveHint: true } });
  assert.equal(verdict?.kind, 'read-only-writes');
});

test('stampOf: three or more tools, identical hints, and words that read and words that change', () => {
  const stamp = { readOnlyHint: false, destructiveHint: true };
  const tools = (names: string[], annotations: ToolAnnotations = stamp): AuditedTool[] =>
    names.map((name) => ({ name, annotations }));
  const found = stampOf(tools(['list_tickets', 'get_ticket', 'close_ticket']));
  assert.deepEqual(found, { hints: stamp, reading: [0, 1], changing: [2] });
  assert.equal(stampOf(tools(['get_ticket', 'close_ticket'])), undefined, 'two tools are too few');
  assert.equal(
    stampOf(tools(['get_a', 'get_b', 'list_c'], { readOnlyHint: true, destructiveHint: false })),
    undefined,
    'honest reads alike are no stamp',
  );
  assert.equal(
    stampOf([...tools(['list_tickets', 'get_ticket']), { name: 'close_ticket', annotations: { readOnlyHint: false } }]),
    undefined,
  );
  assert.equal(
    stampOf(tools(['list_a', 'get_b', 'delete_c'], {})),
    undefined,
    'no hints is hints/none-declared, not a stamp',
  );
  assert.notEqual(
    hintsKey(declaredHints({ readOnlyHint: false })),
    hintsKey(declaredHints({})),
    'a hint left out is not false',
  );
});

test('the real reference catalogs, read as CatalogTools, give no verdict and no stamp', () => {
  // The captures of test/corpus/clean, and the snapshots `tool-lens catalog fetch` wrote from the same servers.
  const real = [
    ...['everything', 'everything-fullcaps', 'filesystem', 'memory'].map((name) =>
      path.join(__dirname, '../corpus/clean/catalogs', `${name}.json`),
    ),
    ...['none-declared/filesystem', 'stamped/memory', 'read-only-writes/everything'].map((name) =>
      path.join(__dirname, '../fixtures/hints', `${name}.catalog.yaml`),
    ),
  ];
  const workspace = new Workspace('/');
  let tools = 0;
  for (const file of real) {
    const parsed = workspace.parse(file, readFileSync(file, 'utf8'));
    for (const server of serversFromDocument(file, parsed.documents[0]!.root)) {
      tools += server.tools.length;
      for (const tool of server.tools) assert.deepEqual(auditTool(tool), [], `${server.name}/${tool.name}`);
      assert.equal(stampOf(server.tools), undefined, server.name);
    }
  }
  assert.ok(tools >= 50, `only ${tools} tools read`);
});

test('a changing verb used as a noun, and add over numbers, are no evidence', () => {
  for (const name of ['sync_status', 'commit_history', 'post_details', 'delete_preview', 'merge_request_info']) {
    assert.equal(leadingNameVerb(name), undefined, name);
  }
  assert.equal(leadingNameVerb('create_issue')?.base, 'create');
  assert.equal(leadingNameVerb('create_list')?.base, 'create');
  assert.deepEqual(leadingDescriptionVerbs('Post details for an id.'), []);
  assert.deepEqual(leadingDescriptionVerbs('Sync status of a folder.'), []);
  const numbers = { properties: { a: { type: 'number' }, b: { type: 'number' } } };
  assert.deepEqual(changes({ name: 'add', description: 'Adds two numbers', inputSchema: numbers }), []);
  assert.deepEqual(
    changes({
      name: 'add_label',
      description: 'Add a label to an issue',
      inputSchema: { properties: { label: { type: 'string' } } },
    }),
    ['name:add', 'description:add'],
  );
});

test('a parameter written twice, and one named __proto__, are read once and throw nothing (found by the fuzz)', () => {
  const text = [
    'catalog: 1',
    'servers:',
    '  - name: notes',
    '    tools:',
    '      - name: keep',
    '        inputSchema:',
    '          type: object',
    '          properties:',
    '            path: {type: string}',
    '            path: {type: string}',
    '            __proto__: {type: string}',
    '            noteContent: {type: string}',
    '        annotations: {readOnlyHint: true}',
    '',
  ].join('\n');
  const logged: string[] = [];
  const workspace = new Workspace('/', (message) => logged.push(message));
  const file = workspace.parse('/notes.catalog.yaml', text);
  workspace.catalog.addFile(file);
  const findings = checkFile(file, workspace).findings.map((f) => f.rule);
  assert.deepEqual(logged, []);
  assert.deepEqual(
    findings.filter((r) => r.startsWith('hints/')),
    ['hints/read-only-writes'],
  );
});

test('later sentences count only when they save or write a file; twins of the own session say nothing', () => {
  assert.deepEqual(
    changes({
      name: 'collect_logs',
      description: 'Collects logs. Groups them. If `saveTo` is given, saves them to `saveTo`.',
      inputSchema: { properties: { saveTo: { type: 'string' } } },
    }),
    ['description:save'],
  );
  assert.deepEqual(
    changes({ name: 'notes', description: 'Get a prompt. 1. Create a knowledge base. 2. Save time.' }),
    [],
  );
  assert.deepEqual(changes({ name: 'disconnect', description: 'Close the connection to the browser.' }), []);
  assert.deepEqual(changes({ name: 'close_session', description: 'Ends the session.' }), []);
  assert.deepEqual(changes({ name: 'close_issue', description: 'Closes an issue.' }), [
    'name:close',
    'description:close',
  ]);
  assert.deepEqual(
    changes({
      name: 'browser_take_screenshot',
      description: 'Take a screenshot of the current page.',
      inputSchema: {
        properties: {
          filename: {
            type: 'string',
            description: 'File name to save to. If not specified, the screenshot is saved into the output directory.',
          },
          path: { type: 'string' },
        },
      },
    }),
    ['file-parameter:filename:always'],
  );
  assert.deepEqual(
    changes({
      name: 'load_state',
      description: 'Returns the stored state.',
      inputSchema: { properties: { filename: { type: 'string', description: 'File to load the state from.' } } },
    }),
    [],
  );
});

test('paired verbs say the same: a tool and its twin are judged alike', () => {
  const sense = (word: string) => verbOf({ text: word, start: 0, end: word.length })?.sense;
  const pairs = [
    ['connect', 'disconnect'],
    ['start', 'stop'],
    ['lock', 'unlock'],
    ['enable', 'disable'],
    ['subscribe', 'unsubscribe'],
    ['attach', 'detach'],
    ['mute', 'unmute'],
    ['follow', 'unfollow'],
    ['block', 'unblock'],
    ['register', 'unregister'],
    ['install', 'uninstall'],
    ['archive', 'unarchive'],
    ['assign', 'unassign'],
  ];
  for (const [one, other] of pairs) assert.equal(sense(one!), sense(other!), `${one} / ${other}`);
  // `close` is the twin of `open` only for what the server opens for itself.
  assert.deepEqual(changes({ name: 'open_page', description: 'Open a page.' }), []);
  assert.deepEqual(changes({ name: 'close_page', description: 'Close the page.' }), []);
  assert.deepEqual(changes({ name: 'close_ticket', description: 'Close a ticket.' }), [
    'name:close',
    'description:close',
  ]);
});

test('a file parameter counts only when its description says the tool writes there', () => {
  const withFile = (description: string) =>
    changes({
      name: 'get_report',
      description: 'Returns the report.',
      inputSchema: { properties: { filePath: { type: 'string', description } } },
    });
  assert.deepEqual(withFile('Path to the file where your credentials are stored.'), []);
  assert.deepEqual(withFile('Path of a saved session to load.'), []);
  assert.deepEqual(withFile('Where to write the report.'), ['file-parameter:filePath:when-given']);
  assert.deepEqual(withFile('Saves the report here when given.'), ['file-parameter:filePath:when-given']);
  assert.deepEqual(
    changes({ name: 'get_report', description: 'Returns the report. Saves time on a second call to the same path.' }),
    [],
  );
});

test('after a dash, an enumeration of verbs says what the tool does; one word alone does not', () => {
  assert.deepEqual(
    changes({
      name: 'kubectl_context',
      description: 'Manage Kubernetes contexts - list, get, or set the current context',
    }),
    ['description:set'],
  );
  assert.deepEqual(changes({ name: 'helpers', description: 'Kubernetes helpers - set of read tools' }), []);
  assert.deepEqual(changes({ name: 'contexts', description: 'Kubernetes contexts - list or get them' }), []);
});
