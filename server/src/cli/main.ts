// The `tool-lens` command. Parses the command line, runs `check` or `rules`, prints the chosen
// format on stdout and everything about the run itself on stderr. Exit codes (a public interface):
// 0 clean, 1 findings at or above --fail-on (or more warnings than --max-warnings), 2 usage
// error or a file that could not be read, 3 internal error (docs/behaviour.md, "The checker's
// command line").
import { counted } from '../core/text/words.js';
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { version as TOOL_VERSION } from '../../../package.json';
import { ruleDocsUrlProblem } from '../core/config/config.js';
import { ALL_RULES } from '../core/rules/registry.js';
import { closest } from '../core/text/suggest.js';
import { SEVERITY_ORDER, type Severity } from '../core/types.js';
import type { Logger } from '../core/workspace.js';
import { UsageError } from '../node/loader.js';
import { cacheFileOf } from './cache.js';
import { catalogDiff, DIFF_FAIL_ON, diffFails, formatDiffJson, formatDiffTable, type DiffGate } from './catalogDiff.js';
import { ConfigError, runCheck, type CheckOptions } from './check.js';
import { colourWanted, palette } from './colors.js';
import { CATALOG_FETCH_HELP, runCatalogFetch } from './catalogFetch.js';
import { applySafeFixes, fixedText } from './fix.js';
import { formatGatewayToolsJson, formatGatewayToolsTable, gatewayReports } from './gatewayTools.js';
import { tuneHeapForCli } from './heap.js';
import { formatGithub } from './formatters/github.js';
import { formatGitlab } from './formatters/gitlab.js';
import { formatJson } from './formatters/json.js';
import { formatJunit } from './formatters/junit.js';
import { formatRdjson } from './formatters/rdjson.js';
import { formatSarif } from './formatters/sarif.js';
import { formatStylish } from './formatters/stylish.js';
import { outputFile, type Output } from './outputFile.js';
import { visible, visibleLines } from './formatters/visible.js';
import { guardGithub, guardJson, guardText, guardXml } from './formatters/workflowCommands.js';
import { summarize, type CheckResult } from './result.js';
import { formatRulesJson, formatRulesTable } from './rules.js';
import { formatServersJson, formatServersTable, listServers } from './servers.js';

export const EXIT_CLEAN = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERNAL = 3;

const FORMATS = ['stylish', 'json', 'sarif', 'github', 'junit', 'gitlab', 'rdjson'] as const;
type Format = (typeof FORMATS)[number];
const RULES_FORMATS = ['stylish', 'json'] as const;
const FAIL_ON = ['error', 'warning', 'info'] as const;

const EXIT_CODES = `Exit codes:
  0  nothing at or above --fail-on, and no more warnings than --max-warnings
  1  findings at or above --fail-on, or more warnings than --max-warnings
  2  usage error: unknown option, bad value, missing path, invalid configuration;
     or a file or folder that could not be read (the rest is still reported)
  3  internal error
`;

export const HELP = `Tool Lens ${TOOL_VERSION}: checks MCP gateway workflows, tool-face overlays, tool catalogs
and tool calls.

Usage:
  tool-lens check [PATH...] [options]   check files and folders (default: the current folder)
  tool-lens rules [--format json]       list every rule id with its default severity
  tool-lens catalog fetch [SERVER...]   fetch tool catalogs from the MCP servers the workspace
                                        lists and save them as snapshots
  tool-lens catalog diff OLD NEW        what changed between two catalogs (files, folders or
                                        REV:PATH) and what it does to the gateways; exit 1 when
                                        a hint loosens or a composite tool breaks
  tool-lens gateway tools [PATH...]     the tools each gateway configuration will advertise,
                                        and what it withholds and why
  tool-lens servers [PATH...]           every MCP server the client configs declare (VS Code,
                                        Cursor, Claude, Gemini, Codex, Zed, Continue...): how
                                        it starts and whether what it fetches is pinned
  tool-lens help [COMMAND]              the options of a command
  tool-lens --help | --version

\`tool-lens COMMAND --help\` lists the options of each command.

${EXIT_CODES}`;

/**
 * The hint to run with source maps, given only where they are: beside the bundle in a clone's
 * dist/ (`npm run build` writes them), not in the npm package, which leaves them out (.npmignore).
 */
