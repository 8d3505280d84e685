// operational/ignored-setting: a VirtualMCPServer's `spec.config` block that the operator never
// passes on. The operator builds the vMCP server's configuration from a copy of `spec.config`
// (cmd/thv-operator/pkg/vmcpconfig/converter.go, Converter.Convert), then overwrites some of it
// from other places: `telemetry` with the referenced MCPTelemetryConfig (nothing without
// `spec.telemetryConfigRef`), `sessionStorage` with `spec.sessionStorage` (or the operator's default
// Redis), `incomingAuth` with `spec.incomingAuth` (which the CRD requires), `outgoingAuth` with
// `spec.outgoingAuth` (or `source: discovered`), `name` with the resource's name and `groupRef`
// with `spec.groupRef.name`. The CRD accepts those keys, so nothing refuses them: the settings are
// silently lost. `name` and `groupRef` are reported only when they differ from what replaces them.
import { getMap, getPair, getString, isNullScalar, type Pair } from '../../parse/nodes.js';
import { workflowsOf } from '../../model/workflow.js';
import { defineRule } from '../rule.js';

/** The blocks the operator replaces: what to write instead, and what the server gets. */
const BLOCKS: Record<string, { use: string; instead: string }> = {
  telemetry: {
    use: 'use an MCPTelemetryConfig through `spec.telemetryConfigRef`',
    instead: 'the MCPTelemetryConfig that `spec.telemetryConfigRef` names, or no telemetry',
  },
  sessionStorage: {
    use: 'set `spec.sessionStorage` instead',
    instead: "`spec.sessionStorage`, or the operator's default Redis",
  },
  incomingAuth: { use: 'set `spec.incomingAuth` instead', instead: '`spec.incomingAuth`' },
  outgoingAuth: { use: 'set `spec.outgoingAuth` instead', instead: '`spec.outgoingAuth`, or `source: discovered`' },
};

const messages = {
  /** `key`: the block; `use`: what to do instead; `instead`: what the server gets. */
  block: ({ key, use, instead }: { key: string; use: string; instead: string }) =>
    `\`spec.config.${key}\` has no effect: ${use}. ` +
    `When it builds the vMCP server's configuration (converter.go Convert), the operator replaces it with ${instead}, so what is written here is never used.`,
  /** `key`: name or groupRef; `written`: its value here; `used`: the value that replaces it; `from`: where that comes from. */
  replaced: ({ key, written, used, from }: { key: string; written: string; used: string; from: string }) =>
    `\`spec.config.${key}\` has no effect: remove it, or change \`${from}\`. ` +
    `The operator uses "${used}" from \`${from}\`, not "${written}" (converter.go Convert).`,
};

export const rule = defineRule({
  id: 'operational/ignored-setting',
  defaultSeverity: 'warning',
  summary: "A VirtualMCPServer's `spec.config` block the operator replaces (`telemetry`, `sessionStorage`, ...).",
  kinds: ['vmcp-server'],
  messages,
  check(ctx) {
    const config = workflowsOf(ctx).config;
    if (!config || ctx.doc.kind !== 'vmcp-server') return;
    for (const [key, { use, instead }] of Object.entries(BLOCKS)) {
      const pair = getPair(config, key);
      if (!pair || !present(pair)) continue;
      ctx.report({ messageId: 'block', data: { key, use, instead }, span: pair.key.span });
    }
    const root = ctx.doc.root;
    const spec = getMap(root, 'spec');
    const replacedBy: [string, string | undefined, string][] = [
      ['name', getString(getMap(root, 'metadata'), 'name'), 'metadata.name'],
      ['groupRef', getString(getMap(spec, 'groupRef'), 'name'), 'spec.groupRef.name'],
    ];
    for (const [key, used, from] of replacedBy) {
      const written = getString(config, key);
      // Only a value that differs misleads; an unknown replacement (a template, a patch) says nothing.
      if (written === undefined || used === undefined || written === used || written === '') continue;
      ctx.report({ messageId: 'replaced', data: { key, written, used, from }, span: getPair(config, key)!.key.span });
    }
  },
});

/** A key with a value: `telemetry:` with nothing after it is null, which sets nothing. */
function present(pair: Pair): boolean {
  return pair.value !== null && !isNullScalar(pair.value);
}
