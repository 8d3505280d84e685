// `tool-lens rules`: every rule id with its default severity and one line, as an aligned table or
// as JSON.
import type { Palette } from './colors.js';
import type { Rule } from '../core/rules/rule.js';
import { ruleDocsUrl } from '../core/rules/rule.js';

export function formatRulesTable(rules: readonly Rule[], colors: Palette): string {
  const idWidth = Math.max(...rules.map((rule) => rule.id.length), 'RULE'.length);
  const severityWidth = Math.max(...rules.map((rule) => rule.defaultSeverity.length), 'DEFAULT'.length);
  const lines = [colors.bold(`${'RULE'.padEnd(idWidth)}  ${'DEFAULT'.padEnd(severityWidth)}  SUMMARY`)];
  for (const rule of rules) {
    // Pad before colouring: escape codes would count as width.
    const severity = colors.severity(rule.defaultSeverity, rule.defaultSeverity.padEnd(severityWidth));
    lines.push(`${rule.id.padEnd(idWidth)}  ${severity}  ${rule.summary}`);
  }
  return lines.join('\n') + '\n';
}

/** `docsUrl`: `--rule-docs-url` (rules/rule.ts ruleDocsUrl); the project's pages without it. */
export function formatRulesJson(rules: readonly Rule[], docsUrl?: string): string {
  const out = {
    version: 1,
    rules: rules.map((rule) => ({
      id: rule.id,
      defaultSeverity: rule.defaultSeverity,
      summary: rule.summary,
      docs: ruleDocsUrl(rule.id, docsUrl),
    })),
  };
  return JSON.stringify(out, null, 2) + '\n';
}
