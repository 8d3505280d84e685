// What a tool's own words say it does: the words of its name (camelCase, snake_case, kebab-case
// and dotted identifiers split into words), the verbs its description starts with, its parameter
// names, and whether its description says it changes nothing. Plain data over plain values, so the
// catalog audit rules, a catalog diff or a hover can all ask the same questions of a tool.
//
// The reading is deliberately narrow, because a wrong "this tool writes" on a correct catalog is a
// false positive about someone else's server: only the *leading* verb of a name or of a
// description's first sentence counts (and verbs joined to it by "and", "or" or a comma), so
// "list_deleted_items", "get_post", "Returns the updated_at of each row" and "progress updates"
// say nothing; words are whole words, so "postgres" is not "post" and "settings" is not "set".

/** A word and where it is in the string it came from (UTF-16 offsets, half-open). */
export interface Word {
  /** Lower-cased. */
  text: string;
  start: number;
  end: number;
}

/** What a verb says a tool does: `reads`, `changes`, or `neutral` (known, but either: run, open, convert). */
export type VerbSense = 'reads' | 'changes' | 'neutral';

export interface Verb extends Word {
  /** The verb's base form (`creates` → `create`). */
  base: string;
  sense: VerbSense;
}

// Verbs whose tool changes something outside itself. Base forms; see `verbOf` for the inflections.
const CHANGE_VERBS = new Set([
  'add',
  'append',
  'apply',
  'approve',
  'archive',
  'assign',
  'attach',
  'ban',
  'block',
  'cancel',
  'change',
  'chmod',
  'chown',
  'clear',
  'close',
  'commit',
  'copy',
  'cp',
  'create',
  'delete',
  'deploy',
  'destroy',
  'detach',
  'disable',
  'drop',
  'edit',
  'enable',
  'erase',
  'exec',
  'execute',
  'follow',
  'fork',
  'grant',
  'import',
  'insert',
  'install',
  'invite',
  'kill',
  'lock',
  'mark',
  'merge',
  'mkdir',
  'modify',
  'move',
  'mute',
  'mv',
  'notify',
  'overwrite',
  'patch',
  'pay',
  'post',
  'publish',
  'purge',
  'push',
  'put',
  'register',
  'reject',
  'remove',
  'rename',
  'replace',
  'reply',
  'reset',
  'restore',
  'revert',
  'revoke',
  'rm',
  'rmdir',
  'rollback',
  'save',
  'schedule',
  'send',
  'set',
  'share',
  'submit',
  'subscribe',
  'sync',
  'terminate',
  'toggle',
  'transfer',
  'truncate',
  'unarchive',
  'unassign',
  'unblock',
  'unfollow',
  'uninstall',
  'unlink',
  'unlock',
  'unmute',
  'unregister',
  'unsubscribe',
  'update',
  'upload',
  'upsert',
  'vote',
  'wipe',
  'write',
]);

// Verbs of tools that look and compute without changing anything.
const READ_VERBS = new Set([
  'analyse',
  'analyze',
  'browse',
  'calculate',
  'check',
  'compare',
  'compute',
  'count',
  'describe',
  'diff',
  'echo',
  'explain',
  'fetch',
  'find',
  'format',
  'get',
  'inspect',
  'list',
  'lookup',
  'parse',
  'peek',
  'ping',
  'preview',
  'print',
  'query',
  'read',
  'render',
  'retrieve',
  'return',
  'scan',
  'search',
  'select',
  'show',
  'summarise',
  'summarize',
  'validate',
  'verify',
  'view',
]);

// Known verbs that could go either way: they end the search for a leading verb and say nothing.
const NEUTRAL_VERBS = new Set([
  'ask',
  'call',
  'connect',
  'convert',
  'disconnect',
  'download',
  'elicit',
  'export',
  'generate',
  'handle',
  'invoke',
  'load',
  'open',
  'process',
  'request',
  'resolve',
  'run',
  'sample',
  'simulate',
  'start',
  'stop',
  'test',
  'transform',
  'translate',
  'trigger',
]);

// Words that make a name or a phrase a noun phrase about something read: "sync_status",
// "commit_history", "post_details". A changing verb before one of them is a noun. ("list" is not
// one: "create_list" creates a list.)
const READ_NOUNS = new Set([
  'count',
  'counts',
  'detail',
  'details',
  'history',
  'info',
  'information',
  'log',
  'logs',
  'metadata',
  'overview',
  'preview',
  'stats',
  'status',
  'summary',
]);