const SOURCE_MAPS_HINT = existsSync(`${__filename}.map`)
  ? '\n                             (add NODE_OPTIONS=--enable-source-maps for TypeScript locations)'
  : '';

export const CHECK_HELP = `Usage: tool-lens check [PATH...] [options]

Checks the files named, and every YAML or JSON file under the folders named (default: the current
folder). The workspace is the folder of the .toollens.yaml found upward from the current folder
(or the current folder): its catalogs and configuration are read whichever paths are named, so
\`check a.yaml\` says of a.yaml what \`check .\` says of it. Only the files named are reported.

Options:
  -f, --format FORMAT        stylish (default), json, sarif, github, junit, gitlab or rdjson
  --fail-on error|warning|info
                             lowest severity that makes the exit code 1 (default: error)
  --max-warnings N           exit 1 also when there are more than N warnings
  -q, --quiet                errors only: report, fix and count nothing below error
  --catalog GLOB             add catalog snapshot files; repeatable
  -c, --config FILE          configuration file (default: .toollens.yaml in the current folder
                             or the nearest one above it); its folder is the workspace
  --fix                      apply every safe fix in place, then report what is left
  --cache                    keep each file's findings and check again only the files whose
                             findings may have changed (.toollens-cache)
  --cache-location PATH      the cache file, or the folder that holds it
  --stdin                    check the text on standard input instead of files
  --stdin-filename PATH      the path that text is checked as (its kind, the configuration's
                             globs); with --fix, the fixed text is printed and nothing else
  -o, --output-file FILE     write the report to FILE (folders created) instead of stdout
  --rule-docs-url URL        where SARIF and rdjson reports link each rule's page: {rule} in
                             URL stands for the rule id, else the id and .md are appended
                             (default: ruleDocsUrl of .toollens.yaml, else the project's pages)
  --color, --no-color        force colour on or off (default: on for a terminal, off when
                             NO_COLOR is set; FORCE_COLOR=1 or 0 forces it)
  --debug                    details of the run on stderr, and the stack of an internal error${SOURCE_MAPS_HINT}
  -h, --help                 this help

Positions are 1-based lines and columns. A column counts UTF-16 code units, so a character
outside the Basic Multilingual Plane (most emoji) takes two columns (rdjson counts UTF-8
bytes, as reviewdog reads it).

${EXIT_CODES}`;

export const RULES_HELP = `Usage: tool-lens rules [options]

Lists every rule id with its default severity and a one-line summary.

Options:
  -f, --format stylish|json  an aligned table (default) or JSON
  -o, --output-file FILE     write the list to FILE (folders created) instead of stdout
  --rule-docs-url URL        where the JSON list links each rule's page (as for check)
  --color, --no-color        force colour on or off
  -h, --help                 this help

Exit codes: 0 listed, 2 usage error.
`;

export const CATALOG_DIFF_HELP = `Usage: tool-lens catalog diff OLD NEW [options]

Compares two catalogs and says what the change does to the workspace's gateways: tools added,
removed and renamed, required arguments and argument types changed, hints loosened or tightened
(a tool claiming to be safer than before), descriptions changed (word by word); advertised names
that change, composite tools dropped or left out, and the findings the change adds. OLD and NEW
are each a snapshot file, a folder of snapshots, or REV:PATH (a file or folder as a git revision
holds it, e.g. main:catalogs).

Options:
  -f, --format stylish|json  a report for people (default) or JSON
  --fail-on description      also exit 1 when a tool's description, title or a parameter's
                             description changed (what the model reads)
  -c, --config FILE          configuration file (default: .toollens.yaml found upward)
  -o, --output-file FILE     write the report to FILE (folders created) instead of stdout
  --color, --no-color        force colour on or off
  -h, --help                 this help

Exit codes: 0 nothing loosened, claimed or broken, 1 a hint loosened, a tool claims to be safer
than before (a hint tightened), a composite tool is no longer advertised, a file has a new error,
or (with --fail-on description) a description changed, 2 usage error.
`;

export const GATEWAY_TOOLS_HELP = `Usage: tool-lens gateway tools [PATH...] [options]

Prints, for every gateway configuration (vmcp-config or VirtualMCPServer) under the paths, the
tools its clients will see, computed as ToolHive computes them, and what it withholds and why.

Options:
  -f, --format stylish|json  a table (default) or JSON
  --catalog GLOB             add catalog snapshot files; repeatable
  -c, --config FILE          configuration file (default: .toollens.yaml found upward)
  -o, --output-file FILE     write the list to FILE (folders created) instead of stdout
  --color, --no-color        force colour on or off
  -h, --help                 this help

Exit codes: 0 listed, 2 usage error (including paths that hold no gateway configuration).
`;

