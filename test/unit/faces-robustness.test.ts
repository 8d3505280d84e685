// Faces as people really break them: values of the wrong type at every level, odd keys, aliases,
// block scalars. The face rules must not throw (a throwing rule is logged: the log must stay
// empty), every finding must sit inside the text, and every fix must apply. Also the model and the
// hover data the language server shows on a face.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { checkFile } from '../../server/src/core/engine.js';
import { documentContext } from '../../server/src/core/context.js';
import { faceHoverOf, facesOf, type Face } from '../../server/src/core/model/faces.js';
import type { ParsedFile } from '../../server/src/core/parse/file.js';
import { applyEdits } from '../../server/src/core/text/edits.js';
import type { Finding } from '../../server/src/core/types.js';
import { Workspace } from '../../server/src/core/workspace.js';

const FIXTURES = join(__dirname, '..', 'fixtures', 'face', 'unknown-param');

function workspaceWithCatalogs(): { workspace: Workspace; logs: string[] } {
  const logs: string[] = [];
  const workspace = new Workspace('/ws', (message) => logs.push(message));
  for (const name of ['filesystem.json', 'lab.catalog.yaml']) {
    workspace.catalog.addFile(workspace.parse(name, readFileSync(join(FIXTURES, name), 'utf8')));
  }
  assert.deepEqual(workspace.catalog.serverNames, ['filesystem', 'lab']);
  return { workspace, logs };
}

interface Checked {
  file: ParsedFile;
  findings: Finding[];
}

function check(path: string, text: string): Checked {
  const { workspace, logs } = workspaceWithCatalogs();
  const file = workspace.parse(path, text);
  const { findings } = checkFile(file, workspace);
  assert.deepEqual(logs, [], `a rule failed on ${path}`);
  for (const finding of findings) {
    assert.ok(
      finding.span.start >= 0 && finding.span.start <= finding.span.end && finding.span.end <= text.length,
      `span out of the text: ${JSON.stringify(finding)}`,
    );
    for (const fix of finding.fixes ?? []) {
      const fixed = applyEdits(text, fix.edits);
      const after = checkFile(workspace.parse(path, fixed), workspace);
      assert.deepEqual(logs, [], `a rule failed on ${path} after "${fix.title}"`);
      assert.equal(
        after.findings.filter((f) => f.rule === 'yaml/syntax').length,
        0,
        `"${fix.title}" broke the syntax of ${path}`,
      );
    }
  }
  return { file, findings };
}

function lineOf(checked: Checked, finding: Finding): number {
  return checked.file.source.positionAt(finding.span.start).line + 1;
}

/** The rules reporting on a line (1-based). */
function rulesOn(checked: Checked, line: number): string[] {
  return checked.findings.filter((f) => lineOf(checked, f) === line).map((f) => f.rule);
}

const faceOrSchema = (rule: string) => rule.startsWith('face/') || rule.startsWith('schema/');

