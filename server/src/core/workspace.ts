// What every check of a document may consult beyond the document itself: the catalog and the
// project configuration. The CLI builds one per run; the language server keeps one and updates it.
import { catalogRevision, CatalogIndex } from './catalog/index.js';
import { DEFAULT_CONFIG, forcedKind, type LensConfig } from './config/config.js';
import type { Limits, ParseLimits } from './limits.js';
import { ClientServerIndex, clientServerRevision } from './catalog/clientServers.js';
import { DefinitionIndex, definitionRevision } from './catalog/definitions.js';
import { parseFile, parseTooLarge, type ParsedFile } from './parse/file.js';
import { reparseFile, type ReparseOptions } from './parse/incremental.js';
import type { DocumentKind } from './types.js';

export type Logger = (message: string) => void;

/**
 * The last `revision` of each workspace and what it stood for: beside the workspace, not in it, as
 * the CLI's cache knows every field a check may read (cli/cache.ts).
 */
const revisions = new WeakMap<
  Workspace,
  {
    catalog: object;
    definitions: object;
    clientServers: object;
    config: LensConfig;
    baseline: CatalogBaseline | undefined;
    token: object;
  }
>();

/**
 * The catalog a language-server session started from (lsp/session.ts keeps it), against which
 * `aggregation/advertised-rename` tells which advertised names a later catalog change renames.
 * The CLI has none (`tool-lens catalog diff` compares two catalogs there), so the rule is silent.
 */
export interface CatalogBaseline {
  /** A workspace like the current one (root, configuration) whose catalog is the baseline; made when first asked for. */
  workspace(): Workspace;
  /**
   * What the baseline's advertised names can depend on (`advertisableNames`, listing/renames.ts),
   * known without parsing the baseline when it was taken from the catalog as it then was.
   */
  names(): string;
  /** The workspace's files, for the steps and calls that still name an old name. */
  files(): Iterable<ParsedFile>;
}

/** A catalog file as the baseline holds it: its path, its text then, and whether a catalog glob named it. */
export interface BaselineFile {
  path: string;
  text: string;
  named?: boolean;
}

export class Workspace {
  readonly catalog = new CatalogIndex();
  /**
   * The VirtualMCPCompositeToolDefinitions of the workspace's files, for the references of a
   * VirtualMCPServer in another file (rules/workflow/duplicate-name.ts).
   */
  readonly definitions = new DefinitionIndex();
  /**
   * The servers of the workspace's client configs, for a server another client of the same project
   * starts differently (rules/client/differs-across-clients.ts).
   */
  readonly clientServers = new ClientServerIndex();
  private configValue: LensConfig = DEFAULT_CONFIG;
  /** Set only by the language server (see CatalogBaseline). */
  baseline: CatalogBaseline | undefined = undefined;

  constructor(
    /** Folder that relative paths and globs are taken from (posix separators). */
    readonly root: string,
    readonly log: Logger = () => {
      /* no log unless one is given */
    },
  ) {}

  get config(): LensConfig {
    return this.configValue;
  }

  set config(config: LensConfig) {
    this.configValue = config;
    this.catalog.setWorkloads(config.workloads);
  }

  /**
   * What an analysis of a document reads beyond the document's own parse (the catalog, the
   * composite tool definitions, the client configs' servers, the configuration, the baseline) as one token: the same object while none of them changes, a new
   * one after any change. Analyses are memoised per parsed document and per revision
   * (context.ts), so a parse outlives a catalog change while what was derived from the old catalog
   * does not.
   */
  revision(): object {
    const catalog = catalogRevision(this.catalog);
    const definitions = definitionRevision(this.definitions);
    const clientServers = clientServerRevision(this.clientServers);
    const last = revisions.get(this);
    if (
      last &&
      last.catalog === catalog &&
      last.definitions === definitions &&
      last.clientServers === clientServers &&
      last.config === this.configValue &&
      last.baseline === this.baseline
    )
      return last.token;
    const token = {};
    revisions.set(this, {
      catalog,
      definitions,
      clientServers,
      config: this.configValue,
      baseline: this.baseline,
      token,
    });
    return token;
  }