export const SERVERS_HELP = `Usage: tool-lens servers [PATH...] [options]

Lists every MCP server that the MCP client configs under the paths (default: the current folder)
declare, one row each: the client, the server's name, how the client starts it (the command and
its arguments, or the transport and URL), whether what it fetches is pinned (a package runner
with an exact version, an image with a tag or digest: yes; \`npx -y pkg\`, \`@latest\`, \`uvx pkg\`,
an image without a tag or with :latest: no; a local program or a URL: -), and where it is
declared. Files are found as \`check\` finds them, plus .codex/config.toml. Nothing is started or
expanded; secrets are masked and env and header values are never shown. A server that another
client's file starts differently under the same name is marked \`(differs from CLIENT)\`.

Options:
  -f, --format stylish|json  a table (default) or JSON (docs/behaviour.md, "Listing the servers")
  -c, --config FILE          configuration file (default: .toollens.yaml found upward)
  -o, --output-file FILE     write the list to FILE (folders created) instead of stdout
  --color, --no-color        force colour on or off
  -h, --help                 this help

Exit codes: 0 listed (a file that cannot be read or parsed is named on stderr and listed as
such), 2 usage error.
`;

/** A mistake on the command line itself, as opposed to a path or a configuration problem. */
class CommandLineError extends UsageError {}

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdoutIsTTY: boolean;
  /** The whole of standard input (for --stdin). */
  readStdin?: () => string;
}

