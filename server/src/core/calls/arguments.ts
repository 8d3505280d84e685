// The argument checks, once, for every place arguments are written: a workflow step's
// `arguments` against its backend tool's inputSchema, a recorded call's input against the listed
// tool's, and the inner `arguments` of a call_dynamic_tool envelope (in a step or a recorded call)
// against the dynamic tool's. It yields typed problems tagged with their rule ids
// (args/missing-required, args/unknown, args/wrong-type), with their spans and the edits of their
// fixes; each args rule turns its own into words.
//
// What differs between the places, and why:
// - Coercion. ToolHive renders every string of a step's arguments as a template and then converts
//   it to the type the step's tool schema declares (`"5"` for an integer is fine), so a plain step is
//   validated after that coercion. A recorded call's literal JSON is sent as it is, and an envelope's
//   inner arguments are not converted either (the envelope's own schema says nothing about them),
//   so those are validated as written.
// - Templates. Only a workflow step's strings are templates (filled at run time): a template string
//   is not type-checked, nor is a mapping or list holding one, except for keywords whose verdict does
//   not depend on what the templates render to.
// - The envelope. A step or call whose tool is call_dynamic_tool is checked through its envelope
//   (the inner arguments against the dynamic tool), never against call_dynamic_tool's own schema:
//   aliases, JSON-string `arguments` and unknown namespaces are the envelope rules' findings and
//   would otherwise be reported twice. Only an envelope call with no input at all (which no envelope
//   rule looks at) is checked against the listed call_dynamic_tool's schema, for what it requires.
// - Consequences. A step's failure fails the step (and maybe the workflow); a recorded call is
//   refused: `origin` tells the rules which to say.
import { CALL_DYNAMIC_TOOL, GET_DYNAMIC_TOOLS, type CatalogTool } from '../catalog/model.js';
import { coerceLikeToolHive, isTemplateString, placeholderFor } from '../jsonschema/arguments.js';
import { isObject, topLevelProperties, type TopLevelProperties } from '../jsonschema/properties.js';
import { relevantIssue, validateAgainstSchema, type SchemaIssue } from '../jsonschema/validate.js';
import { memoKey } from '../memo.js';
import {
  getPair,
  isMap,
  isNullScalar,
  isScalar,
  keyText,
  nodeAtPath,
  toValue,
  walk,
  type MapNode,
  type Node,
  type Pair,
} from '../parse/nodes.js';
import { suggestionBudgetOf, type DocumentContext } from '../context.js';
import { decline } from '../declined.js';
import {
  editContextOf,
  insertPairs,
  joinInsertions,
  renderInlineValue,
  renderString,
  replaceValueText,
  type EditContext,
  type InsertEntry,
} from '../edit/mappingEdits.js';
import { closest, closestN, type SuggestionBudget } from '../text/suggest.js';
import type { Span, TextEdit } from '../types.js';
import { calledToolWords, subjectWords, type CallSubject } from '../wording/callSubjects.js';
import { argumentsAnchor, CALL_KINDS, callsOf, listedTool, type CallSite } from './calls.js';
import { declineUnchecked, patternBudgetOf } from './patterns.js';

/** The kinds whose arguments are checked: calls documents and workflows. */
export const ARGUMENT_KINDS = CALL_KINDS;

/** Required arguments absent (or null, which counts as absent). */
export interface MissingArguments {
  rule: 'args/missing-required';
  place: ArgumentsPlace;
  span: Span;
  /** Every required argument missing, in schema order: the absent and the null ones. */
  names: string[];
  /** Those of `names` written as null. */
  nulls: string[];
  /** The edits that add every missing argument with a placeholder; undefined where the layout is uncertain. */
  edits?: TextEdit[];
}

/** An argument the schema does not declare. */
export interface UnknownArgument {
  rule: 'args/unknown';
  place: ArgumentsPlace;
  pair: Pair;
  name: string;
  /** The declared arguments, in schema order. */
  declared: string[];
  /** Declared arguments the name may be a typo of (none already given), best first. */
  suggestions: string[];
  /** The schema forbids other properties (`additionalProperties: false`): the server refuses the call. */
  closed: boolean;
}

/** A literal value the schema rejects. */
export interface WrongArgument {
  rule: 'args/wrong-type';
  place: ArgumentsPlace;
  span: Span;
  node: Node;
  issue: SchemaIssue;
  /** For an enum: the allowed value closest to a string written. */
  closestAllowed?: string;
}