  /** Path relative to the root, posix style, for globs and output. */
  relative(path: string): string {
    const normalized = path.replace(/\\/g, '/');
    const root = this.root.replace(/\\/g, '/').replace(/\/$/, '');
    if (root && normalized.startsWith(root + '/')) return normalized.slice(root.length + 1);
    return normalized.replace(/^\.\//, '');
  }

  /** The limits this workspace works under: LIMITS, and what `.toollens.yaml` sets (`limits:`). */
  get limits(): Limits {
    return this.configValue.limits;
  }

  forcedKind(path: string): DocumentKind | null {
    return forcedKind(this.configValue, this.relative(path));
  }

  /**
   * The parsed file. With `previous` (the same file before an edit), only the part of it that the
   * edit touched is parsed again where that gives the same result as a full parse. With
   * `consume`, `previous` must not be used afterwards (its nodes may move into the new tree).
   * A previous parse made under other limits is not re-used: the same text may read differently.
   */
  parse(path: string, text: string, previous?: ParsedFile, options?: Omit<ReparseOptions, 'limits'>): ParsedFile {
    const forcedKind = this.forcedKind(path);
    const limits = parseLimitsOf(this.limits);
    const reusable = previous !== undefined && previous.path === path && parsedUnder.get(previous) === limits;
    const reparsed = reusable ? reparseFile(previous, text, forcedKind, { ...options, limits }) : undefined;
    const file = reparsed ?? parseFile(path, text, { forcedKind, limits });
    parsedUnder.set(file, limits);
    return file;
  }

  /**
   * A file of `bytes` bytes on disk, past this workspace's fileBytes, declined without reading
   * more of it than `head` (its first HEAD_BYTES, decoded): what `parse` gives for its whole text.
   */
  parseTooLarge(path: string, bytes: number, head: string): ParsedFile {
    const limits = parseLimitsOf(this.limits);
    const file = parseTooLarge(path, bytes, head, { forcedKind: this.forcedKind(path), limits });
    parsedUnder.set(file, limits);
    return file;
  }
}

/**
 * A baseline for `current`: a workspace with its root, log and configuration whose catalog is made
 * of `files` (joined in their order, as the catalog they were read into joined them), parsed only
 * when first needed. `names` computes the baseline's names from its catalog; `knownNames`, when
 * given, is that value already (the files are the current catalog's), so nothing is parsed until
 * the names differ.
 */
export function catalogBaseline(
  current: Workspace,
  files: readonly BaselineFile[],
  all: () => Iterable<ParsedFile>,
  names: (catalog: CatalogIndex) => string,
  knownNames?: string,
): CatalogBaseline {
  let workspace: Workspace | undefined;
  const made = () => {
    if (!workspace) {
      workspace = new Workspace(current.root, current.log);
      workspace.config = current.config;
      for (const file of files) workspace.catalog.addFile(workspace.parse(file.path, file.text), { named: file.named });
    }
    return workspace;
  };
  return { workspace: made, names: () => (knownNames ??= names(made().catalog)), files: all };
}

/** The limits each parse was made under, as one shared object per distinct set of values. */
const parsedUnder = new WeakMap<ParsedFile, ParseLimits>();
const parseLimitsByKey = new Map<string, ParseLimits>();

function parseLimitsOf(limits: Limits): ParseLimits {
  const key = `${limits.fileBytes}/${limits.fileValues}/${limits.aliasNodes}`;
  let shared = parseLimitsByKey.get(key);
  if (!shared) {
    shared = { fileBytes: limits.fileBytes, fileValues: limits.fileValues, aliasNodes: limits.aliasNodes };
    // A handful of configurations in a process's life; never more than a few entries.
    if (parseLimitsByKey.size > 64) parseLimitsByKey.clear();
    parseLimitsByKey.set(key, shared);
  }
  return shared;
}