// Every option of `check` and `rules`, parsed in one place (`catalog fetch` has its own).
const OPTIONS = {
  format: { type: 'string', short: 'f' },
  'fail-on': { type: 'string' },
  'max-warnings': { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  catalog: { type: 'string', multiple: true },
  config: { type: 'string', short: 'c' },
  fix: { type: 'boolean' },
  cache: { type: 'boolean' },
  'cache-location': { type: 'string' },
  stdin: { type: 'boolean' },
  'stdin-filename': { type: 'string' },
  'output-file': { type: 'string', short: 'o' },
  'rule-docs-url': { type: 'string' },
  debug: { type: 'boolean' },
  color: { type: 'boolean' },
  'no-color': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

interface Values {
  format?: string;
  'fail-on'?: string;
  'max-warnings'?: string;
  quiet?: boolean;
  catalog?: string[];
  config?: string;
  fix?: boolean;
  cache?: boolean;
  'cache-location'?: string;
  stdin?: boolean;
  'stdin-filename'?: string;
  'output-file'?: string;
  'rule-docs-url'?: string;
  debug?: boolean;
  color?: boolean;
  'no-color'?: boolean;
  help?: boolean;
  version?: boolean;
}

/** The options of check that rules refuses. */
const CHECK_ONLY: (keyof Values)[] = [
  'fail-on',
  'max-warnings',
  'quiet',
  'catalog',
  'config',
  'fix',
  'cache',
  'cache-location',
  'stdin',
  'stdin-filename',
];

interface CommandLine {
  values: Values;
  positionals: string[];
  /** `--color` (true) or `--no-color` (false), whichever came last; undefined when neither. */
  color?: boolean;
}

export function run(argv: string[], given: Io): number {
  // Nothing a checked file puts on stderr may read as a CI runner's command (formatters/workflowCommands.ts).
  const io: Io = { ...given, err: (text) => given.err(guardText(text)) };
  // --debug is looked up before parsing so that even a failure to parse shows its stack.
  const debug = argv.includes('--debug');
  try {
    const line = parseCommandLine(argv);
    const { values, positionals } = line;
    const [command, ...rest] = positionals;
    if (values.version && !values.help) {
      io.out(`${TOOL_VERSION}\n`);
      return EXIT_CLEAN;
    }
    if (values.help) return helpCommand(command === undefined ? [] : [command, ...rest], io);
    switch (command) {
      case 'check':
        return checkCommand(line, rest, io);
      case 'rules':
        return rulesCommand(line, rest, io);
      case 'help':
        return helpCommand(rest, io);
      case 'gateway':
        return gatewayCommand(line, rest, io);
      case 'servers':
        return serversCommand(line, rest, io);
      case 'catalog':
        // `catalog fetch` is asynchronous and handled by main(); anything else but diff is a typo.
        if (rest[0] === 'diff') return catalogDiffCommand(line, rest.slice(1), io);
        throw new CommandLineError(
          `unknown catalog command${rest[0] ? ` "${rest[0]}"` : ''}; the catalog commands are \`catalog fetch [SERVER...]\` and \`catalog diff OLD NEW\`${rest[0] ? didYouMean(rest[0], ['fetch', 'diff']) : ''}`,
        );
      case undefined:
        throw new CommandLineError('no command given; use `tool-lens check [PATH...]` or `tool-lens rules`');
      default:
        throw new CommandLineError(
          `unknown command "${command}"; the commands are check, rules, gateway tools, servers, catalog fetch, catalog diff and help${didYouMean(command, COMMANDS)}`,
        );
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`tool-lens: ${error.message}${error instanceof CommandLineError ? ' (see tool-lens --help)' : ''}\n`);
      return EXIT_USAGE;
    }
    if (error instanceof ConfigError) {
      for (const problem of error.problems) io.err(`${problem}\n`);
      return EXIT_USAGE;
    }
    io.err(`tool-lens: internal error: ${firstLine(describe(error))}${debug ? '' : ' (--debug shows the stack)'}\n`);
    if (debug && error instanceof Error && error.stack) io.err(`${error.stack}\n`);
    return EXIT_INTERNAL;
  }
}

/** `tool-lens help [COMMAND]`, and `--help` after any command. */
function helpCommand(topic: string[], io: Io): number {
  const [command, sub] = topic;
  if (command === undefined || command === 'help') io.out(HELP);
  else if (command === 'check') io.out(CHECK_HELP);
  else if (command === 'rules') io.out(RULES_HELP);
  else if (command === 'catalog' && (sub === undefined || sub === 'fetch')) io.out(CATALOG_FETCH_HELP);
  else if (command === 'catalog' && sub === 'diff') io.out(CATALOG_DIFF_HELP);
  else if (command === 'gateway') io.out(GATEWAY_TOOLS_HELP);
  else if (command === 'servers') io.out(SERVERS_HELP);
  else
    throw new CommandLineError(
      `no help for "${topic.join(' ')}"; the commands are check, rules, gateway tools, servers, catalog fetch and catalog diff`,
    );
  return EXIT_CLEAN;
}

function parseCommandLine(argv: string[]): CommandLine {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    throw new CommandLineError(parseArgsMessage(error));
  }
  let color: boolean | undefined;
  for (const token of parsed.tokens) {
    if (token.kind === 'option' && token.name === 'color') color = true;
    if (token.kind === 'option' && token.name === 'no-color') color = false;
  }
  return { values: parsed.values, positionals: parsed.positionals, color };
}

/** node's parseArgs messages are long and suggest `--` tricks; say the same in a few words. */
function parseArgsMessage(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const message = describe(error);
  // An option with a short flag is quoted as `-f, --format <value>`: the long name says it.
  const quoted = /'([^']*)'/
    .exec(message)?.[1]
    ?.replace(/ <value>$/, '')
    .replace(/^-\w, (?=--)/, '');
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && quoted) {
    const name = quoted.split('=', 1)[0]!;
    const longNames = Object.keys(OPTIONS).map((option) => `--${option}`);
    return `unknown option ${quoted}${name.startsWith('--') ? didYouMean(name, longNames) : ''}`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && quoted) {
    return /does not take an argument/.test(message)
      ? `option ${quoted} takes no value`
      : `option ${quoted} needs a value`;
  }
  if (code.startsWith('ERR_PARSE_ARGS')) return firstLine(message);
  throw error;
}

/** The commands `run` knows, for a did-you-mean on a misspelt one. */
const COMMANDS = ['check', 'rules', 'gateway', 'servers', 'catalog', 'help'];

/** `; did you mean X?` when one of `candidates` is close to `word` (core/text/suggest.ts), else nothing. */
function didYouMean(word: string, candidates: string[]): string {
  const guess = closest(word, candidates);
  return guess === undefined || guess === word ? '' : `; did you mean ${guess}?`;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], option: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new CommandLineError(`${option} must be one of ${allowed.join(', ')}; got "${value}"`);
}

