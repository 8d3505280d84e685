// The `tool-lens` command. Parses the command line, runs `check` or `rules`, prints the chosen
// format on stdout and everything about the run itself on stderr. Exit codes (a public interface):
// 0 clean, 1 findings at or above --fail-on, 2 usage error, 3 internal error.
import { parseArgs } from 'node:util';
import { version as TOOL_VERSION } from '../../../package.json';
import { ALL_RULES } from '../core/rules/registry.js';
import { SEVERITY_ORDER, type Severity } from '../core/types.js';
import type { Logger } from '../core/workspace.js';
import { UsageError } from '../node/loader.js';
import { cacheFileOf } from './cache.js';
import { ConfigError, runCheck, type CheckOptions } from './check.js';
import { colourWanted, palette } from './colors.js';
import { catalogDiff, diffFails, formatDiffJson, formatDiffTable } from './catalogDiff.js';
import { runCatalogFetch } from './catalogFetch.js';
import { formatGatewayToolsJson, formatGatewayToolsTable, gatewayReports } from './gatewayTools.js';
import { applySafeFixes } from './fix.js';
import { formatGithub } from './formatters/github.js';
import { formatJson } from './formatters/json.js';
import { formatSarif } from './formatters/sarif.js';
import { formatStylish } from './formatters/stylish.js';
import type { CheckResult } from './result.js';
import { formatRulesJson, formatRulesTable } from './rules.js';

export const EXIT_CLEAN = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERNAL = 3;

const FORMATS = ['stylish', 'json', 'sarif', 'github'] as const;
const RULES_FORMATS = ['stylish', 'json'] as const;
const FAIL_ON = ['error', 'warning', 'info'] as const;

export const HELP = `Tool Lens ${TOOL_VERSION}: checks MCP gateway workflows, tool-face overlays, tool catalogs
and tool calls.

Usage:
  tool-lens check [PATH...] [options]   check files and folders (default: the current folder)
  tool-lens rules [--format json]       list every rule id with its default severity
  tool-lens catalog diff OLD NEW        what changed between two catalogs (files, folders or
                                        REV:PATH) and what it does to the gateways; exit 1 when
                                        a hint loosens or a composite tool breaks
  tool-lens gateway tools [PATH...]     the tools each gateway configuration will advertise,
                                        and what it withholds and why (--format json)
  tool-lens catalog fetch [SERVER...]   fetch tool catalogs from the MCP servers the workspace
                                        lists and save them as snapshots (--help for more)
  tool-lens --help | --version

Options of check:
  --format stylish|json|sarif|github    output format (default: stylish)
  --fail-on error|warning|info          lowest severity that makes the exit code 1
                                        (default: error)
  --catalog GLOB                        add catalog snapshot files; repeatable
  --config FILE                         configuration file (default: .toollens.yaml in the
                                        first PATH's folder or the nearest one above it)
  --fix                                 apply every safe fix in place, then report what is left
  --cache                               keep each file's findings and check again only the files
                                        whose findings may have changed (.toollens-cache)
  --cache-location PATH                 the cache file, or the folder that holds it
  --no-color                            plain output (also when NO_COLOR is set or stdout is
                                        not a terminal)
  --debug                               details of the run on stderr, and the stack of an
                                        internal error (add NODE_OPTIONS=--enable-source-maps
                                        for TypeScript locations)

Every tool-catalog file found under a checked folder joins the catalog.
Positions are 1-based lines and columns. A column counts UTF-16 code units, so a character
outside the Basic Multilingual Plane (most emoji) takes two columns.

Exit codes:
  0  nothing at or above --fail-on
  1  findings at or above --fail-on
  2  usage error: unknown option, bad value, missing path, invalid configuration
  3  internal error
`;

/** A mistake on the command line itself, as opposed to a path or a configuration problem. */
class CommandLineError extends UsageError {}

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdoutIsTTY: boolean;
}