describe('face rules on broken input', () => {
  test('a face that is a string, or null', () => {
    const checked = check('a.faces.yaml', 'server: filesystem\ntoolFaces:\n  read_file: read\n  write_file:\n');
    assert.equal(
      facesOf(documentContext(checked.file, checked.file.documents[0]!, workspaceWithCatalogs().workspace)).servers[0]!
        .faces.length,
      2,
    );
    assert.ok(rulesOn(checked, 3).some(faceOrSchema), 'the string face gets a diagnostic');
    assert.ok(checked.findings.every((f) => faceOrSchema(f.rule)));
  });

  test('toolFaces that is a list', () => {
    const checked = check('b.faces.yaml', 'server: filesystem\ntoolFaces: [read_file, write_file]\n');
    assert.ok(rulesOn(checked, 2).some(faceOrSchema));
    assert.ok(
      checked.findings.every((f) => !f.rule.startsWith('face/')),
      'no face finding without faces',
    );
  });

  test('a face with every field of the wrong type', () => {
    const text = [
      'server: filesystem',
      'toolFaces:',
      '  edit_file:',
      '    family: 3',
      '    pathTarget: path',
      '    renderHints: [a, b]',
      '    ruleFace: true',
      '  move_file:',
      '    family: [read]',
      '    pathTarget: {param: 5, access: [read], base: {x: 1}, absent: null, patternParam: 1.5, aliases: file}',
      '    renderHints: {approvalCard: 7, userFacingName: {a: b}, activity: [x], summaryParams: path, resultCards: {a: 1}}',
      '    ruleFace: {params: [1, null, {a: b}, [x]], primaryParams: "path"}',
      '',
    ].join('\n');
    const checked = check('c.faces.yaml', text);
    for (const line of [4, 5, 6, 7, 9, 10, 11, 12])
      assert.ok(rulesOn(checked, line).some(faceOrSchema), `line ${line} gets a diagnostic`);
    // Wrong types are the schema's to report; the face rules must not add guesses about them.
    assert.deepEqual(
      checked.findings.filter((f) => f.rule.startsWith('face/')),
      [],
    );
  });

  test('an empty tool name key, in YAML and JSON', () => {
    const yaml = check('d.faces.yaml', 'server: filesystem\ntoolFaces:\n  "": {family: read}\n');
    assert.deepEqual(rulesOn(yaml, 3), ['face/undeclared']);
    assert.match(yaml.findings[0]!.message, /empty tool name/);
    const json = check('d.faces.json', '{"server": "lab", "toolFaces": {"": {"family": "read"}}}');
    assert.deepEqual(
      json.findings.map((f) => f.rule),
      ['face/undeclared'],
    );
  });

  test('odd keys and values: complex key, anchors and aliases, block scalars', () => {
    const text = [
      'server: filesystem',
      'toolFaces:',
      '  ? [complex, key]',
      '  : {family: read}',
      '  read_file: &face {family: reed}',
      '  read_text_file: *face',
      '  write_file:',
      '    family: |',
      '      write',
      '',
    ].join('\n');
    const checked = check('e.faces.yaml', text);
    const closed = checked.findings.filter((f) => f.rule === 'face/closed-set');
    assert.equal(closed.length, 3, 'the anchor, the alias and the block scalar');
    // None gets a fix: the anchored value is also what the alias stands for (the edit layer gives no
    // edit through an anchor or alias: it cannot know what else shares it), and a block scalar.
    assert.deepEqual(
      closed.map((f) => f.fixes?.length ?? 0),
      [0, 0, 0],
    );
  });

  test('server names and entries of the wrong type in client configs', () => {
    const cursor = check(
      '.cursor/mcp.json',
      '{"mcpServers": {"filesystem": "npx fs", "x": {"command": "a", "toolFaces": "none"}, "y": {"command": "b", "toolFaces": {"": "x"}}}}',
    );
    assert.ok(
      cursor.findings.some((f) => f.rule === 'face/unknown-param' && f.severity === 'info'),
      'server y has no catalog',
    );
    const overlay = check('f.faces.json', '{"server": 42, "toolFaces": {"read_file": {"family": "reed"}}}');
    assert.deepEqual(
      overlay.findings.filter((f) => f.rule.startsWith('face/')).map((f) => f.rule),
      ['face/closed-set'],
    );
  });

  test('both dialects in one file, JSONC with comments and trailing commas', () => {
    const text = `{
  // both keys
  "servers": {"filesystem": {"command": "npx", "toolFaces": {"read_file": {"family": "reed",},},},},
  "mcpServers": {"lab": {"command": "node", "toolFaces": {"survey": {"renderHints": {"summaryParams": ["nmae"]}}}}},
}`;
    const checked = check('.vscode/mcp.json', text);
    assert.deepEqual(
      checked.findings.map((f) => [f.rule, lineOf(checked, f)]),
      [
        ['face/closed-set', 3],
        ['face/unknown-param', 4],
      ],
    );
  });
});