/** A whole number of 0 or more, written in decimal digits. */
function count(value: string, option: string): number {
  const n = /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n))
    throw new CommandLineError(`${option} must be a whole number of 0 or more; got "${value}"`);
  return n;
}

function rejectOptions(values: Values, options: (keyof Values)[], command: string): void {
  for (const option of options) {
    if (values[option] !== undefined)
      throw new CommandLineError(`--${option} does not apply to \`tool-lens ${command}\``);
  }
}

function stderrLogger(io: Io, debug: boolean): Logger {
  // Without --debug a failing rule is one line; its stack is for whoever debugs it.
  return (message) => io.err(`tool-lens: ${visibleLines(debug ? message : firstLine(message))}\n`);
}

/** Where the report goes: stdout, or --output-file (outputFile.ts), written once at the end. */
function outputOf(values: Values, io: Io): Output {
  const file = values['output-file'];
  if (file === undefined) return { isTTY: io.stdoutIsTTY, write: io.out };
  if (file === '') throw new CommandLineError('--output-file needs a file name');
  return outputFile(file, io.cwd, io.cwd, (error) => firstLine(describe(error)));
}

function checkCommand(line: CommandLine, paths: string[], io: Io): number {
  const { values } = line;
  const format = oneOf(values.format ?? 'stylish', FORMATS, '--format');
  const failOn = oneOf(values['fail-on'] ?? 'error', FAIL_ON, '--fail-on');
  const maxWarnings =
    values['max-warnings'] === undefined ? undefined : count(values['max-warnings'], '--max-warnings');
  if (values['stdin-filename'] !== undefined && !values.stdin)
    throw new CommandLineError('--stdin-filename needs --stdin');
  if (values.stdin && paths.length > 0)
    throw new CommandLineError(`--stdin checks standard input and takes no PATH; got "${paths[0]}"`);
  if (values['stdin-filename'] === '') throw new CommandLineError('--stdin-filename needs a path');
  const output = outputOf(values, io);
  const debug = values.debug === true;
  const options: CheckOptions = {
    paths,
    cwd: io.cwd,
    configPath: values.config,
    catalogGlobs: values.catalog ?? [],
    log: stderrLogger(io, debug),
    debug: debug
      ? (message) => io.err(`tool-lens: debug: ${message}\n`)
      : () => {
          /* no debug output without --debug */
        },
    // Standard input's text is no file the cache could hash: --stdin checks it afresh.
    cacheFile: values.stdin ? undefined : cacheOption(values, io.cwd),
    fix: values.fix === true,
    ...ruleDocsOption(values),
  };
  if (values.stdin) {
    if (!io.readStdin) throw new UsageError('--stdin: standard input cannot be read here');
    // Without --stdin-filename the text has no name to tell its kind: its content must.
    options.stdin = { path: values['stdin-filename'] ?? STDIN_NAME, text: io.readStdin() };
  }
  const quiet = values.quiet === true;
  const check = (again = false): CheckResult => {
    const result = runCheck({ ...options, again });
    return quiet ? errorsOnly(result) : result;
  };
  let result = check();
  if (values.fix && options.stdin) {
    // The fixed text is the output (an editor replaces the buffer with it); what is left is for
    // a check without --fix to say. The exit code is 0 whatever is left.
    const file = result.files[0];
    const edited = file ? fixedText(file) : undefined;
    output.write(edited?.text ?? options.stdin.text);
    return EXIT_CLEAN;
  }
  let fixRefused = false;
  if (values.fix) {
    const { fixed, refused } = applySafeFixes(result.files, io.cwd, options.log, result.root);
    // A fix refused because it would write outside the workspace fails the run, whatever remains.
    if (refused.length > 0) fixRefused = true;
    for (const file of fixed) {
      const left = file.skipped ? `; ${file.skipped} more overlap these, run --fix again for them` : '';
      io.err(`tool-lens: fixed ${counted(file.applied, 'problem')} in ${visible(file.path)}${left}\n`);
    }
    // Report the files as they are now, so the output and the exit code match what is on disk.
    if (fixed.length > 0) result = check(true);
  }
  if (result.files.length === 0)
    options.log(`no YAML or JSON file to check in ${paths.length ? paths.join(', ') : '.'}`);
  else if (!options.stdin && result.files.every((file) => file.kind === null && file.findings.length === 0))
    options.log(nothingRecognised(result.files.length, paths));
  output.write(render(result, format, io, colourWanted({ isTTY: output.isTTY }, line.color, io.env), failOn));
  const warnings = summarize(result).warning;
  const tooManyWarnings = maxWarnings !== undefined && warnings > maxWarnings;
  if (tooManyWarnings) options.log(`${counted(warnings, 'warning')}, more than --max-warnings ${maxWarnings}`);
  // What could not be read was not checked: the run did not do what was asked (stderr named each).
  if (result.unreadable) return EXIT_USAGE;
  return failing(result, failOn) || tooManyWarnings || fixRefused ? EXIT_FINDINGS : EXIT_CLEAN;
}

