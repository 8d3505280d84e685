// The repository stands on its own. No file in it may point at documents that live beside a
// checkout rather than in it (a product specification, research notes, their section numbers):
// what the code needs to know of other systems is written in docs/ (docs/toolhive.md, docs/mcp.md,
// docs/faces.md, docs/behaviour.md), and comments point there. And every `docs/<page>.md#anchor` a file mentions, and
// every relative link of a Markdown file, must reach a page that exists and a heading it has
// (GitHub's anchor slugs), so those pointers cannot rot when a heading is renamed.
//
// Nor may a script read a file beside the checkout: a clone has only the repository. The text
// patterns below find a path written out (`../<folder>`), but scripts build their paths from parts
// (`join(HERE, '..', '..', '..', <folder>)`), so the paths that the tests, the bench (test/bench/)
// and scripts/ build from their own location are worked out, and each must stay inside the repository.
//
// Files are those git tracks, plus new ones it does not ignore; test/fixtures/ and test/corpus/
// are inputs of other tests, not documentation, and are left out.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, test } from 'node:test';
import ts from 'typescript';

const ROOT = join(__dirname, '..');
const EXEMPT = /^test\/(fixtures|corpus)\//;

/** Names of documents that live outside the repository; a page of docs/ may share the name. */
const OUTSIDE_NAMES = ['toolhive', 'mcp-spec', 'seeds-deep', 'lsp-anchors', 'e2e-harness'];

interface Forbidden {
  pattern: RegExp;
  what: string;
}

// Written so that this file's own text matches none of them.
const FORBIDDEN: readonly Forbidden[] = [
  { pattern: /\.\.\/shared\b/g, what: 'a path to the folder beside the checkout' },
  { pattern: /\bshared\/(?:catalogs|reference|hooks)\b/g, what: 'a folder outside the repository' },
  { pattern: /\bSPEC\b/g, what: 'the product specification outside the repository' },
  { pattern: /\btoolhive(?:\.md)? §/gi, what: 'a section number of notes outside the repository' },
  { pattern: /\breference[ ]notes?\b/gi, what: 'research notes outside the repository' },
];

/** `docs/<page>.md` with an optional `#anchor`, not as part of a longer path or URL. */
const DOCS_REFERENCE = /(?<![\w./-])docs\/([\w./-]+?\.md)(?:#([\w-]+))?/g;
/** A path ending in one of OUTSIDE_NAMES + `.md`. */
const OUTSIDE_FILE = new RegExp(`[\\w./-]*\\b(?:${OUTSIDE_NAMES.join('|')})\\.md\\b`, 'g');
/** A Markdown link to a relative target: `[text](target.md#anchor)` or `[text](#anchor)`. */
const MARKDOWN_LINK = /\]\((?![a-z][\w+.-]*:)([^)\s#]*)(?:#([^)\s]+))?\)/g;

interface Place {
  file: string;
  line: number;
  text: string;
}

/**
 * The files whose built paths are worked out (see pathsOutside): the tests, the bench and the
 * scripts, which find their inputs from where they lie. (The shipped code finds files from the
 * workspace it is given, not from its own place.)
 */
const SCRIPTS = /^(?:(?:test|scripts|action|images)\/.*\.[cm]?[jt]s|[^/]+\.[cm]?js)$/;

function repositoryFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const files = listed.split('\0').filter((f) => f !== '' && !EXEMPT.test(f));
  // Only regular files: not the node_modules link, not files deleted but still in the index.
  return [...new Set(files)].filter((f) => {
    const full = join(ROOT, f);
    return existsSync(full) && lstatSync(full).isFile();
  });
}

/** The text files among them (a NUL byte means binary). */
function textFiles(): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of repositoryFiles()) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    if (!text.includes('\0')) out.set(file, text);
  }
  return out;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]*>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown text: its headings' slugs (repeats numbered as GitHub does) and explicit `<a id>`s. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker) {
      if (fence === undefined) fence = marker;
      else if (marker.startsWith(fence)) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const heading = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const base = slug(heading);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
  }
  return anchors;
}

