// `catalog fetch --check` as printed: which fields of which tool differ, the changed words, and a
// note when the server's new text names this machine (so the snapshot can never match elsewhere).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { committedCatalog, compareWithCommitted, formatSnapshotCheck } from '../../server/src/cli/snapshotCheck.js';
import type { FetchedCatalog } from '../../server/src/live/fetch.js';

function fetched(description: string): FetchedCatalog {
  return {
    server: 'box',
    fetched: { at: '2026-12-07T07:00:00.000Z', protocolVersion: '2025-11-25' },
    tools: [
      {
        name: 'list_files',
        description,
        inputSchema: { type: 'object', properties: { depth: { type: 'integer', description: 'How deep.' } } },
        annotations: { readOnlyHint: true },
      },
    ],
    stats: { transport: 'stdio', pages: 1, connectMs: 1, listMs: 1 },
  };
}

test('--check says which fields differ, shows the changed words, and names the machine the text embeds', () => {
  const root = mkdtempSync(join(tmpdir(), 'tool-lens-check-'));
  try {
    mkdirSync(join(root, 'catalogs'));
    writeFileSync(
      join(root, 'catalogs', 'box.catalog.yaml'),
      [
        'catalog: 1',
        'servers:',
        '  - name: box',
        '    tools:',
        '      - name: list_files',
        '        description: Lists the files under /srv/elsewhere/data.',
        '        inputSchema: {type: object, properties: {depth: {type: integer, description: How deep.}}}',
        '        annotations: {readOnlyHint: true}',
        '',
      ].join('\n'),
    );
    const committed = committedCatalog(root, () => undefined);
    const same = compareWithCommitted(root, committed, fetched('Lists the files under /srv/elsewhere/data.'));
    assert.equal(formatSnapshotCheck(same), 'box: catalogs/box.catalog.yaml matches the server\n');
    const home = homedir();
    const check = compareWithCommitted(root, committed, fetched(`Lists the files under ${home}/data.`));
    assert.equal(check.status, 'differs');
    assert.deepEqual(check.machine, [home]);
    const text = formatSnapshotCheck(check);
    assert.match(text, /^ {2}list_files: description changed$/m);
    assert.match(text, /^ {4}differs at: description$/m);
    assert.match(text, /^ {4}description: Lists the files under \/?\[-\/?srv\/elsewhere-\]\{\+.+\+\}\/data\.$/m);
    assert.match(text, /The server's text names this machine \(/);
    // Text that differs without naming this machine gets no such note.
    const plain = formatSnapshotCheck(compareWithCommitted(root, committed, fetched('Lists the files.')));
    assert.doesNotMatch(plain, /names this machine/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('--check compares the initialize facts a snapshot records, and leaves alone those it does not', () => {
  const root = mkdtempSync(join(tmpdir(), 'tool-lens-check-'));
  try {
    mkdirSync(join(root, 'catalogs'));
    const snapshot = (fetchedBlock: string) =>
      writeFileSync(
        join(root, 'catalogs', 'box.catalog.yaml'),
        [
          'catalog: 1',
          'servers:',
          '  - name: box',
          fetchedBlock,
          '    tools:',
          '      - name: list_files',
          '        description: Lists the files.',
          '        inputSchema: {type: object, properties: {depth: {type: integer, description: How deep.}}}',
          '        annotations: {readOnlyHint: true}',
          '',
        ].join('\n'),
      );
    const live: FetchedCatalog = {
      ...fetched('Lists the files.'),
      fetched: {
        at: '2026-12-07T07:00:00.000Z',
        protocolVersion: '2025-11-25',
        serverInfo: { name: 'box', version: '1.1.0' },
        capabilities: { tools: { listChanged: true }, tasks: {} },
        instructions: 'Call list_files for a folder.',
      },
    };
    // An older snapshot: no capabilities, no instructions; what it records matches.
    snapshot(
      '    fetched: {at: 2026-12-01T00:00:00Z, protocolVersion: 2025-11-25, serverInfo: {name: box, version: 1.1.0}}',
    );
    assert.equal(
      compareWithCommitted(
        root,
        committedCatalog(root, () => undefined),
        live,
      ).status,
      'matches',
    );
    snapshot(
      [
        '    fetched:',
        '      at: 2026-12-01T00:00:00Z',
        '      protocolVersion: 2025-11-25',
        '      serverInfo: {name: box, version: 1.0.0}',
        '      capabilities: {tools: {listChanged: true}}',
        '      instructions: Call list_files for one folder.',
      ].join('\n'),
    );
    const check = compareWithCommitted(
      root,
      committedCatalog(root, () => undefined),
      live,
    );
    assert.equal(check.status, 'differs');
    assert.equal(check.change, undefined, 'the tools are the same');
    assert.deepEqual(check.facts, ['fetched.serverInfo.version', 'fetched.capabilities.tasks', 'fetched.instructions']);
    const text = formatSnapshotCheck(check);
    assert.match(
      text,
      /^ {2}the server's initialize result differs at: fetched\.serverInfo\.version, fetched\.capabilities\.tasks, fetched\.instructions$/m,
    );
    assert.match(text, /^ {4}instructions: Call list_files for \[-one-\]\{\+a\+\} folder\.$/m);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
