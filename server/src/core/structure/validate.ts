// Structural validation of a document against its kind's JSON Schema (schemas/*.schema.json),
// mapped onto exact nodes (mapping.ts) as typed problems (problems.ts), each tagged with the one of
// the four schema/* rules it belongs to; the rules word them. The schemas are bundled (JSON
// imports in schemas.chunk.ts, a lazy chunk in dist/) and compiled by ajv at build time, not here:
// generated/validators-<kind>.js is ajv's standalone code for each kind, which
// scripts/generate-validators.mjs writes before every bundle, so no schema is compiled at start-up;
// a kind's code is loaded on its first document (generated/validators.js, the index, requires it;
// the bundles keep each as a file of its own), so a start pays only for the kinds it checks. Its errors are the ones ajv gives with
// that script's options (allErrors, verbose), and their `parentSchema` is the very object of the
// imported JSON, which `nameSubschemas` names. Each document is validated once, through the memo,
// whichever schema/* rule asks first. Two errors can come to the same problem (one subschema
// reached twice): the rules report the same words at the same span once (rules/rule.ts, reportShare).
import { clientOfPath, neutralSchemaFits } from '../parse/clients.js';
import { clientViewOf, entryFactsOf, launchGapOf } from '../model/clients.js';
import type { ErrorObject } from 'ajv';
import { memoKey } from '../memo.js';
import { toValue } from '../parse/nodes.js';
import type { DocumentKind } from '../types.js';
import type { DocumentContext } from '../context.js';
import { createValidator, type StandaloneValidator } from './generated/validators.js';
import type * as SchemasChunk from './schemas.chunk.js';
import { ErrorMapper, type Mapped } from './mapping.js';
import type { SchemaProblem } from './problems.js';

let schemasChunk: typeof SchemasChunk | undefined;

/**
 * The files generate-validators.mjs compiles (its SCHEMA_FILES), by name, as bundled objects:
 * loaded on the first document validated (schemas.chunk.ts, a lazy chunk beside the bundles), so
 * a start that validates none (a cached re-run, the language server before its first document)
 * neither parses nor builds them.
 */
export function bundledSchemas(): Record<string, object> {
  // A literal path in a function: the build keeps it a require of the chunk's file (lazyChunkPlugin).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  schemasChunk ??= require('./schemas.chunk.js') as typeof SchemasChunk;
  return schemasChunk.BUNDLED_SCHEMAS;
}

/** generate-validators.mjs builds a validator for each of these refs (its REFS; a test checks). */
export const SCHEMA_FOR_KIND: Record<DocumentKind, string> = {
  'vmcp-config': 'vmcp-config.schema.json',
  'vmcp-server': 'vmcp-server.schema.json',
  'vmcp-composite': 'vmcp-composite.schema.json',
  'tool-catalog': 'tool-catalog.schema.json',
  'mcp-servers': 'mcp-servers.schema.json',
  'face-overlay': 'face-overlay.schema.json',
  'tool-calls': 'tool-calls.schema.json',
};

/** A JSONL calls file holds one entry per line, each validated on its own. */
export const CALL_ENTRY = 'tool-calls.schema.json#/definitions/CallEntry';

/** Every subschema object of our files → a readable name (`WorkflowStep`, `CallEntry/then/then`). */
let subschemaNames: Map<object, string> | undefined;

function namesOfSubschemas(): Map<object, string> {
  if (subschemaNames) return subschemaNames;
  const names = new Map<object, string>();
  for (const [file, schema] of Object.entries(bundledSchemas()))
    nameSubschemas(schema, file.replace(/\.schema\.json$/, ''), '', names);
  subschemaNames = names;
  return names;
}

function nameSubschemas(value: unknown, file: string, pointer: string, names: Map<object, string>): void {
  if (typeof value !== 'object' || value === null) return;
  if (!Array.isArray(value)) {
    const match = /^\/definitions\/([^/]+)(.*)$/.exec(pointer);
    names.set(value, match ? match[1]! + match[2]! : `${file}${pointer}`);
  }
  for (const [key, child] of Object.entries(value)) nameSubschemas(child, file, `${pointer}/${key}`, names);
}

