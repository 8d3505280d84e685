// `.toollens.yaml`: extra catalogs, workload → server names, rule severities, per-glob overrides,
// and globs that force a document kind. Problems in the file are findings on the file itself; a
// glob is a problem when Tool Lens cannot read it (config/glob.ts), when it is too long or one too
// many (limits.ts), or when it reaches outside the folder of the file. `limits:` sets some of the
// bounds of limits.ts, each within its LIMIT_BOUNDS; a value outside them is a problem, and the
// default applies. A misspelt key, rule id, severity or kind is a problem with "did you mean" and
// a fix to the closest right word (a suggestion: the editor offers it, nothing applies it alone).
// `ruleDocsUrl` moves the rule pages the CLI's reports link to (rules/rule.ts ruleDocsUrl).
import { replaceScalarFixes } from '../edit/mappingEdits.js';
import {
  DEFAULT_LIMITS,
  FIXED_LIMITS,
  LIMIT_BOUNDS,
  LIMITS,
  type ConfigurableLimit,
  type LimitBound,
  type Limits,
} from '../limits.js';
import { parseFile } from '../parse/file.js';
import { parserWords } from '../wording/parserWords.js';
import { getMap, getNode, isMap, isScalar, isSeq, keyText, type Node } from '../parse/nodes.js';
import { closest } from '../text/suggest.js';
import { joinWords } from '../text/words.js';
import type { DocumentKind, Finding, Fix, SeverityOrOff } from '../types.js';
import { DOCUMENT_KINDS } from '../types.js';
import { compileGlob, leavesFolder, matchesGlob } from './glob.js';

export const CONFIG_FILE_NAME = '.toollens.yaml';

interface RuleOverride {
  files: string[];
  rules: Record<string, SeverityOrOff>;
}

export interface LensConfig {
  /** Absolute or relative path of the file this came from; undefined for the defaults. */
  path?: string;
  catalogs: string[];
  workloads: Record<string, string>;
  rules: Record<string, SeverityOrOff>;
  overrides: RuleOverride[];
  kinds: Partial<Record<DocumentKind, string[]>>;
  /** Every configurable limit: its default unless `limits:` sets it. */
  limits: Limits;
  /**
   * Where the CLI's reports (SARIF, rdjson) and editors without Tool Lens's own viewer link a
   * rule's page: a URL in which `{rule}` stands for the rule id, or a base the id and `.md` are
   * appended to. Absent: the project's pages.
   */
  ruleDocsUrl?: string;
}

export const DEFAULT_CONFIG: LensConfig = {
  catalogs: [],
  workloads: {},
  rules: {},
  overrides: [],
  kinds: {},
  limits: DEFAULT_LIMITS,
};

export const SEVERITIES: readonly SeverityOrOff[] = ['error', 'warning', 'info', 'hint', 'off'];

/** The top-level keys of `.toollens.yaml`, in the order the docs list them. */
export const CONFIG_KEYS = ['catalogs', 'workloads', 'rules', 'overrides', 'kinds', 'limits', 'ruleDocsUrl'] as const;
const CONFIG_KEY_WORDS = joinWords(CONFIG_KEYS);

/** The keys of one entry of `overrides`. */
const OVERRIDE_KEYS = ['files', 'rules'] as const;

/** A configuration nothing reads: where a misspelt key's value is read for its problems alone. */
function scratchConfig(): LensConfig {
  return { ...DEFAULT_CONFIG, catalogs: [], workloads: {}, rules: {}, overrides: [], kinds: {} };
}

export interface ConfigResult {
  config: LensConfig;
  problems: Finding[];
}

