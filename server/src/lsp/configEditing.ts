// `.toollens.yaml` in the editor, served by Tool Lens itself (no YAML extension needed): completion
// of its keys, rule ids and severities (under `rules` and each override's `rules`), document kinds
// (under `kinds`), workload names and catalog servers (under `workloads`), and a hover on a rule id
// with the rule's summary. Its problems (unknown ids, severities, kinds, keys, with "did you mean"
// fixes) are core config/'s, shown as its diagnostics (diagnostics.ts). Undefined for any other file.
import { CompletionItemKind, MarkupKind, type CompletionItem, type CompletionParams, type Hover, type HoverParams } from 'vscode-languageserver';
import { CONFIG_KEYS, SEVERITIES } from '../core/config/config.js';
import { documentContext } from '../core/context.js';
import { gatewayOf } from '../core/gateway/gateway.js';
import { isMap } from '../core/parse/nodes.js';
import { ALL_RULES } from '../core/rules/registry.js';
import type { Rule } from '../core/rules/rule.js';
import { escapeMarkdown } from '../core/text/markdown.js';
import { DOCUMENT_KINDS, type Span } from '../core/types.js';
import { buildContext } from './completion.js';
import { toRange } from './convert.js';
import { locate } from '../core/ide/cursor.js';
import type { Session } from './session.js';

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
  return (path.length === 1 && path[0] === 'rules') || (path.length === 3 && path[0] === 'overrides' && typeof path[1] === 'number' && path[2] === 'rules');
}

/** Completion in the folder's `.toollens.yaml`; undefined for any other file. */
export function configCompletion(session: Session, params: CompletionParams): CompletionItem[] | undefined {
  const entry = session.entryOf(params.textDocument.uri);
  if (!entry || !session.isConfig(entry)) return undefined;
  const file = session.fileOf(entry);
  if (!file) return [];
  const c = buildContext(session, file, file.source.offsetAt(params.position), true);
  if (!c) return [];
  const slot = c.slot;
  if (slot.kind === 'key') {
    const range = toRange(c.file.source, slot.span);
    const key = (label: string, kind: CompletionItemKind, detail: string | undefined, documentation?: string, sortText?: string): CompletionItem => ({
      label,
      kind,
      ...(detail ? { detail } : {}),
      ...(documentation ? { documentation: { kind: MarkupKind.Markdown, value: documentation } } : {}),
      ...(sortText ? { sortText } : {}),
      textEdit: { range, newText: slot.needsColon ? `${label}: ` : label },
    });
    const path = slot.mapPath;
    if (path.length === 0) {
      return CONFIG_KEYS.filter((k) => !slot.existing.has(k)).map((k) => key(k, CompletionItemKind.Property, KEY_WORDS[k]));
    }
    if (isRulesMap(path)) {
      return ALL_RULES.filter((rule) => !slot.existing.has(rule.id)).map((rule) =>
        key(rule.id, CompletionItemKind.Value, `${rule.defaultSeverity} by default`, escapeMarkdown(rule.summary)),
      );
    }
    if (path.length === 1 && path[0] === 'kinds') {
      return DOCUMENT_KINDS.filter((kind) => !slot.existing.has(kind)).map((kind) => key(kind, CompletionItemKind.Enum, 'document kind'));
    }
    if (path.length === 1 && path[0] === 'workloads') {
      return workloadNames(session)
        .filter((w) => !slot.existing.has(w.name))
        .map((w) => key(w.name, CompletionItemKind.Module, w.detail, undefined, `${w.catalogued ? 1 : 0}${w.name}`));
    }
    return [];
  }
  const path = slot.path;
  const range = toRange(c.file.source, slot.span);
  if (path.length >= 2 && isRulesMap(path.slice(0, -1))) {
    const rule = RULES_BY_ID.get(String(path[path.length - 1]));
    return SEVERITIES.map((severity, i) => ({
      label: severity,
      kind: CompletionItemKind.EnumMember,
      detail: rule && severity === rule.defaultSeverity ? `${SEVERITY_WORDS[severity]} (the default)` : SEVERITY_WORDS[severity],
      sortText: String(i),
      textEdit: { range, newText: severity },
    }));
  }
  if (path.length === 2 && path[0] === 'workloads') {
    return session.workspace.catalog.serverNames.map((name) => ({ label: name, kind: CompletionItemKind.Module, detail: 'catalog server', textEdit: { range, newText: name } }));
  }
  return [];
}

/** The workloads the folder's gateways name, each once: those without a catalog server first. */
function workloadNames(session: Session): { name: string; catalogued: boolean; detail: string }[] {
  const out = new Map<string, { name: string; catalogued: boolean; detail: string }>();
  for (const entry of session.checkedEntries()) {
    const file = session.fileOf(entry);
    if (!file) continue;
    for (const doc of file.documents) {
      if ((doc.kind !== 'vmcp-config' && doc.kind !== 'vmcp-server') || doc.partial) continue;
      for (const [name, workload] of gatewayOf(documentContext(file, doc, session.workspace)).workloads) {
        if (out.has(name)) continue;
        const server = session.workspace.catalog.server(name);
        out.set(name, {
          name,
          catalogued: server !== undefined,
          detail: server ? `catalogued as ${session.workspace.catalog.serverName(name)}` : workload.opaque ? 'workload (opaque)' : 'workload without a catalog',
        });
      }
    }
  }
  return [...out.values()];
}

/** Hover on a rule id in the folder's `.toollens.yaml`: the rule's summary. Undefined for any other file. */
export function configHover(session: Session, params: HoverParams): Hover | null | undefined {
  const entry = session.entryOf(params.textDocument.uri);
  if (!entry || !session.isConfig(entry)) return undefined;
  const file = session.fileOf(entry);
  if (!file) return null;
  const located = locate(file, file.source.offsetAt(params.position));
  if (!located || located.target.kind !== 'key') return null;
  const path = located.path;
  const id = String(path[path.length - 1]);
  const rule = RULES_BY_ID.get(id);
  if (!rule || !isRulesMap(path.slice(0, -1)) || !isMap(located.target.map)) return null;
  const span: Span = located.target.pair.key.span;
  const kinds = rule.kinds === '*' ? 'every kind Tool Lens reads' : rule.kinds.join(', ');
  const value = [`**${rule.id}** (${rule.defaultSeverity} by default)`, '', escapeMarkdown(rule.summary), '', `Checks: ${kinds}.`].join('\n');
  return { contents: { kind: MarkupKind.Markdown, value }, range: toRange(file.source, span) };
}
