// `tool-lens check --cache`: each file's findings kept from one run to the next, keyed by what
// they were computed from, so a run re-checks only the files whose findings could have changed.
//
// What a file's check reads (core/engine.ts, context.ts, workspace.ts): its own text and path, the
// configuration (severities, forced kinds, workloads, limits), the Tool Lens build, and the
// catalog. Everything but the catalog is one key for the whole cache file (a different key: every
// entry is dropped). The catalog is recorded per file, exactly as the check consulted it: each
// look-up of one server (`server`, `tool`, `namespace`, `dynamicHomes`, `serverName`) records
// that server's name, and the file then depends on the catalog file that gives that server now
// (its path, whether a glob names it, its text); any other use of the index (listing every server,
// a value derived from the whole catalog, its size) records the whole index (which files joined it,
// in order, and their texts). So a catalog change re-checks the files that looked up a server it
// gives, took, or shadows, and the files that consulted the whole index; no other file.
//
// The composite tool definitions of the workspace (core/catalog/definitions.ts, what a
// VirtualMCPServer's `compositeToolRefs` reach in other files) are recorded whole: a check that
// consulted them depends on the files whose text may hold one (`mayHoldDefinitions`, the loader's
// own test), their paths and texts, known from every candidate's text without a parse. The servers
// of the workspace's client configs (core/catalog/clientServers.ts, what client/differs-across-clients
// compares a server with) likewise: a check that consulted them depends on the files whose path
// names a client (`mayHoldClientServers`), their paths and texts.
//
// The decision is made without parsing anything when the catalog is as the cache knows it: every
// catalog candidate's text hash is known, with whether it parses as a catalog and the servers it
// describes. Otherwise the catalog is rebuilt (parsing only the files that may be catalogs) and the
// entries are judged against it. The cache file is written atomically (a temporary file renamed),
// a corrupt or foreign one is ignored (said with --debug), and it keeps entries only for files
// that still exist.
//
// The cache file lies in the workspace by default, so a repository can bring one of its own: a
// `.toollens-cache` committed with entries that say a file with errors has none, or that carry a
// "fix" of the author's choosing. Everything the key was built from can be known to that author.
// So the cache is signed: its key and its content are HMACs under a secret that only this user's
// Tool Lens knows, 32 random bytes kept in the user's cache folder (`cacheKeyFile`), outside every
// workspace; a cache signed otherwise is ignored and replaced. And a cached finding's edits are
// never applied as they are: with --fix, a file whose cached findings carry a safe fix is checked
// again, and only the fixes of that check are applied.
import { counted } from '../core/text/words.js';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { version as TOOL_VERSION } from '../../../package.json';
import { mayHoldClientServers, type ClientServerIndex } from '../core/catalog/clientServers.js';
import { mayHoldDefinitions, type DefinitionIndex } from '../core/catalog/definitions.js';
import type { CatalogIndex } from '../core/catalog/index.js';
import type { ParsedFile } from '../core/parse/file.js';
import { SourceText } from '../core/text/source.js';
import { DOCUMENT_KINDS, SEVERITY_ORDER, type DocumentKind, type Finding } from '../core/types.js';
import type { Logger, Workspace } from '../core/workspace.js';
import { loadPlanned, readWithin, type DiskText, type WorkspacePlan } from '../node/loader.js';
import { confinedTarget, OutsideWorkspace } from '../node/confine.js';
import { toPosix } from '../node/paths.js';
import { isInside } from '../node/walk.js';
import { capYoungGeneration } from './heap.js';
import type { CheckedFile, CheckResult } from './result.js';

/** The cache file's name in the current folder, or in the folder --cache-location names. */
export const CACHE_FILE_NAME = '.toollens-cache';
const FORMAT = 'tool-lens-cache';
const FORMAT_VERSION = 2;
/** What a cache file starts with: a file that does not is not ours and is never overwritten. */
const MARKER = `{"format":"${FORMAT}"`;

/** What one file's check consulted of the catalog. */
interface Dependencies {
  /** The whole index's fingerprint, when the check consulted the index as a whole. */
  index?: string;
  /** Server name → the fingerprint of what gave it (or `-`: no file gives it). */
  servers: Record<string, string>;
  /** The fingerprint of the files that may hold composite tool definitions, when the check consulted them. */
  definitions?: string;
  /** The fingerprint of the client config files, when the check consulted their servers. */
  clientServers?: string;
}