/** Parses the configuration text. `knownRules` lets it flag a misspelt rule id. */
export function parseConfig(path: string, text: string, knownRules: ReadonlySet<string>): ConfigResult {
  const file = parseFile(path, text, { language: 'yaml' });
  const problems: Finding[] = [];
  const config: LensConfig = {
    path,
    catalogs: [],
    workloads: {},
    rules: {},
    overrides: [],
    kinds: {},
    limits: DEFAULT_LIMITS,
  };
  for (const doc of file.documents) {
    for (const p of doc.problems)
      problems.push({ rule: p.rule, messageId: p.code, severity: 'error', message: parserWords(p), span: p.span });
  }
  const root = file.documents[0]?.root ?? null;
  const problem = (node: Node, message: string, fixes?: Fix[]) =>
    problems.push({
      rule: 'schema/invalid-value',
      messageId: 'configValue',
      severity: 'error',
      message,
      span: node.span,
      ...(fixes?.length ? { fixes } : {}),
    });
  const unknownKey = (node: Node, message: string, fixes?: Fix[]) =>
    problems.push({
      rule: 'schema/unknown-key',
      messageId: 'configKey',
      severity: 'error',
      message,
      span: node.span,
      ...(fixes?.length ? { fixes } : {}),
    });
  const edits = { text, json: false };
  /** The "did you mean" of a misspelt word: the sentence to add, and the fix to the right word. */
  const guess = (node: Node, word: string, candidates: Iterable<string>): { advice: string; fixes?: Fix[] } => {
    const right = closest(word, candidates);
    if (right === undefined || !isScalar(node)) return { advice: '' };
    return {
      advice: ` Did you mean ${right}?`,
      fixes: replaceScalarFixes(edits, node, [right], (value) => `Change to ${value}`),
    };
  };
  let globs = 0;
  /** The usable globs of a list; each other one is a problem on its entry. */
  const globList = (node: Node, what: string): string[] =>
    stringList(node, problem, what, (glob, item) => {
      const why = compileGlob(glob).problem ?? leavesFolder(glob, `the folder of ${CONFIG_FILE_NAME}`);
      if (why !== undefined) {
        problem(item, why);
        return false;
      }
      if (++globs === LIMITS.globCount + 1) {
        problem(
          item,
          `This is glob number ${globs} of the configuration, and Tool Lens reads at most ${LIMITS.globCount}, each matched against every file; merge globs with {a,b} or **.`,
        );
      }
      return globs <= LIMITS.globCount;
    });
  if (root === null || (isScalar(root) && root.value === null)) return { config, problems };
  if (!isMap(root)) {
    problem(root, `The configuration must be a mapping (${CONFIG_KEYS.join(', ')}).`);
    return { config, problems };
  }
  /**
   * Reads one top-level entry into `into`; false for a key the configuration does not have. A
   * misspelt key's value is read as the key it is closest to, into a scratch configuration, so
   * its own problems are reported too and nothing of it applies.
   */
  const readEntry = (key: string, value: Node, into: LensConfig): boolean => {
    switch (key) {
      case 'catalogs':
        into.catalogs = globList(value, 'catalogs');
        break;
      case 'workloads':
        if (!isMap(value)) problem(value, '`workloads` maps a workload name to a catalog server name.');
        else {
          // Entries, then own properties: a workload named `__proto__` stays a workload.
          const workloads: [string, string][] = [];
          for (const entry of value.pairs) {
            if (isScalar(entry.value) && typeof entry.value.value === 'string')
              workloads.push([keyText(entry), entry.value.value]);
            else problem(entry.value ?? entry.key, `The server for workload "${keyText(entry)}" must be a string.`);
          }
          into.workloads = Object.fromEntries(workloads);
        }
        break;
      case 'rules':
        into.rules = ruleSeverities(value, problem, knownRules, guess);
        break;
      case 'overrides':
        if (!isSeq(value)) problem(value, '`overrides` is a list of {files, rules}.');
        else
          for (const item of value.items) {
            if (!isMap(item)) {
              problem(item, 'An override is a mapping with `files` and `rules`.');
              continue;
            }
            for (const entry of item.pairs) {
              const name = keyText(entry);
              if (name === 'files' || name === 'rules') continue;
              const meant = closest(name, OVERRIDE_KEYS);
              const { fixes } = guess(entry.key, name, OVERRIDE_KEYS);
              unknownKey(
                entry.key,
                meant
                  ? `"${name}" is not a key of an override: did you mean ${meant}?`
                  : `"${name}" is not a key of an override, whose keys are files and rules.`,
                fixes,
              );
              // A misspelt `rules:` still has its rule ids and severities read, for their own problems.
              if (meant === 'rules' && isMap(entry.value)) ruleSeverities(entry.value, problem, knownRules, guess);
            }
            const files = getNode(item, 'files');
            const rules = getMap(item, 'rules');
            into.overrides.push({
              files: files ? globList(files, 'files') : [],
              rules: rules ? ruleSeverities(rules, problem, knownRules, guess) : {},
            });
          }
        break;
      case 'kinds':
        if (!isMap(value)) problem(value, '`kinds` maps a document kind to a list of globs.');
        else
          for (const entry of value.pairs) {
            const kind = keyText(entry) as DocumentKind;
            if (!DOCUMENT_KINDS.includes(kind)) {
              const { advice, fixes } = guess(entry.key, kind, DOCUMENT_KINDS);
              problem(
                entry.key,
                `"${kind}" is not a document kind.${advice} The kinds are ${DOCUMENT_KINDS.join(', ')}.`,
                fixes,
              );
              continue;
            }
            if (entry.value) into.kinds[kind] = globList(entry.value, kind);
          }
        break;
      case 'limits':
        into.limits = limitValues(value, problem, (node, message) => unknownKey(node, message));
        break;
      case 'ruleDocsUrl': {
        const url = isScalar(value) && typeof value.value === 'string' ? value.value : undefined;
        const why = url === undefined ? 'it is not a string' : ruleDocsUrlProblem(url);
        if (why === undefined) into.ruleDocsUrl = url;
        else
          problem(
            value,
            `\`ruleDocsUrl\` must be an http or https URL, and ${why}; the reports link the project's pages meanwhile.`,
          );
        break;
      }
      default:
        return false;
    }
    return true;
  };
  for (const pair of root.pairs) {
    const key = keyText(pair);
    const value = pair.value;
    if (!value || readEntry(key, value, config)) continue;
    const { advice, fixes } = guess(pair.key, key, CONFIG_KEYS);
    unknownKey(pair.key, `"${key}" is not a configuration key.${advice} The keys are ${CONFIG_KEY_WORDS}.`, fixes);
    const meant = advice ? closest(key, CONFIG_KEYS) : undefined;
    if (meant !== undefined) {
      // Its globs are not the configuration's: they do not count against the bound on globs.
      const counted = globs;
      readEntry(meant, value, scratchConfig());
      globs = counted;
    }
  }
  return { config, problems };
}