/** Mentions of documents outside the repository in one file's text. */
function outsideReferences(file: string, text: string, exists: (path: string) => boolean): Place[] {
  const found: Place[] = [];
  for (const { pattern, what } of FORBIDDEN) {
    for (const match of text.matchAll(pattern))
      found.push({ file, line: lineOf(text, match.index), text: `${match[0]} (${what})` });
  }
  // Such a file name is fine where it names a page of this repository: docs/toolhive.md, or a
  // relative link from a page beside it.
  for (const match of text.matchAll(OUTSIDE_FILE)) {
    const path = match[0];
    const target = path.startsWith('docs/') ? path : posix.normalize(posix.join(posix.dirname(file), path));
    if (!target.startsWith('..') && exists(target)) continue;
    found.push({ file, line: lineOf(text, match.index), text: `${path} (a document outside the repository)` });
  }
  return found;
}

/**
 * The paths a script builds that lead out of the repository. A path is worked out where it is
 * built from the script's own location (`import.meta.url`, `import.meta.dirname`, `__dirname`),
 * from text, and from constants holding such paths, through `dirname`, `fileURLToPath`, `join`,
 * `resolve`, `new URL(relative, base)`, `+` and template literals. A relative path counts from the
 * repository root, where npm runs the scripts. What cannot be worked out (a package's folder, the
 * temporary folder, an argument) is not judged.
 */
function pathsOutside(file: string, text: string): Place[] {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    /\.[cm]?ts$/.test(file) ? ts.ScriptKind.TS : ts.ScriptKind.JS,
  );
  // Paths relative to the repository root; one that leaves it starts with `..`. A folder that a
  // URL names ends with `/`, as fileURLToPath gives it, so that dirname and URLs resolve as Node's do.
  const constants = new Map<string, string>();
  const found = new Map<number, Place>();

  const isImportMeta = (node: ts.Expression, property: string): boolean =>
    ts.isPropertyAccessExpression(node) &&
    node.name.text === property &&
    ts.isMetaProperty(node.expression) &&
    node.expression.keywordToken === ts.SyntaxKind.ImportKeyword;
  const calleeName = (node: ts.CallExpression): string | undefined => {
    const callee = node.expression;
    if (ts.isIdentifier(callee)) return callee.text;
    if (
      ts.isPropertyAccessExpression(callee) &&
      ts.isIdentifier(callee.expression) &&
      /^(?:path|posix)$/.test(callee.expression.text)
    )
      return callee.name.text;
    return undefined;
  };

  const evaluate = (node: ts.Expression): string | undefined => {
    if (ts.isParenthesizedExpression(node)) return evaluate(node.expression);
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isIdentifier(node)) return node.text === '__dirname' ? `${posix.dirname(file)}/` : constants.get(node.text);
    if (isImportMeta(node, 'url') || isImportMeta(node, 'filename')) return file;
    if (isImportMeta(node, 'dirname')) return `${posix.dirname(file)}/`;
    if (ts.isTemplateExpression(node)) {
      let out = node.head.text;
      for (const span of node.templateSpans) {
        const part = evaluate(span.expression);
        if (part === undefined) return undefined;
        out += part + span.literal.text;
      }
      return out;
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const left = evaluate(node.left);
      const right = evaluate(node.right);
      return left === undefined || right === undefined ? undefined : left + right;
    }
    if (
      ts.isNewExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'URL' &&
      node.arguments?.length === 2
    ) {
      const [relative, base] = node.arguments.map(evaluate);
      if (relative === undefined || base === undefined || relative.startsWith('/') || /^[a-z][\w+.-]*:/i.test(relative))
        return undefined;
      const joined = posix.join(base.endsWith('/') ? base : posix.dirname(base), relative);
      return /(?:^|\/)\.\.?$/.test(relative) ? `${joined}/` : joined;
    }
    if (ts.isCallExpression(node)) {
      const name = calleeName(node);
      const parts = node.arguments.map(evaluate);
      if (parts.some((part) => part === undefined)) return undefined;
      const [first] = parts as string[];
      if (name === 'fileURLToPath' && parts.length === 1) return first;
      if (name === 'dirname' && parts.length === 1) return posix.dirname(first!);
      if ((name === 'join' || name === 'resolve') && parts.length >= 1) {
        const paths = parts as string[];
        // resolve starts again at an absolute part; such a path is not judged (it names no place of the checkout).
        if (name === 'resolve' && paths.some((part) => part.startsWith('/'))) return posix.resolve(...paths);
        return posix.join(...paths);
      }
    }
    return undefined;
  };

  const leavesRepository = (path: string): boolean => path === '..' || path.startsWith('../');
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) ||
      ts.isNewExpression(node) ||
      ts.isTemplateExpression(node) ||
      ts.isBinaryExpression(node)
    ) {
      const path = evaluate(node);
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      if (path !== undefined && leavesRepository(posix.normalize(path)) && !found.has(line)) {
        found.set(line, {
          file,
          line,
          text: `${node.getText(source)} is ${posix.normalize(path)} from the repository root (a path out of the repository)`,
        });
      }
    }
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      // Inner expressions first, so that a path is reported where it is built.
      ts.forEachChild(node, visit);
      const value = evaluate(node.initializer);
      if (value !== undefined) constants.set(node.name.text, value);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...found.values()];
}