interface Entry {
  /** Of the text as read, and of the size of a file declined as too large. */
  hash: string;
  /** A catalog glob names the file (it joins the catalog whatever its content). */
  named: boolean;
  /** The file's kind as parsed (null: none of ours). */
  kind: DocumentKind | null;
  /** The servers the file describes when it joins the catalog, shadowed ones included. */
  described?: string[];
  /** The check of a file to check: its findings and what it consulted. Absent for a file read only as a catalog. */
  checked?: { findings: Finding[]; deps: Dependencies };
}

interface CacheFile {
  format: typeof FORMAT;
  version: typeof FORMAT_VERSION;
  /** The run's key, as an HMAC under the user's secret. */
  key: string;
  /** The HMAC of `[key, files]` under the user's secret: the file is this user's Tool Lens's. */
  mac: string;
  files: Record<string, Entry>;
}

export interface CacheOptions {
  /** The cache file, absolute (`cacheFileOf`). */
  file: string;
  /**
   * The workspace (the folder the command runs in): a cache file inside it is written only where
   * its real path, every link resolved, is inside it too (`node/confine.ts`). One outside it was
   * named with --cache-location, and is the user's choice.
   */
  root?: string;
  log: Logger;
  debug: Logger;
  /** How the workspace's files are checked (the engine, loaded only when a file must be checked). */
  check: (file: ParsedFile, workspace: Workspace) => Finding[];
  /** --fix: a file whose cached findings carry a safe fix is checked again, never fixed from the cache. */
  fix?: boolean;
  /** The file that holds the user's secret (default: `cacheKeyFile()`). */
  keyFile?: string;
}

/**
 * The cache file of a run: `.toollens-cache` in the current folder by default (as ESLint's
 * `.eslintcache`); with --cache-location, that file, or `.toollens-cache` inside it when it names
 * a folder (an existing one, or a path ending in a slash).
 */
export function cacheFileOf(location: string | undefined, cwd: string): string {
  if (location === undefined || location === '') return join(cwd, CACHE_FILE_NAME);
  const absolute = resolve(cwd, location);
  if (/[\\/]$/.test(location)) return join(absolute, CACHE_FILE_NAME);
  try {
    if (statSync(absolute).isDirectory()) return join(absolute, CACHE_FILE_NAME);
  } catch {
    // not there yet: a file of that name
  }
  return absolute;
}

/** What the whole run's findings depend on besides the files and the catalog. */
function runKey(plan: WorkspacePlan, cliCatalogGlobs: readonly string[]): string {
  return hashOf(
    JSON.stringify([
      FORMAT_VERSION,
      TOOL_VERSION,
      buildStamp(),
      plan.cwd,
      plan.configPath ?? null,
      plan.configText ?? null,
      plan.catalogGlobs.map((g) => [g.glob, g.base, g.confined]),
      cliCatalogGlobs,
    ]),
  );
}