export type ArgumentProblem = MissingArguments | UnknownArgument | WrongArgument;

/** One place where arguments are written, with everything the checks and their fixes need. */
interface ArgumentsPlace {
  /** The JSON Schema the arguments must fit: the tool's inputSchema. */
  schema: Record<string, unknown>;
  /** The arguments as written; undefined when the call gives none. */
  node?: Node;
  /** The mapping the arguments key belongs in, its key and the pair it goes after, for a fix that adds it. */
  holder: MapNode;
  key: string;
  after?: Pair;
  /** Where a finding about missing arguments points (the arguments key, else the tool name). */
  anchor?: Span;
  /** Who the arguments belong to. */
  subject: CallSubject;
  /** The tool whose inputSchema applies. */
  tool: CatalogTool;
  /** A step names its tool as written (`github.create_issue`); undefined elsewhere. */
  writtenName?: string;
  /** A workflow step fails when its tool refuses; a recorded call is only refused. */
  origin: 'step' | 'calls';
  /** Validate after ToolHive's coercion (a plain workflow step). */
  coerce: boolean;
  /** Strings may be templates that only run time fills (workflow steps). */
  templated: boolean;
}

const KEY = memoKey<ArgumentProblem[]>('argument-problems');

/** The args/* problems of every call site of this document (workflow tool steps, or calls). */
export function argumentProblemsOf(ctx: DocumentContext): ArgumentProblem[] {
  return ctx.memo.get(KEY, () => {
    const edit = editContextOf(ctx.file);
    const budget = suggestionBudgetOf(ctx);
    return argumentPlacesOf(ctx).flatMap((place) => checkArguments(ctx, edit, place, budget));
  });
}

/**
 * Whether a call's own arguments, written as they are, fit a tool's inputSchema with nothing to
 * say (no required argument missing, none undeclared, no literal value refused): what a fix that
 * sends them to that tool instead must know before it can call itself safe (envelope/bare-dynamic-name),
 * or one that writes them anew (`node`: envelope/arguments-not-object's object, parsed from its text).
 * False where the schema is not an object (nothing is certain then).
 */
export function argumentsFit(
  ctx: DocumentContext,
  site: CallSite,
  tool: CatalogTool,
  node: Node | undefined = site.args,
): boolean {
  const place = callPlace(site, tool);
  if (!place) return false;
  return (
    checkArguments(ctx, editContextOf(ctx.file), { ...place, node, coerce: false }, suggestionBudgetOf(ctx)).length ===
    0
  );
}

/** The places of this document whose arguments a catalogued schema says something about. */
function argumentPlacesOf(ctx: DocumentContext): ArgumentsPlace[] {
  const out: ArgumentsPlace[] = [];
  for (const site of callsOf(ctx).calls) {
    const place = placeOf(site);
    if (place) out.push(place);
  }
  return out;
}

function placeOf(site: CallSite): ArgumentsPlace | undefined {
  const target = site.target;
  switch (target.kind) {
    case 'tool':
      return callPlace(site, target.tool);
    case 'meta': {
      const tool = listedTool(target.server, GET_DYNAMIC_TOOLS);
      return tool && callPlace(site, tool);
    }
    case 'envelope': {
      const envelope = site.envelope;
      if (envelope) {
        // The inner arguments against the dynamic tool the envelope reaches (site.tool).
        const tool = site.tool;
        if (!tool || !isObject(tool.inputSchema)) return undefined;
        const field = envelope.fields.arguments;
        return {
          schema: tool.inputSchema,
          node: field?.value ?? undefined,
          holder: envelope.map,
          key: 'arguments',
          after: envelope.fields.toolName?.pair ?? envelope.fields.namespace?.pair,
          anchor: field?.pair.key.span ?? envelope.fields.toolName?.value?.span ?? argumentsAnchor(site),
          subject: site.subject,
          tool,
          origin: site.origin,
          coerce: false,
          templated: site.templated,
        };
      }
      // An input that is not a mapping is envelope/arguments-not-object's (or, in a step, the schema
      // rules'); an input that is absent (or a step's empty `arguments:`) no envelope rule sees.
      const absent = site.args === undefined || (site.origin === 'step' && isNullScalar(site.args));
      const tool =
        absent && target.servers.length === 1 ? listedTool(target.servers[0]!, CALL_DYNAMIC_TOOL) : undefined;
      return tool && callPlace(site, tool);
    }
    default:
      return undefined;
  }
}