/**
 * The note for a run whose paths hold files, none of a kind Tool Lens checks (a pre-commit hook on
 * unrelated YAML, a path mistyped into the wrong folder): said on stderr, the exit code as it was.
 */
function nothingRecognised(files: number, paths: string[]): string {
  const where = paths.length ? paths.join(', ') : '.';
  const which = files === 1 ? `1 file in ${where}, not` : `${files} files in ${where}, none of them`;
  return `nothing checked: ${which} a gateway workflow, tool-face overlay, tool catalog, tool calls or MCP client config (what Tool Lens recognises: docs/behaviour.md#recognising-files)`;
}

/** `--rule-docs-url`, refused unless it is an http or https URL (as `ruleDocsUrl` in the configuration). */
function ruleDocsOption(values: Values): { ruleDocsUrl?: string } {
  const url = values['rule-docs-url'];
  if (url === undefined) return {};
  const why = ruleDocsUrlProblem(url);
  if (why !== undefined) throw new CommandLineError(`--rule-docs-url must be an http or https URL, and ${why}`);
  return { ruleDocsUrl: url };
}

function cacheOption(values: Values, cwd: string): string | undefined {
  if (values['cache-location'] !== undefined && !values.cache)
    throw new CommandLineError('--cache-location goes with --cache');
  return values.cache ? cacheFileOf(values['cache-location'], cwd) : undefined;
}

/** The name of standard input's text when --stdin-filename does not give one. */
const STDIN_NAME = '<stdin>';

/** --quiet: the run as if nothing below error had been found. */
function errorsOnly(result: CheckResult): CheckResult {
  return {
    ...result,
    files: result.files.map((file) => ({
      ...file,
      findings: file.findings.filter((finding) => finding.severity === 'error'),
    })),
  };
}

function render(result: CheckResult, format: Format, io: Io, colour: boolean, failOn: Severity): string {
  // Each format guarded its own way, so that no line of it reads as a CI runner's command.
  switch (format) {
    case 'json':
      return guardJson(formatJson(result));
    case 'sarif':
      return guardJson(formatSarif(result, { rules: ALL_RULES, toolVersion: TOOL_VERSION, cwd: io.cwd }));
    case 'github':
      return guardGithub(formatGithub(result));
    case 'junit':
      return guardXml(formatJunit(result, { failOn }));
    case 'gitlab':
      return guardJson(formatGitlab(result));
    case 'rdjson':
      return guardJson(formatRdjson(result));
    case 'stylish':
      return guardText(formatStylish(result, palette(colour)));
  }
}

function failing(result: CheckResult, failOn: Severity): boolean {
  const threshold = SEVERITY_ORDER[failOn];
  return result.files.some((file) => file.findings.some((finding) => SEVERITY_ORDER[finding.severity] >= threshold));
}

function rulesCommand(line: CommandLine, rest: string[], io: Io): number {
  const { values } = line;
  if (rest.length > 0) throw new CommandLineError(`\`tool-lens rules\` takes no arguments; got "${rest[0]}"`);
  rejectOptions(values, CHECK_ONLY, 'rules');
  const format = oneOf(values.format ?? 'stylish', RULES_FORMATS, '--format');
  const output = outputOf(values, io);
  const colors = palette(colourWanted({ isTTY: output.isTTY }, line.color, io.env));
  output.write(
    format === 'json'
      ? formatRulesJson(ALL_RULES, ruleDocsOption(values).ruleDocsUrl)
      : formatRulesTable(ALL_RULES, colors),
  );
  return EXIT_CLEAN;
}