const OPTIONS = {
  format: { type: 'string' },
  'fail-on': { type: 'string' },
  catalog: { type: 'string', multiple: true },
  config: { type: 'string' },
  fix: { type: 'boolean' },
  cache: { type: 'boolean' },
  'cache-location': { type: 'string' },
  debug: { type: 'boolean' },
  'no-color': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

interface Values {
  format?: string;
  'fail-on'?: string;
  catalog?: string[];
  config?: string;
  fix?: boolean;
  cache?: boolean;
  'cache-location'?: string;
  debug?: boolean;
  'no-color'?: boolean;
  help?: boolean;
  version?: boolean;
}

export function run(argv: string[], io: Io): number {
  // --debug is looked up before parsing so that even a failure to parse shows its stack.
  const debug = argv.includes('--debug');
  try {
    const { values, positionals } = parseCommandLine(argv);
    if (values.help) {
      io.out(HELP);
      return EXIT_CLEAN;
    }
    if (values.version) {
      io.out(`${TOOL_VERSION}\n`);
      return EXIT_CLEAN;
    }
    const [command, ...rest] = positionals;
    switch (command) {
      case 'check':
        return checkCommand(values, rest, io);
      case 'rules':
        return rulesCommand(values, rest, io);
      case 'gateway':
        return gatewayCommand(values, rest, io);
      case 'catalog':
        // `catalog fetch` is asynchronous and handled by main(); anything else but diff is a typo.
        if (rest[0] === 'diff') return catalogDiffCommand(values, rest.slice(1), io);
        throw new CommandLineError(`unknown catalog command${rest[0] ? ` "${rest[0]}"` : ''}; the catalog commands are \`catalog fetch [SERVER...]\` and \`catalog diff OLD NEW\``);
      case undefined:
        throw new CommandLineError('no command given; use `tool-lens check [PATH...]` or `tool-lens rules`');
      default:
        throw new CommandLineError(`unknown command "${command}"; the commands are check, rules, gateway and catalog`);
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

function parseCommandLine(argv: string[]): { values: Values; positionals: string[] } {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CommandLineError(parseArgsMessage(error));
  }
}

/** node's parseArgs messages are long and suggest `--` tricks; say the same in a few words. */
function parseArgsMessage(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const message = describe(error);
  const quoted = /'([^']*)'/.exec(message)?.[1]?.replace(/ <value>$/, '');
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && quoted) return `unknown option ${quoted}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && quoted) {
    return /does not take an argument/.test(message) ? `option ${quoted} takes no value` : `option ${quoted} needs a value`;
  }
  if (code.startsWith('ERR_PARSE_ARGS')) return firstLine(message);
  throw error;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], option: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new CommandLineError(`${option} must be one of ${allowed.join(', ')}; got "${value}"`);
}

function rejectOptions(values: Values, options: (keyof Values)[], command: string): void {
  for (const option of options) {
    if (values[option] !== undefined) throw new CommandLineError(`--${option} does not apply to \`tool-lens ${command}\``);
  }
}

function stderrLogger(io: Io, debug: boolean): Logger {
  // Without --debug a failing rule is one line; its stack is for whoever debugs it.
  return (message) => io.err(`tool-lens: ${debug ? message : firstLine(message)}\n`);
}

function checkCommand(values: Values, paths: string[], io: Io): number {
  const format = oneOf(values.format ?? 'stylish', FORMATS, '--format');
  const failOn = oneOf(values['fail-on'] ?? 'error', FAIL_ON, '--fail-on');
  const debug = values.debug === true;
  const options: CheckOptions = {
    paths,
    cwd: io.cwd,
    configPath: values.config,
    catalogGlobs: values.catalog ?? [],
    log: stderrLogger(io, debug),
    debug: debug ? (message) => io.err(`tool-lens: debug: ${message}\n`) : () => { /* no debug output without --debug */ },
    cacheFile: cacheOption(values, io.cwd),
  };
  let result = runCheck(options);
  let fixRefused = false;
  if (values.fix) {
    const { fixed, refused } = applySafeFixes(result.files, io.cwd, options.log);
    // A fix refused because it would write outside the workspace fails the run, whatever remains.
    if (refused.length > 0) fixRefused = true;
    for (const file of fixed) {
      const left = file.skipped ? `; ${file.skipped} more overlap these, run --fix again for them` : '';
      io.err(`tool-lens: fixed ${file.applied} problem${file.applied === 1 ? '' : 's'} in ${file.path}${left}\n`);
    }
    // Report the files as they are now, so the output and the exit code match what is on disk.
    if (fixed.length > 0) result = runCheck({ ...options, again: true });
  }
  if (result.files.length === 0) options.log(`no YAML or JSON file to check in ${paths.length ? paths.join(', ') : '.'}`);
  io.out(render(result, format, io, values));
  return failing(result, failOn) || fixRefused ? EXIT_FINDINGS : EXIT_CLEAN;
}