function senseOf(base: string): VerbSense | undefined {
  if (CHANGE_VERBS.has(base)) return 'changes';
  if (READ_VERBS.has(base)) return 'reads';
  if (NEUTRAL_VERBS.has(base)) return 'neutral';
  return undefined;
}

/** The verb a word is, in its base form or its third person (`creates`, `pushes`, `copies`), if it is a known one. */
export function verbOf(word: Word): Verb | undefined {
  const text = word.text;
  const candidates = [text];
  if (text.endsWith('ies') && text.length > 4) candidates.push(`${text.slice(0, -3)}y`);
  if (text.endsWith('es') && text.length > 3) candidates.push(text.slice(0, -2));
  if (text.endsWith('s') && !text.endsWith('ss') && text.length > 2) candidates.push(text.slice(0, -1));
  for (const base of candidates) {
    const sense = senseOf(base);
    if (sense) return { ...word, base, sense };
  }
  return undefined;
}

/**
 * The words of an identifier: split at anything that is not a letter or digit, and at camelCase
 * boundaries (`getHTTPStatus` → get, http, status). Digits are words of their own.
 */
export function identifierWords(name: string): Word[] {
  const out: Word[] = [];
  for (const match of name.matchAll(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g)) {
    out.push({ text: match[0].toLowerCase(), start: match.index, end: match.index + match[0].length });
  }
  return out;
}

// What a tool opens for its own use and closes again: a session, a connection, a page. Closing one
// is the twin of opening it (`open`, `connect` say nothing of a change), so it says nothing either;
// `close_issue` still changes something.
const OWN_SESSION_NOUNS = new Set([
  'browser',
  'connection',
  'connections',
  'context',
  'page',
  'pages',
  'session',
  'sessions',
  'socket',
  'tab',
  'tabs',
  'window',
  'windows',
]);

/** `close` whose object is the server's own session, within the next few words: neutral, as `open`. */
function closesOwnSession(verb: Verb, following: readonly Word[]): Verb {
  if (verb.base !== 'close' || !following.slice(0, 4).some((w) => OWN_SESSION_NOUNS.has(w.text))) return verb;
  return { ...verb, sense: 'neutral' };
}

/**
 * The first verb of a name that is a known one (`github_create_issue` → create); it alone says what
 * the name means. A changing verb that a reading word follows is a noun (`sync_status`,
 * `commit_history`, `delete_preview`), and the name says nothing.
 */
export function leadingNameVerb(name: string): Verb | undefined {
  const words = identifierWords(name);
  for (const [index, word] of words.entries()) {
    const verb = verbOf(word);
    if (!verb) continue;
    if (verb.sense === 'changes' && words.slice(index + 1).some((w) => READ_NOUNS.has(w.text))) return undefined;
    // `browser_close`, `close_session`: the object may come before the verb in a name.
    return closesOwnSession(verb, [...words.slice(index + 1), ...words.slice(0, index)]);
  }
  return undefined;
}

// What a description may start with before its verb: "This tool creates", "Use this tool to delete".
const PREAMBLES: readonly (readonly string[])[] = [
  ['use', 'this', 'tool', 'to'],
  ['use', 'this', 'to'],
  ['use', 'to'],
  ['this', 'tool', 'will'],
  ['this', 'tool', 'can'],
  ['this', 'tool'],
  ['a', 'tool', 'that'],
  ['a', 'tool', 'to'],
  ['tool', 'that'],
  ['tool', 'to'],
  ['allows', 'you', 'to'],
  ['allows', 'the', 'user', 'to'],
  ['allows', 'users', 'to'],
  ['allows', 'to'],
  ['lets', 'you'],
  ['used', 'to'],
  ['helps', 'you'],
  ['attempts', 'to'],
  ['tries', 'to'],
];

const JOINERS = new Set(['and', 'or', 'then', ',', '/', '&']);