/** The running build: its size and time, so a rebuild of the same version is a different key. */
function buildStamp(): string {
  try {
    const stat = statSync(__filename);
    return `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return 'unknown';
  }
}

function hashOf(text: string): string {
  return createHash('sha1').update(text).digest('base64');
}

/** An HMAC under the user's secret, in base64. */
function signed(secret: Buffer, text: string): string {
  return createHmac('sha256', secret).update(text).digest('base64');
}

function sameSignature(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Where the user's cache secret is kept: `tool-lens/cache-key` in the user's cache folder
 * ($XDG_CACHE_HOME, else ~/.cache; ~/Library/Caches on macOS; %LOCALAPPDATA% on Windows).
 */
export function cacheKeyFile(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  const base =
    xdg !== undefined && isAbsolute(xdg)
      ? xdg
      : process.platform === 'win32'
        ? (env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'))
        : process.platform === 'darwin'
          ? join(homedir(), 'Library', 'Caches')
          : join(homedir(), '.cache');
  return join(base, 'tool-lens', 'cache-key');
}

/**
 * The user's secret: read from `keyFile`, or made there (a new file, never through an existing
 * one, readable by the user alone). One that cannot be kept, or that lies inside the workspace
 * (where a repository could bring it), is replaced by one for this run only: nothing cached is
 * then trusted, and the run says why.
 */
function cacheSecret(keyFile: string, workspaces: readonly string[], log: Logger): Buffer {
  const once = (why: string): Buffer => {
    log(`cache: ${why}; every file is checked, and the cache written is of no use to the next run`);
    return randomBytes(32);
  };
  if (workspaces.some((root) => isInside(resolve(root), resolve(keyFile))))
    return once(`the cache key ${keyFile} lies inside the workspace, where a repository could bring its own`);
  const parse = (text: string): Buffer | undefined =>
    /^[0-9a-f]{64}\n?$/.test(text) ? Buffer.from(text.trim(), 'hex') : undefined;
  try {
    const existing = parse(readFileSync(keyFile, 'utf8'));
    if (existing) return existing;
    return once(`the cache key ${keyFile} is not one Tool Lens wrote (remove it to have a new one made)`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      return once(`cannot read the cache key ${keyFile}: ${(error as Error).message}`);
  }
  const secret = randomBytes(32);
  try {
    mkdirSync(dirname(keyFile), { recursive: true, mode: 0o700 });
    writeFileSync(keyFile, `${secret.toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
    return secret;
  } catch (error) {
    // Another run made it first: use that one.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      try {
        const theirs = parse(readFileSync(keyFile, 'utf8'));
        if (theirs) return theirs;
      } catch {
        // said below
      }
    }
    return once(`cannot keep a cache key in ${keyFile}: ${(error as Error).message}`);
  }
}

function textHash(read: DiskText): string {
  return hashOf(read.bytes === undefined ? read.text : `${read.text}\0${read.bytes}`);
}

// ------------------------------------------------------------------------------------------------
// The catalog as the cache sees it

interface Join {
  path: string;
  named: boolean;
  hash: string;
  described: readonly string[];
}

/** The fingerprints of a catalog: of the whole index, and of what gives each server. */
interface CatalogState {
  index: string;
  owner: Map<string, string>;
  /** Of the files that may hold composite tool definitions (`definitionFiles`). */
  definitions: string;
  /** Of the client config files (`clientFiles`). */
  clientServers: string;
}

function catalogState(joins: readonly Join[], definitions: string, clientServers: string): CatalogState {
  const owner = new Map<string, string>();
  for (const join of joins) {
    const fingerprint = hashOf(JSON.stringify([join.path, join.named, join.hash]));
    for (const name of join.described) if (!owner.has(name)) owner.set(name, fingerprint);
  }
  return {
    index: hashOf(JSON.stringify(joins.map((j) => [j.path, j.named, j.hash]))),
    owner,
    definitions,
    clientServers,
  };
}

/** The fingerprint of the candidates whose text may hold a composite tool definition (what node/loader.ts indexes). */
function definitionFiles(candidates: readonly Candidate[]): string {
  const held = candidates
    .filter((c) => c.read !== undefined && c.read.bytes === undefined && mayHoldDefinitions(c.read.text))
    .map((c) => JSON.stringify([c.path, c.hash ?? '']))
    .sort();
  return hashOf(JSON.stringify(held));
}

/** The fingerprint of the candidates whose path names an MCP client (what node/loader.ts indexes their servers from). */
function clientFiles(candidates: readonly Candidate[]): string {
  const held = candidates
    .filter((c) => mayHoldClientServers(c.path))
    .map((c) => JSON.stringify([c.path, c.hash ?? '']))
    .sort();
  return hashOf(JSON.stringify(held));
}

function fingerprintOf(state: CatalogState, server: string): string {
  return state.owner.get(server) ?? '-';
}

function satisfied(deps: Dependencies, state: CatalogState): boolean {
  if (deps.index !== undefined && deps.index !== state.index) return false;
  if (deps.definitions !== undefined && deps.definitions !== state.definitions) return false;
  if (deps.clientServers !== undefined && deps.clientServers !== state.clientServers) return false;
  return Object.entries(deps.servers).every(([name, fingerprint]) => fingerprintOf(state, name) === fingerprint);
}