describe('facesOf and faceHoverOf', () => {
  function contextFor(path: string, text: string) {
    const { workspace } = workspaceWithCatalogs();
    const file = workspace.parse(path, text);
    return documentContext(file, file.documents[0]!, workspace);
  }

  function faceNamed(ctx: ReturnType<typeof contextFor>, name: string): Face {
    const face = facesOf(ctx)
      .servers.flatMap((s) => s.faces)
      .find((f) => f.toolName === name);
    assert.ok(face, `no face ${name}`);
    return face;
  }

  test('typed fields with their nodes', () => {
    const text =
      'server: filesystem\ntoolFaces:\n  search_files:\n    family: search\n    pathTarget: {param: path, access: read, absent: base, patternParam: pattern, aliases: [dir, 3]}\n    renderHints: {approvalCard: generic, summaryParams: [pattern]}\n    ruleFace: {params: [path], primaryParams: [pattern]}\n';
    const ctx = contextFor('g.faces.yaml', text);
    const view = facesOf(ctx);
    assert.equal(view, facesOf(ctx), 'memoised');
    assert.equal(view.servers[0]!.name, 'filesystem');
    assert.equal(view.servers[0]!.source, 'overlay');
    const face = faceNamed(ctx, 'search_files');
    assert.equal(face.family?.value, 'search');
    assert.equal(text.slice(face.family.node.span.start, face.family.node.span.end), 'search');
    assert.equal(face.pathTarget?.patternParam?.value, 'pattern');
    assert.deepEqual(
      face.pathTarget?.aliases?.entries.map((e) => [e.value, e.index]),
      [['dir', 0]],
    );
    assert.equal(face.renderHints?.approvalCard?.value, 'generic');
    assert.deepEqual(
      face.ruleFace?.primaryParams?.entries.map((e) => e.value),
      ['pattern'],
    );
  });

  test('every server entry of a client config, with or without faces', () => {
    const ctx = contextFor(
      'claude_desktop_config.json',
      '{"mcpServers": {"filesystem": {"command": "npx"}, "lab": {"command": "node", "toolFaces": {"survey": {}}}}}',
    );
    const servers = facesOf(ctx).servers;
    assert.deepEqual(
      servers.map((s) => [s.name, s.source, s.faces.length, s.toolFaces !== undefined]),
      [
        ['filesystem', 'mcpServers', 0, false],
        ['lab', 'mcpServers', 1, true],
      ],
    );
  });

  test('hover: properties through a root $ref and allOf, and the mounted name', () => {
    const ctx = contextFor('h.faces.yaml', 'server: lab\ntoolFaces:\n  edit_document: {family: edit}\n');
    const hover = faceHoverOf(ctx, faceNamed(ctx, 'edit_document'));
    assert.equal(hover.state, 'listed');
    assert.equal(hover.mountedName, 'mcp__lab__edit_document');
    assert.deepEqual(
      hover.properties.map((p) => [p.name, p.typeText, p.scalar, p.required]),
      [
        ['file_path', 'string', true, true],
        ['old_string', 'string', true, true],
        ['new_string', 'string', true, true],
      ],
    );
    assert.match(hover.markdown, /`mcp__lab__edit_document`/);
    assert.match(hover.markdown, /\| `file_path` \| string \| yes \| yes \| Absolute path of the file\. \|/);
  });

  test('hover without a catalog, and on an undeclared tool', () => {
    const ctx = contextFor(
      '.mcp.json',
      '{"mcpServers": {"notes": {"command": "n", "toolFaces": {"append": {}}}, "lab": {"command": "l", "toolFaces": {"schedule_job": {}}}}}',
    );
    const none = faceHoverOf(ctx, faceNamed(ctx, 'append'));
    assert.equal(none.state, 'no-catalog');
    assert.equal(none.mountedName, 'mcp__notes__append');
    assert.deepEqual(none.properties, []);
    assert.match(none.markdown, /No catalog/);
    const dynamic = faceHoverOf(ctx, faceNamed(ctx, 'schedule_job'));
    assert.equal(dynamic.state, 'undeclared');
    assert.match(dynamic.markdown, /inert/);
    assert.match(dynamic.markdown, /`jobs`/);
  });
});