function catalogDiffCommand(line: CommandLine, rest: string[], io: Io): number {
  const { values } = line;
  if (rest.length !== 2)
    throw new CommandLineError('`tool-lens catalog diff` takes two catalogs, OLD and NEW: files, folders or REV:PATH');
  rejectOptions(
    values,
    [...CHECK_ONLY.filter((option) => option !== 'config' && option !== 'fail-on'), 'rule-docs-url'],
    'catalog diff',
  );
  const format = oneOf(values.format ?? 'stylish', RULES_FORMATS, '--format');
  const gate: DiffGate = {};
  for (const item of values['fail-on']?.split(',') ?? []) {
    const what = oneOf(item.trim(), DIFF_FAIL_ON, '--fail-on of `catalog diff`');
    gate[what] = true;
  }
  const output = outputOf(values, io);
  const report = catalogDiff({
    before: rest[0]!,
    after: rest[1]!,
    cwd: io.cwd,
    configPath: values.config,
    log: stderrLogger(io, values.debug === true),
  });
  const colors = palette(colourWanted({ isTTY: output.isTTY }, line.color, io.env));
  output.write(format === 'json' ? guardJson(formatDiffJson(report)) : guardText(formatDiffTable(report, colors)));
  return diffFails(report, gate) ? EXIT_FINDINGS : EXIT_CLEAN;
}

function gatewayCommand(line: CommandLine, rest: string[], io: Io): number {
  const { values } = line;
  const [sub, ...paths] = rest;
  if (sub !== 'tools') {
    throw new CommandLineError(
      `unknown gateway command${sub ? ` "${sub}"` : ''}; the gateway command is \`gateway tools [PATH...]\`${sub ? didYouMean(sub, ['tools']) : ''}`,
    );
  }
  rejectOptions(
    values,
    [...CHECK_ONLY.filter((option) => option !== 'config' && option !== 'catalog'), 'rule-docs-url'],
    'gateway tools',
  );
  const format = oneOf(values.format ?? 'stylish', RULES_FORMATS, '--format');
  const output = outputOf(values, io);
  const reports = gatewayReports({
    paths,
    cwd: io.cwd,
    configPath: values.config,
    catalogGlobs: values.catalog ?? [],
    log: stderrLogger(io, values.debug === true),
  });
  if (reports.length === 0)
    throw new UsageError(
      `no gateway configuration (vmcp-config or VirtualMCPServer) in ${paths.length ? paths.join(', ') : '.'}`,
    );
  const colors = palette(colourWanted({ isTTY: output.isTTY }, line.color, io.env));
  output.write(
    format === 'json'
      ? guardJson(formatGatewayToolsJson(reports))
      : guardText(formatGatewayToolsTable(reports, colors)),
  );
  return EXIT_CLEAN;
}

function serversCommand(line: CommandLine, paths: string[], io: Io): number {
  const { values } = line;
  rejectOptions(values, [...CHECK_ONLY.filter((option) => option !== 'config'), 'rule-docs-url'], 'servers');
  const format = oneOf(values.format ?? 'stylish', RULES_FORMATS, '--format');
  const output = outputOf(values, io);
  const log = stderrLogger(io, values.debug === true);
  const report = listServers({ paths, cwd: io.cwd, configPath: values.config, log });
  if (report.files.length === 0) log(`no MCP client config in ${paths.length ? paths.join(', ') : '.'}`);
  const colors = palette(colourWanted({ isTTY: output.isTTY }, line.color, io.env));
  output.write(
    format === 'json' ? guardJson(formatServersJson(report)) : guardText(formatServersTable(report, colors)),
  );
  return EXIT_CLEAN;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function firstLine(text: string): string {
  return text.split(/\r?\n/, 1)[0] ?? '';
}

/** The whole command: `catalog fetch` talks to servers (asynchronous); the rest is `run`. */
export async function main(argv: string[], io: Parameters<typeof run>[1]): Promise<number> {
  if (argv[0] === 'catalog' && argv[1] === 'fetch') {
    return runCatalogFetch(argv, {
      cwd: io.cwd,
      stdout: (text) => io.out(guardText(text)),
      stderr: (text) => io.err(guardText(text)),
    });
  }
  return run(argv, io);
}

if (require.main === module) {
  tuneHeapForCli();
  // A reader that stops early (`| head`) is not an error of ours: finish quietly.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? EXIT_CLEAN);
    throw error;
  });
  void main(process.argv.slice(2), {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    stdoutIsTTY: process.stdout.isTTY === true,
    readStdin: () => readFileSync(0, 'utf8'),
  }).then((code) => {
    process.exitCode = code;
  });
}