/** The catalog's joins from cached entries alone (what node/discovery.ts's joinCatalog would do), or undefined when one is unknown. */
function knownJoins(candidates: readonly Candidate[]): Join[] | undefined {
  const joins: Join[] = [];
  const joined = new Set<string>();
  const byPath = (a: Candidate, b: Candidate) => (a.absolute < b.absolute ? -1 : a.absolute > b.absolute ? 1 : 0);
  const ordered = [
    ...candidates.filter((c) => c.named).sort(byPath),
    ...candidates.filter((c) => !c.named).sort(byPath),
  ];
  for (const candidate of ordered) {
    const entry = candidate.known;
    if (!entry) return undefined;
    const joins_ = candidate.named || (entry.kind === 'tool-catalog' && !joined.has(candidate.path));
    if (!joins_) continue;
    if (!entry.described) return undefined;
    joined.add(candidate.path);
    joins.push({ path: candidate.path, named: candidate.named, hash: entry.hash, described: entry.described });
  }
  return joins;
}

/** A catalog that records what one check consults of it (see the top of this file). */
function recordingCatalog(catalog: CatalogIndex): {
  catalog: CatalogIndex;
  servers: Set<string>;
  whole: () => boolean;
} {
  const servers = new Set<string>();
  let whole = false;
  const perServer = new Set(['server', 'serverName', 'tool', 'namespace', 'dynamicHomes']);
  const proxy = new Proxy(catalog, {
    get(target, property) {
      if (typeof property === 'string' && perServer.has(property)) {
        const method = Reflect.get(target, property) as (workload: string, ...rest: unknown[]) => unknown;
        return (workload: string, ...rest: unknown[]) => {
          servers.add(target.serverName(workload));
          return method.call(target, workload, ...rest);
        };
      }
      whole = true;
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { catalog: proxy, servers, whole: () => whole };
}

/** Composite tool definitions that record whether one check consulted them at all. */
function recordingDefinitions(definitions: DefinitionIndex): { definitions: DefinitionIndex; used: () => boolean } {
  let used = false;
  const proxy = new Proxy(definitions, {
    get(target, property) {
      used = true;
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { definitions: proxy, used: () => used };
}

/** Client config servers that record whether one check consulted them at all. */
function recordingClientServers(index: ClientServerIndex): { clientServers: ClientServerIndex; used: () => boolean } {
  let used = false;
  const proxy = new Proxy(index, {
    get(target, property) {
      used = true;
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { clientServers: proxy, used: () => used };
}

// ------------------------------------------------------------------------------------------------
// The run

interface Candidate {
  absolute: string;
  /** Relative to the current folder, posix: the catalog's and the output's path. */
  path: string;
  named: boolean;
  read?: DiskText;
  hash?: string;
  /** The cached entry when it is for this text and this naming. */
  known?: Entry;
}

export function checkWithCache(
  whole: WorkspacePlan,
  cliCatalogGlobs: readonly string[],
  options: CacheOptions,
): CheckResult {
  // The cache file itself is no document, whatever its name (--cache-location x.json inside the folder).
  const plan: WorkspacePlan = {
    ...whole,
    targets: whole.targets.filter((absolute) => absolute !== options.file),
    candidates: whole.candidates.filter((c) => c.absolute !== options.file),
    catalogOnly: whole.catalogOnly.filter((absolute) => absolute !== options.file),
  };
  const secret = cacheSecret(options.keyFile ?? cacheKeyFile(), [plan.root, plan.cwd], options.log);
  const key = signed(secret, runKey(plan, cliCatalogGlobs));
  const previous = readCache(options.file, key, secret, options.debug);
  const fileBytes = plan.workspace.limits.fileBytes;

  const files = new Map<string, Candidate>();
  const fileOf = (absolute: string, named: boolean): Candidate => {
    let candidate = files.get(absolute);
    if (!candidate) {
      candidate = { absolute, path: toPosix(relative(plan.cwd, absolute)), named };
      try {
        candidate.read = readWithin(absolute, fileBytes);
        candidate.hash = textHash(candidate.read);
      } catch {
        // the load says so when it reads the file
      }
      const entry = previous.files.get(absolute);
      if (entry && candidate.hash !== undefined && entry.hash === candidate.hash && entry.named === named)
        candidate.known = entry;
      files.set(absolute, candidate);
    }
    return candidate;
  };
  const candidates = plan.candidates.map((c) => fileOf(c.absolute, c.named));
  const namedSet = new Set(plan.catalogOnly);
  const targets = plan.targets.map((absolute) => fileOf(absolute, namedSet.has(absolute)));

  const hit = (target: Candidate, state: CatalogState) =>
    target.known?.checked !== undefined &&
    satisfied(target.known.checked.deps, state) &&
    !(options.fix === true && hasSafeFix(target.known.checked.findings));
  const entries = new Map<string, Entry>();
  const definitions = definitionFiles(candidates);
  const clients = clientFiles(candidates);
  const known = knownJoins(candidates);
  const knownState = known && catalogState(known, definitions, clients);
  let result: CheckedFile[];
  let checked = 0;
  if (knownState && targets.every((target) => hit(target, knownState))) {
    result = targets.map((target) => fromCache(target));
    for (const candidate of files.values()) if (candidate.known) entries.set(candidate.absolute, candidate.known);
  } else {
    const loaded = loadPlanned(plan, {
      read: (absolute) => {
        const read = files.get(absolute)?.read;
        return read ?? readWithin(absolute, fileBytes);
      },
      wanted: () => false,
      // A file the cache knows not to be a catalog is not parsed for the catalog.
      mayBeCatalog: (absolute) => {
        const entry = files.get(absolute)?.known;
        return entry === undefined || entry.kind === 'tool-catalog';
      },
    });
    capYoungGeneration();
    const { workspace } = loaded;
    const catalog = workspace.catalog;
    const byPath = new Map([...files.values()].map((c) => [c.path, c]));
    const joins: Join[] = catalog.files.map((path) => {
      const candidate = byPath.get(path);
      return {
        path,
        named: candidate?.named ?? false,
        hash: candidate?.hash ?? '',
        described: catalog.describedBy(path) ?? [],
      };
    });
    const state = catalogState(joins, definitions, clients);
    result = [];
    for (const target of targets) {
      if (hit(target, state)) {
        result.push(fromCache(target));
        continue;
      }
      options.debug(
        `cache: checking ${target.path}: ${whyChecked(target, previous.files.get(target.absolute), options.fix === true)}`,
      );
      // Not kept once checked: only what it reports stays (a catalog is kept by the load anyway).
      const file = loaded.parseOnce(target.absolute);
      if (!file) continue;
      const recording = recordingCatalog(catalog);
      const definitionsRead = recordingDefinitions(workspace.definitions);
      const clientServersRead = recordingClientServers(workspace.clientServers);
      let logged = false;
      // The workspace as it is, but for the catalog that records and the log that notices.
      const view = Object.create(workspace, {
        catalog: { value: recording.catalog },
        definitions: { value: definitionsRead.definitions },
        clientServers: { value: clientServersRead.clientServers },
        log: { value: (message: string) => ((logged = true), workspace.log(message)) },
      }) as Workspace;
      const findings = options.check(file, view);
      capYoungGeneration();
      checked++;
      result.push({ path: file.path, kind: file.kind, source: file.source, findings });
      // A check that logged (a rule failed) is not kept: the next run says so again.
      if (logged || target.hash === undefined) continue;
      const servers: Record<string, string> = {};
      for (const name of [...recording.servers].sort()) servers[name] = fingerprintOf(state, name);
      const deps: Dependencies = recording.whole() ? { index: state.index, servers } : { servers };
      if (definitionsRead.used()) deps.definitions = state.definitions;
      if (clientServersRead.used()) deps.clientServers = state.clientServers;
      entries.set(target.absolute, {
        hash: target.hash,
        named: target.named,
        kind: file.kind,
        ...(catalog.hasFile(file.path) ? { described: [...(catalog.describedBy(file.path) ?? [])] } : {}),
        checked: { findings, deps },
      });
    }
    // What every other candidate is, for the next run's decision without a parse.
    for (const candidate of files.values()) {
      if (entries.has(candidate.absolute) || candidate.hash === undefined) continue;
      const cached = candidate.known;
      if (cached && (!catalog.hasFile(candidate.path) || cached.described)) {
        entries.set(candidate.absolute, cached);
        continue;
      }
      const file = loaded.parse(candidate.absolute);
      if (!file) continue;
      const described = catalog.describedBy(file.path);
      entries.set(candidate.absolute, {
        hash: candidate.hash,
        named: candidate.named,
        kind: file.kind,
        ...(described ? { described: [...described] } : {}),
        // A cached check stays with its text: a file now only a catalog may be checked again later.
        ...(cached?.checked ? { checked: cached.checked } : {}),
      });
    }
  }
  options.debug(
    `cache: ${targets.length - checked} of ${targets.length} file(s) from ${options.file}, ${checked} checked`,
  );
  writeCache(options, key, secret, previous, entries);
  return { files: result };

  function fromCache(target: Candidate): CheckedFile {
    const entry = target.known as Entry;
    return {
      path: target.path,
      kind: entry.kind,
      source: new SourceText(target.read?.text ?? ''),
      findings: entry.checked?.findings ?? [],
    };
  }
}

function hasSafeFix(findings: readonly Finding[]): boolean {
  return findings.some((finding) => finding.fixes?.some((fix) => fix.safe) === true);
}

/** Why a file is checked rather than taken from the cache (said with --debug). */
function whyChecked(target: Candidate, entry: Entry | undefined, fix: boolean): string {
  if (!entry?.checked) return 'not in the cache';
  if (entry.hash !== target.hash) return 'its text changed';
  if (entry.named !== target.named) return 'a catalog glob names it now, or no longer';
  if (fix && hasSafeFix(entry.checked.findings))
    return 'it has a safe fix, and --fix applies only fixes it has just found';
  return 'what it consulted of the catalog, the composite tool definitions or the client configs changed';
}

// ------------------------------------------------------------------------------------------------
// The cache file

interface Previous {
  files: Map<string, Entry>;
  /** The file exists and is not ours: it is never overwritten. */
  foreign: boolean;
  /** Read with this run's key and no damaged entry: unless this run changed an entry, the file is not written again. */
  intact: boolean;
}

function readCache(file: string, key: string, secret: Buffer, debug: Logger): Previous {
  const empty = (foreign: boolean): Previous => ({ files: new Map(), foreign, intact: false });
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return empty(false);
  }
  if (!text.startsWith(MARKER)) {
    if (text.length === 0) return empty(false);
    debug(`cache: ${file} is not a Tool Lens cache; it is ignored and left as it is`);
    return empty(true);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    debug(`cache: ${file} is damaged (not JSON); it is ignored and replaced`);
    return empty(false);
  }
  if (
    !isRecord(parsed) ||
    parsed.format !== FORMAT ||
    parsed.version !== FORMAT_VERSION ||
    typeof parsed.key !== 'string' ||
    !isRecord(parsed.files)
  ) {
    debug(`cache: ${file} is of another format or version; it is ignored and replaced`);
    return empty(false);
  }
  if (!sameSignature(parsed.key, key)) {
    debug(
      `cache: ${file} was written for another key (the Tool Lens build, the configuration, the current folder or the catalog options changed, or another user's or machine's Tool Lens wrote it); every file is checked again`,
    );
    return empty(false);
  }
  if (
    typeof parsed.mac !== 'string' ||
    !sameSignature(parsed.mac, signed(secret, JSON.stringify([parsed.key, parsed.files])))
  ) {
    debug(`cache: ${file} is not signed by this user's Tool Lens; it is ignored and replaced`);
    return empty(false);
  }
  const files = new Map<string, Entry>();
  let damaged = 0;
  for (const [path, entry] of Object.entries(parsed.files)) {
    if (isEntry(entry)) files.set(path, entry);
    else damaged++;
  }
  if (damaged > 0) debug(`cache: ${counted(damaged, 'damaged entry', 'damaged entries')} of ${file} ignored`);
  return { files, foreign: false, intact: damaged === 0 };
}

function writeCache(
  options: CacheOptions,
  key: string,
  secret: Buffer,
  previous: Previous,
  entries: Map<string, Entry>,
): void {
  if (previous.foreign) {
    options.log(`cache: not written: ${options.file} exists and is not a Tool Lens cache`);
    return;
  }
  // Entries of files this run did not read are kept while the file exists (a run over a few files
  // keeps the others'), and dropped once it is gone: the cache never outgrows the workspace.
  let changed = !previous.intact;
  for (const [path, entry] of previous.files) {
    if (entries.has(path)) {
      if (entries.get(path) !== entry) changed = true;
      continue;
    }
    if (existsSync(path)) entries.set(path, entry);
    else changed = true;
  }
  if (!changed && entries.size === previous.files.size) return;
  const files = Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const content: CacheFile = {
    format: FORMAT,
    version: FORMAT_VERSION,
    key,
    mac: signed(secret, JSON.stringify([key, files])),
    files,
  };
  let target = options.file;
  if (options.root !== undefined && isInside(resolve(options.root), resolve(options.file))) {
    try {
      target = confinedTarget(options.root, options.file);
    } catch (error) {
      if (!(error instanceof OutsideWorkspace)) throw error;
      options.log(`cache: not written: ${error.message}`);
      return;
    }
  }
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(target), { recursive: true });
    // A new file (`wx`: never an existing one, nor a link), renamed over the entry.
    writeFileSync(temporary, JSON.stringify(content), { flag: 'wx' });
    renameSync(temporary, target);
  } catch (error) {
    options.log(`cache: cannot write ${options.file}: ${error instanceof Error ? error.message : String(error)}`);
    try {
      unlinkSync(temporary);
    } catch {
      // nothing was written
    }
  }
}

// ------------------------------------------------------------------------------------------------
// Reading entries back: a damaged entry is dropped, never given to a formatter.

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSpan(value: unknown): boolean {
  return (
    isRecord(value) &&
    Number.isInteger(value.start) &&
    Number.isInteger(value.end) &&
    (value.start as number) >= 0 &&
    (value.end as number) >= (value.start as number)
  );
}

function isFinding(value: unknown): value is Finding {
  if (
    !isRecord(value) ||
    typeof value.rule !== 'string' ||
    typeof value.messageId !== 'string' ||
    typeof value.message !== 'string' ||
    (value.why !== undefined && typeof value.why !== 'string') ||
    !isSpan(value.span)
  )
    return false;
  if (typeof value.severity !== 'string' || !Object.hasOwn(SEVERITY_ORDER, value.severity)) return false;
  if (value.fixes !== undefined) {
    if (!Array.isArray(value.fixes)) return false;
    for (const fix of value.fixes) {
      if (!isRecord(fix) || typeof fix.title !== 'string' || typeof fix.safe !== 'boolean' || !Array.isArray(fix.edits))
        return false;
      if (!fix.edits.every((edit) => isRecord(edit) && isSpan(edit.span) && typeof edit.newText === 'string'))
        return false;
    }
  }
  if (value.related !== undefined) {
    if (!Array.isArray(value.related)) return false;
    if (
      !value.related.every(
        (r) =>
          isRecord(r) &&
          isSpan(r.span) &&
          typeof r.message === 'string' &&
          (r.file === undefined || typeof r.file === 'string'),
      )
    )
      return false;
  }
  return true;
}

function isEntry(value: unknown): value is Entry {
  if (!isRecord(value) || typeof value.hash !== 'string' || typeof value.named !== 'boolean') return false;
  if (value.kind !== null && !(DOCUMENT_KINDS as readonly unknown[]).includes(value.kind)) return false;
  if (
    value.described !== undefined &&
    !(Array.isArray(value.described) && value.described.every((n) => typeof n === 'string'))
  )
    return false;
  if (value.checked === undefined) return true;
  const checked = value.checked;
  if (!isRecord(checked) || !Array.isArray(checked.findings) || !checked.findings.every(isFinding)) return false;
  const deps = checked.deps;
  if (
    !isRecord(deps) ||
    (deps.index !== undefined && typeof deps.index !== 'string') ||
    (deps.definitions !== undefined && typeof deps.definitions !== 'string') ||
    (deps.clientServers !== undefined && typeof deps.clientServers !== 'string') ||
    !isRecord(deps.servers)
  )
    return false;
  return Object.values(deps.servers).every((f) => typeof f === 'string');
}