interface Link {
  place: Place;
  /** The page, relative to the repository root. */
  page: string;
  anchor?: string;
}

/** `docs/<page>.md#anchor` mentions, and in Markdown files their relative links. */
function linksOf(file: string, text: string): Link[] {
  const links: Link[] = [];
  for (const match of text.matchAll(DOCS_REFERENCE)) {
    links.push({
      place: { file, line: lineOf(text, match.index), text: match[0] },
      page: `docs/${match[1]!}`,
      anchor: match[2],
    });
  }
  if (file.endsWith('.md')) {
    for (const match of text.matchAll(MARKDOWN_LINK)) {
      const target = match[1]!;
      if (target !== '' && !target.endsWith('.md')) continue; // folders, images, source files: no anchors to check
      const page = target === '' ? file : posix.normalize(posix.join(posix.dirname(file), target));
      links.push({ place: { file, line: lineOf(text, match.index), text: match[0].slice(1) }, page, anchor: match[2] });
    }
  }
  return links;
}

function report(places: readonly Place[]): string {
  return places.map((p) => `  ${p.file}:${p.line}: ${p.text}`).join('\n');
}

describe('the repository stands on its own', () => {
  const files = textFiles();
  const exists = (path: string) => files.has(path) || existsSync(join(ROOT, path));

  test('no file refers to documents outside the repository', () => {
    const found = [...files].flatMap(([file, text]) => outsideReferences(file, text, exists));
    assert.deepEqual(
      found,
      [],
      `These refer to documents outside the repository. Write what the code needs to know into docs/ ` +
        `(docs/toolhive.md, docs/mcp.md, docs/faces.md, docs/behaviour.md) in our own words, and point there ` +
        `(e.g. docs/toolhive.md#conflict-resolution):\n${report(found)}`,
    );
  });

  test('no script builds a path out of the repository', () => {
    const scripts = [...files].filter(([file]) => SCRIPTS.test(file));
    // The check must have something to check: the bench and the build scripts are there.
    assert.ok(
      scripts.some(([file]) => file.startsWith('test/bench/')) && scripts.some(([file]) => file.startsWith('scripts/')),
      'no scripts found: is SCRIPTS wrong?',
    );
    const found = scripts.flatMap(([file, text]) => pathsOutside(file, text));
    assert.deepEqual(
      found,
      [],
      `These scripts build paths out of the repository, which a clone does not have. Put what they read ` +
        `into the repository (test data beside the test, or the clean corpus's catalogs) and read it there:\n${report(found)}`,
    );
  });

  test('every docs page and anchor that a file mentions exists', () => {
    const anchors = new Map<string, Set<string>>();
    const anchorsOfPage = (page: string): Set<string> => {
      let set = anchors.get(page);
      if (!set) anchors.set(page, (set = anchorsOf(files.get(page) ?? readFileSync(join(ROOT, page), 'utf8'))));
      return set;
    };
    const links = [...files].flatMap(([file, text]) => linksOf(file, text));
    // The check must have something to check: comments point into docs/ with anchors.
    assert.ok(
      links.filter((l) => l.place.file.startsWith('server/') && l.anchor).length >= 10,
      'no docs anchors found in server/: is the pattern broken?',
    );
    const broken: Place[] = [];
    for (const link of links) {
      if (link.page.startsWith('..') || !exists(link.page)) {
        broken.push({ ...link.place, text: `${link.place.text}: no page ${link.page}` });
      } else if (link.anchor !== undefined && !anchorsOfPage(link.page).has(link.anchor)) {
        broken.push({
          ...link.place,
          text: `${link.place.text}: ${link.page} has no heading with the anchor #${link.anchor}`,
        });
      }
    }
    assert.deepEqual(
      broken,
      [],
      `Broken pointers into the docs (fix the reference, or the heading it names):\n${report(broken)}`,
    );
  });
});