function cacheOption(values: Values, cwd: string): string | undefined {
  if (values['cache-location'] !== undefined && !values.cache) throw new CommandLineError('--cache-location goes with --cache');
  return values.cache ? cacheFileOf(values['cache-location'], cwd) : undefined;
}

function render(result: CheckResult, format: (typeof FORMATS)[number], io: Io, values: Values): string {
  switch (format) {
    case 'json':
      return formatJson(result);
    case 'sarif':
      return formatSarif(result, { rules: ALL_RULES, toolVersion: TOOL_VERSION, cwd: io.cwd });
    case 'github':
      return formatGithub(result);
    case 'stylish':
      return formatStylish(result, palette(colourWanted({ isTTY: io.stdoutIsTTY }, values['no-color'] === true, io.env)));
  }
}

function failing(result: CheckResult, failOn: Severity): boolean {
  const threshold = SEVERITY_ORDER[failOn];
  return result.files.some((file) => file.findings.some((finding) => SEVERITY_ORDER[finding.severity] >= threshold));
}

function rulesCommand(values: Values, rest: string[], io: Io): number {
  if (rest.length > 0) throw new CommandLineError(`\`tool-lens rules\` takes no arguments; got "${rest[0]}"`);
  rejectOptions(values, ['fail-on', 'catalog', 'config', 'fix', 'cache', 'cache-location'], 'rules');
  const format = oneOf(values.format ?? 'stylish', RULES_FORMATS, '--format');
  const colors = palette(colourWanted({ isTTY: io.stdoutIsTTY }, values['no-color'] === true, io.env));
  io.out(format === 'json' ? formatRulesJson(ALL_RULES) : formatRulesTable(ALL_RULES, colors));
  return EXIT_CLEAN;
}

function catalogDiffCommand(values: Values, rest: string[], io: Io): number {
  if (rest.length !== 2) throw new CommandLineError('`tool-lens catalog diff` takes two catalogs, OLD and NEW: files, folders or REV:PATH');
  rejectOptions(values, ['fail-on', 'fix', 'catalog'], 'catalog diff');
  const format = oneOf(values.format ?? 'stylish', RULES_FORMATS, '--format');
  const report = catalogDiff({ before: rest[0]!, after: rest[1]!, cwd: io.cwd, configPath: values.config, log: stderrLogger(io, values.debug === true) });
  const colors = palette(colourWanted({ isTTY: io.stdoutIsTTY }, values['no-color'] === true, io.env));
  io.out(format === 'json' ? formatDiffJson(report) : formatDiffTable(report, colors));
  return diffFails(report) ? EXIT_FINDINGS : EXIT_CLEAN;
}

function gatewayCommand(values: Values, rest: string[], io: Io): number {
  const [sub, ...paths] = rest;
  if (sub !== 'tools') {
    throw new CommandLineError(`unknown gateway command${sub ? ` "${sub}"` : ''}; the gateway command is \`gateway tools [PATH...]\``);
  }
  rejectOptions(values, ['fail-on', 'fix'], 'gateway tools');
  const format = oneOf(values.format ?? 'stylish', RULES_FORMATS, '--format');
  const debug = values.debug === true;
  const reports = gatewayReports({ paths, cwd: io.cwd, configPath: values.config, catalogGlobs: values.catalog ?? [], log: stderrLogger(io, debug) });
  if (reports.length === 0) throw new UsageError(`no gateway configuration (vmcp-config or VirtualMCPServer) in ${paths.length ? paths.join(', ') : '.'}`);
  const colors = palette(colourWanted({ isTTY: io.stdoutIsTTY }, values['no-color'] === true, io.env));
  io.out(format === 'json' ? formatGatewayToolsJson(reports) : formatGatewayToolsTable(reports, colors));
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
    return runCatalogFetch(argv, { cwd: io.cwd, stdout: io.out, stderr: io.err });
  }
  return run(argv, io);
}

if (require.main === module) {
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
  }).then((code) => {
    process.exitCode = code;
  });
}
