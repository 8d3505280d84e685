// Product bugs the fuzzer found and that are not fixed yet. Each has the smallest input found that
// shows it, checked alone by its `todo` test in found.test.ts (it runs, and does not fail the suite
// while the bug is there), and a test `is` that recognises the failure it causes, so that the
// properties can go on past a known bug instead of stopping at it on every run. A known hang (a
// check that would run for hours) cannot be waited for: an input that may meet it is not checked.
//
// A known bug masks failures only while its input still fails (a hang: while its input still costs
// what it did): once the product is fixed, its mask is off by itself, the fuzzer enforces the
// invariant again, and the todo test passes (remove the `todo` then, and the entry with it, keeping
// the case as a regression test).
import { failureAlone, FuzzFailure } from './harness.js';

export interface KnownBug {
  /** The todo test's name. */
  name: string;
  /** What happens and what should: the todo's reason. */
  todo: string;
  /** The smallest input found, checked alone (with `catalog`, if any, as its one catalog); `seed` says where the fuzzer met it. */
  path: string;
  text: string;
  catalog?: { path: string; text: string };
  seed: string;
  /** Whether a failure is this bug. */
  is(failure: FuzzFailure): boolean;
}

/** The text just before an offset ends with an alias (`*name`). */
const afterAlias = (text: string, offset: number) => /\*[^\s,[\]{}]+[ \t]*$/.test(text.slice(Math.max(0, offset - 200), offset));

export const KNOWN_BUGS: readonly KnownBug[] = [
  {
    name: 'yaml/syntax: a range that ends between the CR and the LF of a line break',
    todo: 'the YAML library points "A block sequence may not be used as an implicit map key" at the CR of a CRLF line break; the range should end before the CR (or after the LF)',
    path: 'notes.catalog.yaml',
    text: 'catalog: 1\r\nservers:\r\n  - name: notes\r\n    tools:\r\n\t    - name: list_notes\r\n',
    seed: '20261201, "damaged catalog", test/fixtures/schema/wrong-type/notes.catalog.yaml',
    is: (failure) => failure.detail.finding?.rule === 'yaml/syntax' && /splits a CRLF pair/.test(failure.what),
  },
  {
    name: 'yaml/syntax: a one-character range that splits an astral character',
    todo: 'for `x: 😀` followed by a more indented `b: c`, "Nested mappings are not allowed in compact mappings" gets the range [start, start + 1), half of the emoji\'s surrogate pair; the range should cover the whole character',
    path: 'emoji.catalog.yaml',
    text: 'catalog: 1\nx: 😀\n  b: c\n',
    seed: '20261201, "hostile values", test/fixtures/annotations/contradiction/filesystem.catalog.yaml (`inputSchema: 𐀀` above its mapping)',
    is: (failure) => failure.detail.finding?.rule === 'yaml/syntax' && /splits a surrogate pair/.test(failure.what),
  },
  {
    name: 'schema/wrong-type: the first line of a document that is not a mapping, with the CR of its CRLF',
    todo: 'schema/mapping.ts ends the first line at the "\\n" it finds, so in a CRLF file the range of "The document must be a mapping" ends between the CR and the LF; it should end before the CR',
    path: 'lab.faces.yaml',
    text: '- a\r\n- b\r\n',
    seed: '20261201, "any damage", test/fixtures/face/too-long/lab.faces.yaml (CRLF, with a `...` in it)',
    is: (failure) => failure.detail.finding?.rule === 'schema/wrong-type' && /splits a CRLF pair/.test(failure.what),
  },
  {
    name: 'template/not-upstream: the safe fix appends to a dependsOn written as an alias and breaks the YAML',
    todo: 'with `dependsOn: *deps` the fix "Add "first" to dependsOn" writes `dependsOn: *deps, first`, a syntax error; the edit layer should give no safe fix for an alias (it cannot know what else shares the anchored list)',
    path: 'alias.vmcp.yaml',
    text:
      'compositeTools:\n  - name: t\n    description: d\n    steps:\n      - id: zero\n        tool: fs.read\n      - id: first\n        tool: fs.read\n' +
      '        dependsOn: &deps [zero]\n      - id: second\n        tool: fs.read\n        dependsOn: *deps\n        arguments: {path: "{{.steps.first.output}}"}\n',
    seed: '20261201, "hostile values", examples/gateways/docs-release.k8s.yaml',
    is: (failure) =>
      /added a yaml\/syntax error/.test(failure.what) && (failure.detail.fixes ?? []).some(({ fix }) => fix.edits.some((edit) => afterAlias(failure.input, edit.span.start))),
  },
  {
    name: 'lens/unused-suppression: with lone CR line breaks, the safe fix joins two lines and breaks the YAML',
    todo: 'Tool Lens counts a lone CR as a line break (SourceText), the YAML library does not: to it, the comment runs on over the CR and swallows `description: b`, so the directive "silences nothing on the next line"; its safe fix removes the comment line and leaves `c\\r    description: b`, a syntax error in a file that had none; where a CR alone ends a line, the fix should not be safe (or both should agree on lines)',
    path: 'cr.vmcp.yaml',
    text: 'compositeTools:\n  - name: c\r    # tool-lens-disable-next-line yaml/duplicate-key\r    description: b\n',
    seed: '7, "any damage", test/fixtures/lens/unused-suppression/comments.yaml (mixed line breaks)',
    is: (failure) =>
      /added a yaml\/syntax error/.test(failure.what) && /\r(?!\n)/.test(failure.input) && (failure.detail.fixes ?? []).some(({ rule }) => rule === 'lens/unused-suppression'),
  },
  {
    name: 'args/missing-required: for a key written without a colon (`{path}`), the fix writes `{path ""}`',
    todo: 'in a flow mapping, `arguments: {path}` holds the key `path` with no value; the suggestion "Add the required arguments path, content" inserts ` ""` right after the key and `, content: ""` at the same offset, giving `{path "", content: ""}`: a key named `path ""`, so "path" is still missing (and args/unknown says so); it should insert `: ""`, and no two of its edits should insert at one place',
    path: 'save.vmcp.yaml',
    text: 'compositeTools:\n  - name: t\n    description: d\n    steps:\n      - {id: save, tool: filesystem.write_file, arguments: {path}}\n',
    catalog: {
      path: 'fs.catalog.yaml',
      text:
        'catalog: 1\nservers:\n  - name: filesystem\n    tools:\n      - name: write_file\n        description: Write a file.\n' +
        '        inputSchema: {type: object, properties: {path: {type: string}, content: {type: string}}, required: [path, content]}\n',
    },
    seed: '747593361, "any damage", test/fixtures/annotations/contradiction/uncatalogued.yaml (51 characters deleted, leaving `arguments: {path}}`)',
    is: (failure) => failure.detail.finding?.rule === 'args/missing-required' && /has edits that overlap one another/.test(failure.what),
  },
];

