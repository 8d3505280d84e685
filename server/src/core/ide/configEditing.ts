// `.toollens.yaml` in the editor, served by Tool Lens itself (no YAML extension needed): completion
// of its keys, rule ids and severities (under `rules` and each override's `rules`), document kinds
// (under `kinds`), workload names and catalog servers (under `workloads`), and a hover on a rule id
// with the rule's summary. Its problems (unknown ids, severities, kinds, keys, with "did you mean"
// fixes) are core config/'s, shown as its diagnostics. lsp/configEditing.ts serves these for the
// folder's configuration file only.
import { CONFIG_KEYS, SEVERITIES } from '../config/config.js';
import { documentContext } from '../context.js';
import { gatewayOf } from '../gateway/gateway.js';
import type { ParsedFile } from '../parse/file.js';
import { isMap } from '../parse/nodes.js';
import { ALL_RULES } from '../rules/registry.js';
import type { Rule } from '../rules/rule.js';
import { escapeMarkdown } from '../text/markdown.js';
import { DOCUMENT_KINDS, type Span } from '../types.js';
import type { Workspace } from '../workspace.js';
import { buildContext, type CompletionEntry, type CompletionKind } from './completion.js';
import { locate } from './cursor.js';
import type { HoverText } from './hover.js';

const RULES_BY_ID = new Map<string, Rule>(ALL_RULES.map((rule) => [rule.id, rule]));

const KEY_WORDS: Record<(typeof CONFIG_KEYS)[number], string> = {
  catalogs: 'Globs of catalog snapshot files, relative to this file.',
  workloads: 'Workload name → the catalog server that describes it.',
  rules: 'Rule id → severity (error, warning, info, hint, off).',
  overrides: 'A list of {files, rules}: severities for the files the globs match.',
  kinds: 'Document kind → globs of files to read as that kind.',
  limits: "Bounds on Tool Lens's own work (docs/limits.md).",
  ruleDocsUrl: "Where the CLI's reports link a rule's page; {rule} stands for the id.",
};

const SEVERITY_WORDS: Record<string, string> = {
  error: 'fails `tool-lens check`',
  warning: 'reported; fails with --fail-on warning',
  info: 'reported; fails with --fail-on info',
  hint: 'shown in the editor, never fails a run',
  off: 'the rule does not run',
};

/** Whether a path (of a mapping, or of a value in one) is a `rules` mapping: top-level or an override's. */
function isRulesMap(path: readonly (string | number)[]): boolean {
  return (
    (path.length === 1 && path[0] === 'rules') ||
    (path.length === 3 && path[0] === 'overrides' && typeof path[1] === 'number' && path[2] === 'rules')
  );
}

/**
 * Completion at `offset` of the configuration file; `files`: the folder's checked files, whose
 * gateways name the workloads offered under `workloads`.
 */
export function configCompletionsAt(
  file: ParsedFile,
  workspace: Workspace,
  offset: number,
  files: () => Iterable<ParsedFile>,
): CompletionEntry[] {
  const c = buildContext(file, workspace, offset, true);
  if (!c) return [];
  const slot = c.slot;
  if (slot.kind === 'key') {
    const key = (
      label: string,
      kind: CompletionKind,
      detail: string | undefined,
      documentation?: string,
      sortText?: string,
    ): CompletionEntry => ({
      label,
      kind,
      ...(detail ? { detail } : {}),
      ...(documentation ? { documentation } : {}),
      ...(sortText ? { sortText } : {}),
      span: slot.span,
      newText: slot.needsColon ? `${label}: ` : label,
    });
    const path = slot.mapPath;
    if (path.length === 0) {
      return CONFIG_KEYS.filter((k) => !slot.existing.has(k)).map((k) => key(k, 'property', KEY_WORDS[k]));
    }
    if (isRulesMap(path)) {
      // A rule id written with its colon chains to the severities, as a value typed after it does.
      return ALL_RULES.filter((rule) => !slot.existing.has(rule.id)).map((rule) => ({
        ...key(rule.id, 'value', `${rule.defaultSeverity} by default`, escapeMarkdown(rule.summary)),
        ...(slot.needsColon ? { suggestNext: true } : {}),
      }));
    }
    if (path.length === 1 && path[0] === 'kinds') {
      return DOCUMENT_KINDS.filter((kind) => !slot.existing.has(kind)).map((kind) =>
        key(kind, 'enum', 'document kind'),
      );
    }
    if (path.length === 1 && path[0] === 'workloads') {
      return workloadNames(workspace, files())
        .filter((w) => !slot.existing.has(w.name))
        .map((w) => key(w.name, 'module', w.detail, undefined, `${w.catalogued ? 1 : 0}${w.name}`));
    }
    return [];
  }
  const path = slot.path;
  const span = slot.span;
  if (path.length >= 2 && isRulesMap(path.slice(0, -1))) {
    const rule = RULES_BY_ID.get(String(path[path.length - 1]));
    return SEVERITIES.map((severity, i) => ({
      label: severity,
      kind: 'enum-member' as const,
      detail:
        rule && severity === rule.defaultSeverity
          ? `${SEVERITY_WORDS[severity]} (the default)`
          : SEVERITY_WORDS[severity],
      sortText: String(i),
      span,
      newText: severity,
    }));
  }
  if (path.length === 2 && path[0] === 'workloads') {
    return workspace.catalog.serverNames.map((name) => ({
      label: name,
      kind: 'module' as const,
      detail: 'catalog server',
      span,
      newText: name,
    }));
  }
  return [];
}

/** The workloads the folder's gateways name, each once: those without a catalog server first. */
function workloadNames(
  workspace: Workspace,
  files: Iterable<ParsedFile>,
): { name: string; catalogued: boolean; detail: string }[] {
  const out = new Map<string, { name: string; catalogued: boolean; detail: string }>();
  for (const file of files) {
    for (const doc of file.documents) {
      if ((doc.kind !== 'vmcp-config' && doc.kind !== 'vmcp-server') || doc.partial) continue;
      for (const [name, workload] of gatewayOf(documentContext(file, doc, workspace)).workloads) {
        if (out.has(name)) continue;
        const server = workspace.catalog.server(name);
        out.set(name, {
          name,
          catalogued: server !== undefined,
          detail: server
            ? `catalogued as ${workspace.catalog.serverName(name)}`
            : workload.opaque
              ? 'workload (opaque)'
              : 'workload without a catalog',
        });
      }
    }
  }
  return [...out.values()];
}

/** Hover on a rule id in the configuration file: the rule's summary. */
export function configHoverAt(file: ParsedFile, offset: number): HoverText | undefined {
  const located = locate(file, offset);
  if (!located || located.target.kind !== 'key') return undefined;
  const path = located.path;
  const id = String(path[path.length - 1]);
  const rule = RULES_BY_ID.get(id);
  if (!rule || !isRulesMap(path.slice(0, -1)) || !isMap(located.target.map)) return undefined;
  const span: Span = located.target.pair.key.span;
  const kinds = rule.kinds === '*' ? 'every kind Tool Lens reads' : rule.kinds.join(', ');
  const markdown = [
    `**${rule.id}** (${rule.defaultSeverity} by default)`,
    '',
    escapeMarkdown(rule.summary),
    '',
    `Checks: ${kinds}.`,
  ].join('\n');
  return { markdown, span };
}