describe('the checks themselves', () => {
  // Built from parts, so that this file does not refer to them itself.
  const notes = ['toolhive', 'md'].join('.');
  const spec = ['SP', 'EC'].join('');
  const beside = ['..', 'shared'].join('/');
  const otherNotes = ['mcp-spec', 'md'].join('.');

  test("slugs are GitHub's", () => {
    assert.equal(slug("Mistakes in ToolHive's own docs"), 'mistakes-in-toolhives-own-docs');
    assert.equal(slug('Families: `TOOL_FAMILIES`'), 'families-tool_families');
    assert.equal(
      slug('Path target: `TOOL_PATH_ACCESSES`, `TOOL_PATH_BASES`'),
      'path-target-tool_path_accesses-tool_path_bases',
    );
    assert.equal(slug('The call envelope'), 'the-call-envelope');
    assert.equal(slug('Tools and `tools/list`'), 'tools-and-toolslist');
  });

  test('anchors skip code blocks and number repeats', () => {
    const anchors = anchorsOf('# Title\n\n```yaml\n# not a heading\n```\n\n## Bad\n\n## Bad\n');
    assert.deepEqual([...anchors].sort(), ['bad', 'bad-1', 'title']);
  });

  test('outside references are found, pages of docs/ are not', () => {
    const exists = (path: string) => path === 'docs/toolhive.md';
    const text = [
      `// the shape of ${spec} §11`,
      `// see ${notes} §9 and ${beside}/reference/${otherNotes}`,
      '// aggregation (docs/toolhive.md#conflict-resolution)',
      `[link](${notes}#overrides)`,
    ].join('\n');
    // Line 2: the section number, the folder, the folder's subfolder and both file names.
    const found = outsideReferences('server/src/x.ts', text, exists).map((p) => p.line);
    assert.deepEqual(
      found.sort((a, b) => a - b),
      [1, 2, 2, 2, 2, 2, 4],
    );
    assert.deepEqual(outsideReferences('docs/mcp.md', `[link](${notes}#overrides)`, exists), []);
  });

  test('paths that scripts build out of the repository are found, those inside are not', () => {
    // The ways the bench reached the catalogs beside the checkout, and ways that stay inside.
    const text = [
      'const HERE = dirname(fileURLToPath(import.meta.url));',
      "const ROOT = join(HERE, '..', '..');",
      "const A = join(HERE, '..', '..', '..', 'shared', 'catalogs');",
      "const B = join(ROOT, '..', 'shared', 'catalogs');",
      "const DIR = fileURLToPath(new URL('.', import.meta.url));",
      "copyFileSync(join(DIR, '..', '..', '..', 'x.json'), 'x.json');",
      "readFileSync(`${ROOT}/../notes.md`, 'utf8');",
      "const C = path.resolve(import.meta.dirname, '../../..');",
      "const D = fileURLToPath(new URL('../../../x/', import.meta.url));",
      "const E = join('..', 'x');",
      // Inside:
      "const F = join(HERE, '..', 'corpus', 'clean', 'catalogs');",
      "const G = fileURLToPath(new URL('..', import.meta.url));",
      "const H = join(ROOT, 'dist', 'cli.js');",
      "const I = join(require.resolve('yaml/package.json'), '..', '..');",
      "const J = join(tmpdir(), '..');",
      "const K = resolve(ROOT, '/usr/bin/time');",
    ].join('\n');
    const found = pathsOutside('test/bench/x.mjs', text).map((p) => p.line);
    assert.deepEqual(found, [3, 4, 6, 7, 8, 9, 10]);
    // The same text one folder deeper reaches one folder less far.
    assert.deepEqual(
      pathsOutside('test/bench/deeper/x.mjs', 'const A = join(import.meta.dirname, "..", "..", "..");'),
      [],
    );
    assert.deepEqual(
      pathsOutside('scripts/x.ts', "const ROOT = join(__dirname, '..');\nconst A = join(ROOT, '..');").map(
        (p) => p.line,
      ),
      [2],
    );
  });

  test('links are read from comments and Markdown', () => {
    const links = linksOf(
      'docs/mcp.md',
      `see docs/toolhive.md#entries, [x](${notes}#overrides), [y](#tool-names), [z](../README.md)`,
    );
    assert.deepEqual(
      links.map((l) => [l.page, l.anchor]),
      [
        ['docs/toolhive.md', 'entries'],
        ['docs/toolhive.md', 'overrides'],
        ['docs/mcp.md', 'tool-names'],
        ['README.md', undefined],
      ],
    );
  });
});