/** Words and the joining marks (`,`, `/`, `&`) of a stretch of prose; apostrophes stay inside words. */
function proseTokens(text: string, from = 0, to = text.length): Word[] {
  const out: Word[] = [];
  const pattern = /[A-Za-z]+(?:['’][A-Za-z]+)*|[,/&]/g;
  pattern.lastIndex = from;
  for (let match = pattern.exec(text); match && match.index < to; match = pattern.exec(text)) {
    out.push({ text: match[0].toLowerCase(), start: match.index, end: match.index + match[0].length });
  }
  return out;
}

/** Where a description's first sentence ends: at `.`, `!`, `?` or `:` followed by a space, or at a line break. */
function firstSentenceEnd(text: string): number {
  const match = /[.!?:;](?=\s|$)|\n/.exec(text);
  return match ? match.index : text.length;
}

/**
 * The verbs a description starts with: its first sentence's first word when it is a known verb
 * (after a preamble such as "Use this tool to"), and the verbs joined to it ("Create, update or
 * delete ..."). Any other verb of the prose says nothing: "Returns the rows that were deleted".
 */
export function leadingDescriptionVerbs(description: string): Verb[] {
  const end = firstSentenceEnd(description);
  const tokens = proseTokens(description, 0, end);
  let index = 0;
  for (const preamble of PREAMBLES) {
    if (preamble.every((word, i) => tokens[i]?.text === word)) {
      index = preamble.length;
      break;
    }
  }
  const firstToken = tokens[index];
  if (firstToken && verbOf(firstToken)) return verbRun(tokens, index);
  // "Manage contexts - list, get, or set the current one": a subject, a dash, then what the tool
  // does. Only an enumeration of two or more verbs counts there ("Tools - set of helpers" does not).
  const dash = / [-–—] /.exec(description.slice(0, end));
  if (!dash) return [];
  const after = tokens.findIndex((t) => t.start > dash.index);
  const listed = after < 0 ? [] : verbRun(tokens, after);
  return listed.length >= 2 ? listed : [];
}

/** The known verb at `index` and the verbs joined to it ("Create, update or delete"); none when it is a noun. */
function verbRun(tokens: readonly Word[], start: number): Verb[] {
  const firstToken = tokens[start];
  const first = firstToken && verbOf(firstToken);
  // "Post details for an id", "Sync status of a folder": a noun, not a verb.
  if (!first || (first.sense === 'changes' && READ_NOUNS.has(tokens[start + 1]?.text ?? ''))) return [];
  const verbs = [closesOwnSession(first, tokens.slice(start + 1))];
  let index = start + 1;
  while (index < tokens.length) {
    let next = index;
    while (next < tokens.length && JOINERS.has(tokens[next]!.text)) next += 1;
    if (next === index) break; // "Get post details": no joiner, so "post" is no verb of the tool
    const nextToken = tokens[next];
    const verb = nextToken && verbOf(nextToken);
    if (!verb) break;
    verbs.push(closesOwnSession(verb, tokens.slice(next + 1)));
    index = next + 1;
  }
  return verbs;
}

// Verbs that put something into a file. Past the first sentence only these count, and only with a
// file in the same sentence: "Saves the trace to `saveTo`", "Write the report to a file". Any other
// verb of a later sentence (a list item "Create organized notes", "Changes in approach") says nothing.
const FILE_WRITE_VERBS = new Set(['save', 'write', 'store', 'dump', 'persist', 'overwrite', 'append']);
const FILE_WORDS = /\b(?:files?|disk|folders?|director(?:y|ies)|paths?|filenames?)\b/i;
// What may open a sentence before its verb: "If `saveTo` is given, saves ...", "Optionally, writes ...".
const CONDITION_OPENERS = new Set(['if', 'when', 'whenever', 'optionally', 'with', 'unless']);

/** Where each sentence of a description starts and ends: at `.`, `!`, `?`, `:`, `;` before a space, and at line breaks. */
function sentenceRanges(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let start = 0;
  for (const match of text.matchAll(/[.!?:;](?=\s|$)|\n/g)) {
    out.push({ start, end: match.index });
    start = match.index + match[0].length;
  }
  out.push({ start, end: text.length });
  return out.filter((r) => r.end > r.start);
}

/**
 * The file-writing verbs that lead a sentence after the first one, in a sentence that names a file
 * (a file word, or one of `fileParameterNames` written in it): "Saves the logs to `saveTo`."
 */
export function laterWriteVerbs(description: string, fileParameterNames: readonly string[] = []): Verb[] {
  const out: Verb[] = [];
  for (const range of sentenceRanges(description).slice(1)) {
    const tokens = proseTokens(description, range.start, range.end).filter((t) => t.end <= range.end);
    let index = 0;
    if (CONDITION_OPENERS.has(tokens[0]?.text ?? '')) {
      const comma = tokens.findIndex((t) => t.text === ',');
      if (comma < 0) continue;
      index = comma + 1;
    }
    for (const preamble of PREAMBLES) {
      if (preamble.every((word, i) => tokens[index + i]?.text === word)) {
        index += preamble.length;
        break;
      }
    }
    const token = tokens[index];
    const verb = token && verbOf(token);
    if (!verb || !FILE_WRITE_VERBS.has(verb.base)) continue;
    // "Saves time", "Saves you a call": not a file.
    if (verb.base === 'save' && ['time', 'you', 'tokens', 'effort'].includes(tokens[index + 1]?.text ?? '')) continue;
    const sentence = description.slice(range.start, range.end);
    const namesFile =
      FILE_WORDS.test(sentence) ||
      fileParameterNames.some((name) =>
        new RegExp(`(^|[^A-Za-z0-9_])${escapeRegExp(name)}($|[^A-Za-z0-9_])`).test(sentence),
      );
    if (namesFile) out.push(verb);
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// A parameter that names a file by its name (filename, filePath, outputPath, saveTo, saveAs, dest...).
const FILE_NAME_WORDS = new Set([
  'file',
  'filename',
  'filepath',
  'path',
  'dir',
  'directory',
  'folder',
  'dest',
  'destination',
]);
// Its description says the tool writes there: "File name to save the messages to".
// Active words only: "the file where your credentials are stored" names a file the tool reads.
const WRITES_THERE =
  /\b(?:to\s+(?:save|write|store|dump|export|persist)\b|(?:sav(?:e|es|ing)|writ(?:e|es|ing)|dump(?:s|ing)?|export(?:s|ing)?)\s|(?:saved|written|stored|dumped|exported)\s+(?:to|into|in|under)\b)/i;
// ... even when it is left out: "If not specified, the screenshot is saved into the output directory".
const WRITES_ANYWAY =
  /\b(?:if|when)\s+(?:it\s+is\s+|is\s+)?(?:not|no|omitted|unset|absent|empty)\b[^.]*?\b(?:saved|written|stored)\b/i;

/** A top-level parameter naming a file the tool writes, as its own description says. */
export interface FileParameter {
  name: string;
  /** `always`: its description says the tool writes a file even when it is left out. */
  writes: 'when-given' | 'always';
}

/** The names of the top-level parameters whose name says file or path, or starts with "save". */
function fileNamedParameters(inputSchema: unknown): string[] {
  const properties = isRecord(inputSchema) && isRecord(inputSchema.properties) ? inputSchema.properties : undefined;
  if (!properties) return [];
  return Object.keys(properties).filter((name) => {
    const words = identifierWords(name).map((w) => w.text);
    return words.some((w) => FILE_NAME_WORDS.has(w)) || words[0] === 'save';
  });
}

/**
 * The top-level parameters whose name says file or path (or starts with "save": `saveTo`), whose
 * type can hold a name, and whose description says the tool saves or writes there. A `path` with no
 * description, or one "to read", says nothing.
 */
export function fileParameters(inputSchema: unknown): FileParameter[] {
  const properties = isRecord(inputSchema) && isRecord(inputSchema.properties) ? inputSchema.properties : undefined;
  if (!properties) return [];
  const out: FileParameter[] = [];
  for (const name of fileNamedParameters(inputSchema)) {
    const schema = properties[name];
    if (!isRecord(schema)) continue;
    const types = typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type : [];
    if (types.length > 0 && !types.includes('string')) continue;
    const description = typeof schema.description === 'string' ? schema.description : '';
    if (!WRITES_THERE.test(description)) continue;
    out.push({ name, writes: WRITES_ANYWAY.test(description) ? 'always' : 'when-given' });
  }
  return out;
}

/** A statement in a description that the tool changes nothing ("read-only", "does not modify"). */
export interface NoChangeStatement {
  text: string;
  start: number;
  end: number;
}

const NO_CHANGE =
  /\bread[- ]only\b|\b(?:does|do|will)\s*(?:not|n['’]t)\s+(?:modify|change|alter|write|create|delete|remove|mutate|touch)\b|\bwithout\s+(?:modifying|changing|altering|writing|side[- ]effects)\b|\bno\s+side[- ]effects\b|\bnever\s+(?:modifies|changes|alters|writes|mutates)\b|\bmakes?\s+no\s+changes\b|\bonly\s+reads\b/i;

export function noChangeStatement(description: string): NoChangeStatement | undefined {
  const match = NO_CHANGE.exec(description);
  return match ? { text: match[0], start: match.index, end: match.index + match[0].length } : undefined;
}

// Parameter names whose head word is what a changing tool takes: text to write, a body to send, a
// command to run. Only the last word of the name counts: `fileContent` and `requestBody` do,
// `contentType` and `bodyFormat` (filters, formats) do not.
const CHANGE_PARAMETER_WORDS = new Set(['content', 'contents', 'body', 'command', 'cmd', 'script', 'payload']);
const NOT_TEXT_TYPES = new Set(['boolean', 'number', 'integer', 'null']);

/** A top-level input parameter that names what a changing tool takes. */
export interface ChangeParameter {
  name: string;
  /** The word of the name that says so. */
  word: string;
}

/**
 * The top-level parameters of an input schema whose name ends in content, body, command, script
 * or payload and whose type can hold text or data (a boolean `includeContent` is a switch).
 */
export function changeParameters(inputSchema: unknown): ChangeParameter[] {
  const properties = isRecord(inputSchema) && isRecord(inputSchema.properties) ? inputSchema.properties : undefined;
  if (!properties) return [];
  const out: ChangeParameter[] = [];
  for (const [name, schema] of Object.entries(properties)) {
    const words = identifierWords(name);
    const last = words[words.length - 1]?.text;
    if (!last || !CHANGE_PARAMETER_WORDS.has(last)) continue;
    const types = isRecord(schema) ? schema.type : undefined;
    const listed =
      typeof types === 'string'
        ? [types]
        : Array.isArray(types)
          ? types.filter((t): t is string => typeof t === 'string')
          : [];
    if (listed.length > 0 && listed.every((t) => NOT_TEXT_TYPES.has(t))) continue;
    out.push({ name, word: last });
  }
  return out;
}

/** Whether an input schema has top-level properties and every one of them is a number or an integer. */
function onlyNumbers(inputSchema: unknown): boolean {
  const properties =
    isRecord(inputSchema) && isRecord(inputSchema.properties) ? Object.values(inputSchema.properties) : [];
  return properties.length > 0 && properties.every((p) => isRecord(p) && (p.type === 'number' || p.type === 'integer'));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---- a tool's words, together -------------------------------------------------------------------

/** What a tool may be judged by: its name, description and input schema, as plain values. */
export interface ToolText {
  name?: string;
  description?: string;
  inputSchema?: unknown;
}

/** One reason to think a tool changes something, with the word and where it is (in the name or the description). */
export type ChangeEvidence =
  | { where: 'name'; verb: Verb }
  | { where: 'description'; verb: Verb }
  | { where: 'parameter'; parameter: ChangeParameter }
  | { where: 'file-parameter'; parameter: FileParameter };

export interface ToolWords {
  /** The name's leading known verb, if any. */
  nameVerb?: Verb;
  /** The description's leading verbs. */
  descriptionVerbs: Verb[];
  /** What the tool's words say, decided by the name's leading verb, else the description's first. */
  sense?: VerbSense;
  /** Every reason to think the tool changes something (empty when its description says it changes nothing). */
  changes: ChangeEvidence[];
  /** The description's statement that the tool changes nothing, which outweighs every other word. */
  noChange?: NoChangeStatement;
}

/**
 * What a tool's words say it does. Parameters count only when no reading or neutral verb leads
 * the name or the description: `render_markdown(content)` and `summarize(content)` take text and
 * change nothing.
 */
export function toolWords(tool: ToolText): ToolWords {
  const nameVerb = tool.name !== undefined ? leadingNameVerb(tool.name) : undefined;
  const descriptionVerbs = tool.description !== undefined ? leadingDescriptionVerbs(tool.description) : [];
  const noChange = tool.description !== undefined ? noChangeStatement(tool.description) : undefined;
  const sense = nameVerb?.sense ?? descriptionVerbs[0]?.sense;
  const out: ToolWords = { descriptionVerbs, changes: [] };
  if (nameVerb) out.nameVerb = nameVerb;
  if (sense) out.sense = sense;
  if (noChange) {
    out.noChange = noChange;
    return out;
  }
  // add(a, b) adds numbers: "add" says nothing of a tool whose inputs are all numbers.
  const arithmetic = onlyNumbers(tool.inputSchema);
  const counts = (verb: Verb) => verb.sense === 'changes' && !(verb.base === 'add' && arithmetic);
  if (nameVerb && counts(nameVerb)) out.changes.push({ where: 'name', verb: nameVerb });
  for (const verb of descriptionVerbs) if (counts(verb)) out.changes.push({ where: 'description', verb });
  // A file it writes counts whatever verb leads: "Returns the console messages" with a `filename`
  // "to save them to" still writes a file.
  const files = fileParameters(tool.inputSchema);
  if (tool.description !== undefined) {
    for (const verb of laterWriteVerbs(tool.description, fileNamedParameters(tool.inputSchema)))
      out.changes.push({ where: 'description', verb });
  }
  for (const parameter of files) out.changes.push({ where: 'file-parameter', parameter });
  const readOrNeutral =
    nameVerb?.sense === 'reads' || nameVerb?.sense === 'neutral' || descriptionVerbs.some((v) => v.sense !== 'changes');
  if (!readOrNeutral) {
    for (const parameter of changeParameters(tool.inputSchema)) out.changes.push({ where: 'parameter', parameter });
  }
  return out;
}