/** The validator of each ref asked for so far, over the objects of `bundledSchemas()`. */
const validators = new Map<string, StandaloneValidator>();

function validatorFor(ref: string): StandaloneValidator {
  let validate = validators.get(ref);
  if (!validate) {
    validate = createValidator(ref, bundledSchemas());
    if (!validate) throw new Error(`schema ${ref} is not bundled: add it to REFS in generate-validators.mjs`);
    validators.set(ref, validate);
  }
  return validate;
}

const problemsKey = memoKey<SchemaProblem[]>('schema/validate');

/** The schema problems of the context's document, computed once per document. */
export function schemaProblemsOf(ctx: DocumentContext): SchemaProblem[] {
  return ctx.memo.get(problemsKey, () => computeProblems(ctx));
}

function computeProblems(ctx: DocumentContext): SchemaProblem[] {
  const { doc, file } = ctx;
  // An empty document has no node a finding could point at.
  if (!doc.kind || !doc.root) return [];
  // Zed's settings (servers under `context_servers` beside settings that are none of ours) and
  // Continue's block (a list of entries) are not what the client-neutral schema describes: only
  // the client/* rules read them.
  if (doc.kind === 'mcp-servers' && !neutralSchemaFits(clientOfPath(file.path))) return [];
  const ref = file.language === 'jsonl' && doc.kind === 'tool-calls' ? CALL_ENTRY : SCHEMA_FOR_KIND[doc.kind];
  const validate = validatorFor(ref);
  validate(toValue(doc.root));
  // A valid document has nothing to map: its check never names a subschema (the names walk every
  // schema file once, on the first document with an error).
  if (!validate.errors?.length) return [];
  const names = namesOfSubschemas();
  const errors = oneUnknownKeyError(selectErrors(keyErrorsOnly(validate.errors ?? [], names)), names).filter(
    (e) =>
      !emptyMeansDefault(doc.kind!, e, names) &&
      !decodedAsText(doc.kind!, e, names) &&
      (!doc.partial || !LEFT_OUT_KEYWORDS.has(e.keyword)),
  );
  const mapper = new ErrorMapper(ctx, doc.kind, doc.root, names);
  const broken = doc.problems.filter((p) => p.rule === 'yaml/syntax').map((p) => p.span.start);
  const mapped: Mapped[] = [];
  for (const error of errors) {
    // Whatever holds a syntax error was rebuilt by the parser's recovery: its schema errors
    // (an empty list, a missing field) are echoes of the syntax error, which yaml/syntax reports.
    const around = mapper.nodeSpanOf(error);
    if (around && broken.some((at) => at >= around.start && at <= around.end)) continue;
    const problem = mapper.map(error);
    if (problem) mapped.push(problem);
  }
  return dropLaunchOwnedByClient(ctx, dropMissingExplainedByTypos(mapped, mapper.renamedTo));
}

/**
 * An entry with neither a command nor a URL, in the file of a client that says what it then does
 * (model/clients.ts `withoutLaunch`: Roo Code refuses the whole file), is the client rules' to
 * report (client/unknown-key at a misspelt key, client/missing-field at the entry), in the client's
 * words: the client-neutral "needs a command or a URL" (or, with a `type`, "has no `command`")
 * would be a second finding of one mistake.
 */
function dropLaunchOwnedByClient(ctx: DocumentContext, problems: SchemaProblem[]): SchemaProblem[] {
  if (ctx.doc.kind !== 'mcp-servers') return problems;
  const view = clientViewOf(ctx);
  const facts = entryFactsOf(view);
  if (!facts?.withoutLaunch) return problems;
  const entries = new Set<unknown>(view.servers.map((s) => s.entry).filter((e) => e !== undefined));
  // Entries without a launch key, by where the missing-field problem points (the entry's key).
  const gaps = new Set(view.servers.filter((s) => launchGapOf(s, facts, [])).map((s) => s.pair.key.span.start));
  return problems.filter(
    (p) =>
      !(p.rule === 'schema/invalid-value' && p.keyword === 'anyOf' && entries.has(p.node)) &&
      !(p.rule === 'schema/missing-field' && (p.field === 'command' || p.field === 'url') && gaps.has(p.span.start)),
  );
}

