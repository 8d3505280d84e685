// `--format sarif`: SARIF 2.1.0 for code-scanning services. Regions are 1-based with an exclusive
// end column, counted in UTF-16 code units (SARIF's default `columnKind`, stated explicitly).
import { pathToFileURL } from 'node:url';
import type { SourceText } from '../../core/text/source.js';
import type { Rule } from '../../core/rules/rule.js';
import { PROJECT_URL, ruleDocsUrl } from '../../core/rules/rule.js';
import type { Finding, Fix, Severity, Span } from '../../core/types.js';
import { fullMessage, toRange, type CheckResult } from '../result.js';

const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
const SRCROOT = '%SRCROOT%';

type SarifLevel = 'error' | 'warning' | 'note';

interface SarifRegion {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

interface SarifArtifactLocation {
  uri: string;
  uriBaseId: string;
}

interface SarifReplacement {
  deletedRegion: SarifRegion;
  insertedContent: { text: string };
}

interface SarifFix {
  description: { text: string };
  artifactChanges: { artifactLocation: SarifArtifactLocation; replacements: SarifReplacement[] }[];
  properties: { safe: boolean };
}

interface SarifResult {
  ruleId: string;
  ruleIndex?: number;
  level: SarifLevel;
  message: { text: string };
  locations: { physicalLocation: { artifactLocation: SarifArtifactLocation; region: SarifRegion } }[];
  fixes?: SarifFix[];
}

interface SarifRule {
  id: string;
  shortDescription: { text: string };
  helpUri: string;
  defaultConfiguration: { level: SarifLevel };
}

interface SarifLog {
  $schema: string;
  version: '2.1.0';
  runs: {
    tool: { driver: { name: string; version: string; informationUri: string; rules: SarifRule[] } };
    originalUriBaseIds: Record<string, { uri: string }>;
    columnKind: 'utf16CodeUnits';
    results: SarifResult[];
  }[];
}

export interface SarifOptions {
  rules: readonly Rule[];
  toolVersion: string;
  /** Absolute folder the relative paths are taken from. */
  cwd: string;
}

function sarifLevel(severity: Severity): SarifLevel {
  return severity === 'error' ? 'error' : severity === 'warning' ? 'warning' : 'note';
}

function toSarif(result: CheckResult, options: SarifOptions): SarifLog {
  const ruleIndex = new Map(options.rules.map((rule, index) => [rule.id, index]));
  const results: SarifResult[] = [];
  for (const file of result.files) {
    const artifactLocation = { uri: file.path.split('/').map(encodeURIComponent).join('/'), uriBaseId: SRCROOT };
    for (const finding of file.findings)
      results.push(sarifResult(file.source, finding, artifactLocation, ruleIndex.get(finding.rule)));
  }
  const root = pathToFileURL(options.cwd).href;
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'Tool Lens',
            version: options.toolVersion,
            informationUri: PROJECT_URL,
            rules: options.rules.map((rule) => ({
              id: rule.id,
              shortDescription: { text: rule.summary },
              helpUri: ruleDocsUrl(rule.id, result.ruleDocsUrl),
              defaultConfiguration: { level: sarifLevel(rule.defaultSeverity) },
            })),
          },
        },
        originalUriBaseIds: { [SRCROOT]: { uri: root.endsWith('/') ? root : `${root}/` } },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
}

function region(source: SourceText, span: Span): SarifRegion {
  const range = toRange(source, span);
  return {
    startLine: range.start.line,
    startColumn: range.start.column,
    endLine: range.end.line,
    endColumn: range.end.column,
  };
}

function sarifResult(
  source: SourceText,
  finding: Finding,
  artifactLocation: SarifArtifactLocation,
  index: number | undefined,
): SarifResult {
  const out: SarifResult = {
    ruleId: finding.rule,
    ...(index === undefined ? {} : { ruleIndex: index }),
    level: sarifLevel(finding.severity),
    message: { text: fullMessage(finding) },
    locations: [{ physicalLocation: { artifactLocation, region: region(source, finding.span) } }],
  };
  if (finding.fixes?.length) out.fixes = finding.fixes.map((fix) => sarifFix(source, fix, artifactLocation));
  return out;
}

function sarifFix(source: SourceText, fix: Fix, artifactLocation: SarifArtifactLocation): SarifFix {
  return {
    description: { text: fix.title },
    artifactChanges: [
      {
        artifactLocation,
        replacements: fix.edits.map((edit) => ({
          deletedRegion: region(source, edit.span),
          insertedContent: { text: edit.newText },
        })),
      },
    ],
    properties: { safe: fix.safe },
  };
}

export function formatSarif(result: CheckResult, options: SarifOptions): string {
  return JSON.stringify(toSarif(result, options), null, 2) + '\n';
}