/** The strings of a list (or a lone string); `keep` may drop one, having said why. */
function stringList(
  node: Node,
  problem: (node: Node, message: string) => void,
  what: string,
  keep: (value: string, item: Node) => boolean,
): string[] {
  if (isScalar(node) && typeof node.value === 'string') return keep(node.value, node) ? [node.value] : [];
  if (!isSeq(node)) {
    problem(node, `\`${what}\` is a list of strings.`);
    return [];
  }
  const out: string[] = [];
  for (const item of node.items) {
    if (isScalar(item) && typeof item.value === 'string') {
      if (keep(item.value, item)) out.push(item.value);
    } else problem(item, `Each entry of \`${what}\` must be a string.`);
  }
  return out;
}

/** Why a `ruleDocsUrl` (or `--rule-docs-url`) cannot be used, or undefined. */
export function ruleDocsUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.replaceAll('{rule}', 'family/name'));
  } catch {
    return `"${url}" is not a URL`;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    return `"${url}" is a ${parsed.protocol.slice(0, -1)} URL`;
  return undefined;
}

type Guess = (node: Node, word: string, candidates: Iterable<string>) => { advice: string; fixes?: Fix[] };

function ruleSeverities(
  node: Node,
  problem: (node: Node, message: string, fixes?: Fix[]) => void,
  knownRules: ReadonlySet<string>,
  guess: Guess,
): Record<string, SeverityOrOff> {
  const out: [string, SeverityOrOff][] = [];
  if (!isMap(node)) {
    problem(node, '`rules` maps a rule id to error, warning, info, hint or off.');
    return {};
  }
  for (const pair of node.pairs) {
    const id = keyText(pair);
    // An unknown id and a wrong severity on one line are two problems: both are reported.
    const known = !knownRules.size || knownRules.has(id);
    if (!known) {
      const { advice, fixes } = guess(pair.key, id, knownRules);
      problem(pair.key, `"${id}" is not a rule id.${advice} \`tool-lens rules\` lists them.`, fixes);
    }
    const value = isScalar(pair.value) ? pair.value.value : undefined;
    if (typeof value === 'string' && (SEVERITIES as readonly string[]).includes(value)) {
      if (known) out.push([id, value as SeverityOrOff]);
    } else {
      const { advice, fixes } =
        typeof value === 'string' && pair.value
          ? guess(pair.value, value, SEVERITIES)
          : { advice: '', fixes: undefined };
      problem(pair.value ?? pair.key, `The severity of ${id} must be one of ${SEVERITIES.join(', ')}.${advice}`, fixes);
    }
  }
  return Object.fromEntries(out);
}