// ---- choosing the errors worth a finding --------------------------------------------------------

/**
 * Enum fields whose empty value ToolHive reads as the default, by dialect (docs/toolhive.md#defaults).
 * A CLI file's `type: ""` is a tool step (ValidateStepType) and its `onError.action: ""` is abort
 * (ValidateStepErrorHandling). In a resource the CRD's enum refuses "" on the typed steps (its
 * default fills only an absent field), but a forEach inner step is schemaless in the CRD and is a
 * tool step when its type is empty, in both dialects (validateForEachInnerStep).
 */
const EMPTY_MEANS_DEFAULT: Partial<Record<DocumentKind, ReadonlySet<string>>> = {
  'vmcp-config': new Set([
    'WorkflowStep/properties/type',
    'StepErrorHandling/properties/action',
    'ForEachInnerStep/properties/type',
  ]),
  'vmcp-server': new Set(['ForEachInnerStep/properties/type']),
  'vmcp-composite': new Set(['ForEachInnerStep/properties/type']),
};

function emptyMeansDefault(kind: DocumentKind, error: ErrorObject, names: Map<object, string>): boolean {
  if (error.keyword !== 'enum' || error.data !== '') return false;
  const name = typeof error.parentSchema === 'object' ? names.get(error.parentSchema) : undefined;
  return name !== undefined && (EMPTY_MEANS_DEFAULT[kind]?.has(name) ?? false);
}

/**
 * A number or boolean where a CLI file wants text: ToolHive's loader decodes the file with yaml.v3,
 * which fills a string field with any scalar's text (`description: 5` is "5"), so nothing is
 * refused. Durations are the exception: their own decoding parses the text, and `5` has no unit.
 * A Kubernetes resource is typed by the CRD, whose schema refuses the number.
 */
function decodedAsText(kind: DocumentKind, error: ErrorObject, names: Map<object, string>): boolean {
  if (kind !== 'vmcp-config' || error.keyword !== 'type' || (error.params as { type?: unknown }).type !== 'string')
    return false;
  if (typeof error.data !== 'number' && typeof error.data !== 'boolean') return false;
  const name = typeof error.parentSchema === 'object' ? names.get(error.parentSchema) : undefined;
  return !name?.includes('Duration');
}

const IGNORED_KEYWORDS = new Set(['if', 'then', 'else', 'allOf', '$ref']);

/**
 * What a partial resource (a Chainsaw assertion or patch: parse/embedded.ts) may leave out: a
 * required field, and the shapes (alternatives, exclusions) that need fields it does not state.
 */
const LEFT_OUT_KEYWORDS = new Set([
  'required',
  'anyOf',
  'oneOf',
  'not',
  'dependentRequired',
  'dependencies',
  'minProperties',
]);

/**
 * Keeps one error per problem: drops `if` bookkeeping, the branch errors an anyOf/oneOf failure
 * carries (the anyOf error itself, with its branch description, speaks for them), and value
 * errors at a place whose type is already wrong.
 */
function selectErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  const alternatives = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const typed = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  return errors.filter((e) => {
    if (IGNORED_KEYWORDS.has(e.keyword)) return false;
    const insideAlternative = alternatives.some(
      (a) => a !== e && e.schemaPath.startsWith(a.schemaPath + '/') && isSameOrBelow(e.instancePath, a.instancePath),
    );
    if (insideAlternative) return false;
    if (
      e.keyword !== 'type' &&
      e.keyword !== 'required' &&
      e.keyword !== 'additionalProperties' &&
      typed.has(e.instancePath)
    )
      return false;
    return true;
  });
}

/** Whether an error comes from the generated key structure (its subschemas are named `Keys...`). */
function isGenerated(e: ErrorObject, names: Map<object, string>): boolean {
  return typeof e.parentSchema === 'object' && (names.get(e.parentSchema)?.startsWith('Keys') ?? false);
}