/** The call's own arguments against a tool the catalog lists. */
function callPlace(site: CallSite, tool: CatalogTool): ArgumentsPlace | undefined {
  if (!isObject(tool.inputSchema)) return undefined;
  const step = site.origin === 'step';
  return {
    schema: tool.inputSchema,
    node: site.args,
    holder: site.container,
    key: site.argsKey,
    after: site.namePair,
    anchor: argumentsAnchor(site),
    subject: site.subject,
    tool,
    writtenName: step ? site.nameText : undefined,
    origin: site.origin,
    coerce: step,
    templated: site.templated,
  };
}

/** The problems of one place: required arguments missing, arguments not declared, literal values the schema rejects. */
function checkArguments(
  ctx: DocumentContext,
  edit: EditContext,
  place: ArgumentsPlace,
  budget: SuggestionBudget,
): ArgumentProblem[] {
  const node = place.node;
  // Arguments of another type (a template string, a list, JSON text) are the schema and envelope rules' finding.
  if (node !== undefined && !isNullScalar(node) && !isMap(node)) return [];
  const args = isMap(node) ? node : undefined;
  const properties = topLevelProperties(place.schema);
  const out: ArgumentProblem[] = [];
  missingRequired(out, edit, place, properties, args);
  if (args) {
    unknownArguments(out, place, properties, args, budget);
    wrongTypes(ctx, out, place, properties, args, budget);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// args/missing-required: a property with a default is never missing; null counts as missing.

function missingRequired(
  out: ArgumentProblem[],
  edit: EditContext,
  place: ArgumentsPlace,
  properties: TopLevelProperties,
  args: MapNode | undefined,
): void {
  const absent: string[] = [];
  const nulls: Pair[] = [];
  const names: string[] = [];
  // The first pair of each key, like getPair, looked up once per required property.
  const given = new Map<string, Pair>();
  for (const pair of args?.pairs ?? []) if (!given.has(keyText(pair))) given.set(keyText(pair), pair);
  for (const property of properties.properties.values()) {
    if (!property.required || 'default' in property.schema) continue;
    const pair = given.get(property.name);
    if (!pair) absent.push(property.name);
    else if (isNullScalar(pair.value)) nulls.push(pair);
    else continue;
    names.push(property.name);
  }
  if (names.length === 0 || !place.anchor) return;

  const placeholder = (name: string) =>
    renderInlineValue(placeholderFor(properties.properties.get(name)!.schema, place.schema));
  const replacements = nulls.map((p) => replaceValueText(edit, p.value!, placeholder(keyText(p))));
  const entries: InsertEntry[] = absent.map((name) => ({ key: name, value: { inline: placeholder(name) } }));
  let insertion: TextEdit | undefined;
  if (entries.length) {
    if (args) insertion = insertPairs(edit, args, entries);
    else if (place.node === undefined)
      insertion = insertPairs(edit, place.holder, [{ key: place.key, value: { entries } }], place.after);
    // `arguments: null`, or `arguments:` and nothing: the mapping takes the null's place.
    else
      insertion = replaceValueText(
        edit,
        place.node,
        `{${absent.map((name) => `${renderString(edit, name)}: ${placeholder(name)}`).join(', ')}}`,
      );
  }
  const edits = replacements.filter((r): r is TextEdit => r !== undefined);
  const fixable = edits.length === replacements.length && (!entries.length || insertion !== undefined);
  out.push({
    rule: 'args/missing-required',
    place,
    span: place.anchor,
    names,
    nulls: nulls.map(keyText),
    // The last null's value and the new pairs after it may go at one place (`{path}`): one edit there.
    edits: fixable ? joinInsertions(insertion ? [...edits, insertion] : edits) : undefined,
  });
}

// ---------------------------------------------------------------------------------------------
// args/unknown: most servers drop an argument they do not declare without a word; a schema with
// `additionalProperties: false` makes the server refuse the call (then: an error).

function unknownArguments(
  out: ArgumentProblem[],
  place: ArgumentsPlace,
  properties: TopLevelProperties,
  args: MapNode,
  budget: SuggestionBudget,
): void {
  const schema = place.schema;
  // A schema that accepts extra properties on purpose, or lists them in a way we cannot enumerate.
  if (isObject(schema.additionalProperties) || schema.additionalProperties === true || properties.open) return;
  const declared = [...properties.properties.keys()];
  const given = new Set(args.pairs.map(keyText));
  // Suggest only properties not already given, so a fix never makes a duplicate key.
  let candidates: string[] | undefined;
  for (const pair of args.pairs) {
    const name = keyText(pair);
    if (properties.properties.has(name)) continue;
    candidates ??= declared.filter((d) => !given.has(d));
    const suggestions = closestN(name, candidates, 3, { budget });
    out.push({ rule: 'args/unknown', place, pair, name, declared, suggestions, closed: properties.closed });
  }
}

// ---------------------------------------------------------------------------------------------
// args/wrong-type: literal values the schema rejects, validated with ajv in the schema's dialect.
// Nulls count as absent (args/missing-required), and arguments the schema does not declare are
// args/unknown's.

// Keywords whose verdict on a mapping or list does not depend on what its templates render to.
const SHAPE_KEYWORDS = new Set([
  'type',
  'required',
  'additionalProperties',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
]);

function wrongTypes(
  ctx: DocumentContext,
  out: ArgumentProblem[],
  place: ArgumentsPlace,
  properties: TopLevelProperties,
  args: MapNode,
  budget: SuggestionBudget,
): void {
  const value = toValue(args);
  const result = validateAgainstSchema(
    place.schema,
    place.coerce ? coerceLikeToolHive(place.schema, value) : value,
    patternBudgetOf(ctx),
  );
  // A schema that does not compile is catalog/invalid-schema's finding.
  if (!result.compiled) return;
  if (result.tooMuchWork) {
    const words = subjectWords(place.subject).replace(/^Step/, 'step').replace(/^Call/, 'call');
    decline(ctx, {
      limit: 'schemaWork',
      span: args.span,
      what: `the arguments of ${words} against the inputSchema of ${calledToolWords(place)}`,
    });
    return;
  }
  // The words cost: made only when a string went unchecked (declineUnchecked says nothing otherwise).
  if (result.unchecked.length > 0) {
    declineUnchecked(
      ctx,
      {
        node: args,
        words: `the arguments of ${subjectWords(place.subject).replace(/^Step/, 'step').replace(/^Call/, 'call')}`,
        schema: `the inputSchema of ${calledToolWords(place)}`,
        // A template string is not checked at all; its pattern is no news.
        skip: place.templated ? isTemplateString : undefined,
      },
      result.unchecked,
    );
  }
  const declared = properties.properties;
  const seen = new Set<string>();
  for (const issue of result.issues) {
    const key = dedupeKey(issue);
    if (!relevantIssue(issue) || seen.has(key)) continue;
    const first = issue.path[0];
    if (first === undefined || !declared.has(String(first))) continue;
    const node = nodeAtPath(args, issue.path);
    if (!node || isNullScalar(node)) continue;
    if (place.templated) {
      if (isScalar(node) && isTemplateString(node.value)) continue;
      if (!isScalar(node) && hasTemplate(node) && !SHAPE_KEYWORDS.has(issue.keyword)) continue;
    }
    seen.add(key);
    out.push({
      rule: 'args/wrong-type',
      place,
      span: issueSpan(args, issue, node),
      node,
      issue,
      closestAllowed: closestAllowed(issue, node, budget),
    });
  }
}

/** One finding per value; a mapping may lack several properties or carry several extra ones. */
function dedupeKey(issue: SchemaIssue): string {
  if (issue.keyword === 'required') return `${issue.instancePath}\0required\0${String(issue.params.missingProperty)}`;
  if (issue.keyword === 'additionalProperties')
    return `${issue.instancePath}\0extra\0${String(issue.params.additionalProperty)}`;
  return issue.instancePath;
}

/** The extra property's key for additionalProperties; otherwise the value itself. */
function issueSpan(args: MapNode, issue: SchemaIssue, node: Node): Span {
  if (issue.keyword === 'additionalProperties') {
    const pair = getPair(nodeAtPath(args, issue.path), String(issue.params.additionalProperty));
    if (pair) return pair.key.span;
  }
  return node.span;
}

function closestAllowed(issue: SchemaIssue, node: Node, budget: SuggestionBudget): string | undefined {
  if (issue.keyword !== 'enum' || !isScalar(node) || typeof node.value !== 'string') return undefined;
  const values = issue.params.allowedValues;
  // Not even the strings picked out when the search could not run.
  if (!Array.isArray(values) || values.length > budget.left) return undefined;
  return closest(
    node.value,
    values.filter((v): v is string => typeof v === 'string'),
    { budget },
  );
}

function hasTemplate(node: Node): boolean {
  let found = false;
  walk(node, (n) => {
    if (isScalar(n) && isTemplateString(n.value)) found = true;
  });
  return found;
}