const CONFIGURABLE = Object.keys(LIMIT_BOUNDS) as ConfigurableLimit[];
const CONFIGURABLE_WORDS = joinWords(CONFIGURABLE);

/**
 * The limits `limits:` sets, over the defaults. A value that is not a whole number within its
 * bounds is a problem on the value, and the default applies; a name that is no configurable limit
 * is a problem on the key.
 */
function limitValues(
  node: Node,
  problem: (node: Node, message: string) => void,
  unknown: (node: Node, message: string) => void,
): Limits {
  if (!isMap(node)) {
    problem(node, `\`limits\` maps a limit (${CONFIGURABLE_WORDS}) to a number; docs/limits.md says what each bounds.`);
    return DEFAULT_LIMITS;
  }
  const out: Record<string, number> = { ...DEFAULT_LIMITS };
  const seen = new Set<string>();
  for (const pair of node.pairs) {
    const name = keyText(pair);
    if (!Object.hasOwn(LIMIT_BOUNDS, name)) {
      const fixed = Object.hasOwn(FIXED_LIMITS, name) ? FIXED_LIMITS[name as keyof typeof FIXED_LIMITS] : undefined;
      unknown(
        pair.key,
        fixed !== undefined
          ? `The limit ${name} cannot be set: ${fixed}. The limits a configuration sets are ${CONFIGURABLE_WORDS}.`
          : `"${name}" is not a limit a configuration sets; those are ${CONFIGURABLE_WORDS} (docs/limits.md).`,
      );
      continue;
    }
    if (seen.has(name)) continue; // the parser reports the duplicate key; the first one wins
    seen.add(name);
    const limit = name as ConfigurableLimit;
    const bound: LimitBound = LIMIT_BOUNDS[limit];
    const value = isScalar(pair.value) ? pair.value.value : undefined;
    const range = `from ${amount(bound.min, bound)} to ${amount(bound.max, bound)}`;
    const fallback = `the default, ${amount(DEFAULT_LIMITS[limit], bound)}, applies meanwhile`;
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      problem(pair.value ?? pair.key, `The limit ${limit} must be a whole number ${range}; ${fallback}.`);
    } else if (value > bound.max) {
      problem(
        pair.value!,
        `${limit} is ${amount(value, bound)}, more than the ${amount(bound.max, bound)} Tool Lens lets a configuration set: past that, one hostile file could cost the checker more time or memory than it may spend. Set it ${range}; ${fallback}.`,
      );
    } else if (value < bound.min) {
      problem(
        pair.value!,
        `${limit} is ${amount(value, bound)}, less than the ${amount(bound.min, bound)} Tool Lens lets a configuration set: below that, ordinary files would be declined. Set it ${range}; ${fallback}.`,
      );
    } else out[limit] = value;
  }
  return out as unknown as Limits;
}

/** A limit's value in words: `8,388,608 bytes (8 MB)`, `2,000 ms`, `500,000`. */
function amount(value: number, bound: LimitBound): string {
  const count = value.toLocaleString('en-US');
  if (bound.unit === 'ms') return `${count} ms`;
  if (bound.unit !== 'bytes') return count;
  const mb = value / (1024 * 1024);
  const kb = value / 1024;
  const short = Number.isInteger(mb) && mb > 0 ? `${mb} MB` : Number.isInteger(kb) && kb > 0 ? `${kb} KB` : undefined;
  return short ? `${count} bytes (${short})` : `${count} bytes`;
}

/** The configured severity of a rule for a file, overrides (later ones win) over `rules`. */
export function configuredSeverity(
  config: LensConfig,
  ruleId: string,
  relativePath: string,
): SeverityOrOff | undefined {
  let severity = Object.hasOwn(config.rules, ruleId) ? config.rules[ruleId] : undefined;
  for (const override of config.overrides) {
    if (
      Object.hasOwn(override.rules, ruleId) &&
      override.rules[ruleId] !== undefined &&
      override.files.some((glob) => matchesGlob(glob, relativePath))
    ) {
      severity = override.rules[ruleId];
    }
  }
  return severity;
}

export function forcedKind(config: LensConfig, relativePath: string): DocumentKind | null {
  for (const kind of DOCUMENT_KINDS) {
    if (config.kinds[kind]?.some((glob) => matchesGlob(glob, relativePath))) return kind;
  }
  return null;
}