/** The `$comment` of a generated node that carries the CRD's values (generate-toolhive-schemas.mjs VALUES_MARK). */
const VALUES_MARK = 'CRD values';

/**
 * The generated key structure says which keys a block has: its `type` (there for ajv's strict
 * mode) is the hand-written schemas' to check, where a null block may mean "not set". The nodes
 * marked VALUES_MARK (`spec.authServerConfig`, which no hand-written schema models) carry the
 * CRD's types and value constraints too, and those errors are kept, but not on a null (a wrong
 * type, an enum): the API server drops a null field before it validates the object, and fills in
 * the default, if any.
 */
function keyErrorsOnly(errors: readonly ErrorObject[], names: Map<object, string>): ErrorObject[] {
  return errors.filter(
    (e) =>
      e.keyword === 'additionalProperties' ||
      !isGenerated(e, names) ||
      ((e.parentSchema as { $comment?: unknown } | undefined)?.$comment === VALUES_MARK &&
        e.data !== null &&
        !readAsBooleanByKubectl(e)),
  );
}

/**
 * The words YAML 1.1 reads as booleans, as kubectl and Helm read a manifest (sigs.k8s.io/yaml,
 * which decodes with a fork of yaml.v2): `insecureAllowHTTP: yes` reaches the API server as true.
 */
const YAML11_BOOLEANS = new Set([
  'y',
  'Y',
  'yes',
  'Yes',
  'YES',
  'n',
  'N',
  'no',
  'No',
  'NO',
  'on',
  'On',
  'ON',
  'off',
  'Off',
  'OFF',
]);

function readAsBooleanByKubectl(e: ErrorObject): boolean {
  return (
    e.keyword === 'type' &&
    (e.params as { type?: unknown }).type === 'boolean' &&
    typeof e.data === 'string' &&
    YAML11_BOOLEANS.has(e.data)
  );
}

/**
 * An unknown key is reported by the generated key structure (schemas/toolhive-keys.schema.json,
 * whose subschemas are named `Keys...`) and, where a hand-written schema also closes the object
 * (the top level, composite tools, aggregation), by that one too: one mistake, one error. The
 * hand-written schema's error is kept, its context (synonyms, required fields) being richer.
 */
function oneUnknownKeyError(errors: ErrorObject[], names: Map<object, string>): ErrorObject[] {
  const generated = (e: ErrorObject): boolean => isGenerated(e, names);
  const keyOf = (e: ErrorObject): string => `${e.instancePath}\u0000${String(e.params['additionalProperty'])}`;
  const unknown = errors.filter((e) => e.keyword === 'additionalProperties');
  const byHand = new Set(unknown.filter((e) => !generated(e)).map(keyOf));
  const seen = new Set<string>();
  return errors.filter((e) => {
    if (e.keyword !== 'additionalProperties' || !generated(e)) return true;
    const key = keyOf(e);
    if (byHand.has(key) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function isSameOrBelow(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(ancestor + '/');
}

/**
 * `desciption:` is one mistake, not two: when an unknown key's suggestion is exactly the required
 * field that is missing beside it, the unknown-key finding (with its rename) says it all, and says
 * the field is required (the schema that closed the object, the generated key structure for most
 * blocks, may not be the one that requires the field).
 */
function dropMissingExplainedByTypos(mapped: Mapped[], renamedTo: Map<string, Set<string>>): SchemaProblem[] {
  const explained = new Set<string>();
  const kept = mapped.filter((m) => {
    if (!m.missing || !renamedTo.get(m.missing.object)?.has(m.missing.field)) return true;
    explained.add(`${m.missing.object}\u0000${m.missing.field}`);
    return false;
  });
  return kept.map(({ problem }) =>
    problem.rule === 'schema/unknown-key' &&
    problem.reason === 'misspelt' &&
    !problem.required &&
    explained.has(`${problem.path.join('/')}\u0000${problem.suggestion}`)
      ? { ...problem, required: true }
      : problem,
  );
}