/** The known bugs whose input still fails the way they describe (the others are fixed: no mask). */
export const ACTIVE_BUGS: readonly KnownBug[] = KNOWN_BUGS.filter((bug) => {
  const failure = failureAlone(bug.path, bug.text, bug.catalog);
  return failure !== undefined && bug.is(failure);
});

/** How many cases each known bug masked in this process. */
export const masked = new Map<string, number>();

/** Runs `check`; a failure one of the active known bugs explains is counted instead of thrown. */
export function unlessKnown(check: () => void): void {
  try {
    check();
  } catch (error) {
    const bug = error instanceof FuzzFailure ? ACTIVE_BUGS.find((b) => b.is(error)) : undefined;
    if (!bug) throw error;
    masked.set(bug.name, (masked.get(bug.name) ?? 0) + 1);
  }
}

/**
 * A known bug that makes a check run for hours rather than fail: the properties cannot wait for it,
 * so an input it would catch is not checked at all (and counted) while the bug's own input still
 * shows it.
 */
export interface KnownHang {
  name: string;
  todo: string;
  /** The bug's input, small enough to check in a moment, and the work it costs while the bug lasts. */
  path: string;
  text: string;
  seed: string;
  /** Whether the bug is still there, measured on its input without waiting for it. */
  stillThere(): boolean;
  /** Whether an input may meet it. */
  matches(text: string): boolean;
}

// None now: the one found (ajv's walk of a `$ref`'s target, doubling per nested array) is fixed, and
// found.test.ts keeps its case.
export const KNOWN_HANGS: readonly KnownHang[] = [];

/** The known hangs still there. */
export const ACTIVE_HANGS: readonly KnownHang[] = KNOWN_HANGS.filter((hang) => hang.stillThere());

/** Whether an input may meet an active known hang; if so it is counted as masked and not checked. */
export function knownHang(text: string): boolean {
  const hang = ACTIVE_HANGS.find((h) => h.matches(text));
  if (!hang) return false;
  masked.set(hang.name, (masked.get(hang.name) ?? 0) + 1);
  return true;
}
