// The layers of Tool Lens and the one direction imports may take between them (ARCHITECTURE.md,
// "Layers"). `npm test` runs this through test/architecture.test.ts; `npm run lint:deps` alone.
//
// Inside server/src/core a module may import its own layer and the layers below it, never one
// above. Around core: node/ and live/ build on core; cli/ and lsp/ are the two front ends; the
// client only shares the protocol's names.

/** server/src/core, bottom first. A folder or a top-level file of core per entry. */
const CORE_LAYERS = [
  { name: 'base', members: ['types.ts', 'memo.ts', 'limits.ts'] },
  { name: 'text', members: ['text'] },
  { name: 'parse', members: ['parse'] },
  { name: 'readers', members: ['edit', 'jsonschema', 'templates', 'faceVocabulary', 'config', 'wording'] },
  { name: 'catalog', members: ['catalog'] },
  { name: 'workspace', members: ['workspace.ts', 'context.ts', 'declined.ts'] },
  { name: 'model', members: ['model'] },
  { name: 'gateway', members: ['gateway'] },
  { name: 'analyses', members: ['floor', 'calls', 'structure', 'listing', 'audit'] },
  { name: 'rules', members: ['rules'] },
  { name: 'engine', members: ['suppressions.ts', 'engine.ts'] },
  // Editor features over the core's data (offsets, spans, findings, edits), no protocol type:
  // lsp/ translates between the protocol and these, as rust-analyzer's `ide` crate sits under its shell.
  { name: 'ide', members: ['ide'] },
];

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const memberPath = (member) => `^server/src/core/${escape(member)}${member.endsWith('.ts') ? '$' : '/'}`;
const layerPath = (layer) => layer.members.map(memberPath);

const upward = CORE_LAYERS.slice(0, -1).map((layer, index) => ({
  name: `core-layer-${layer.name}`,
  severity: 'error',
  comment: `core's ${layer.name} layer (${layer.members.join(', ')}) imports only itself and the layers below it`,
  from: { path: layerPath(layer) },
  to: { path: CORE_LAYERS.slice(index + 1).flatMap(layerPath) },
}));

module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'rule-families-apart',
      severity: 'error',
      comment: 'a rule family does not import another family: what two families share lives in a layer below rules/',
      from: { path: '^server/src/core/rules/([^/]+)/' },
      to: { path: '^server/src/core/rules/[^/]+/', pathNot: '^server/src/core/rules/$1/' },
    },
    {
      name: 'rules-through-the-registry',
      severity: 'error',
      comment: 'nothing in core outside rules/ and the engine reaches into a rule module',
      from: {
        path: '^server/src/core/',
        pathNot: ['^server/src/core/rules/', '^server/src/core/engine\\.ts$', '^server/src/core/ide/'],
      },
      to: { path: '^server/src/core/rules/' },
    },
    {
      name: 'ide-through-the-registry',
      severity: 'error',
      comment:
        "ide/ (above the engine) reads the rules' ids, summaries and severities through the registry, never a rule module",
      from: { path: '^server/src/core/ide/' },
      to: {
        path: '^server/src/core/rules/',
        pathNot: ['^server/src/core/rules/registry\\.ts$', '^server/src/core/rules/rule\\.ts$'],
      },
    },
    {
      name: 'core-is-editor-agnostic',
      severity: 'error',
      comment: 'core runs in the CLI, the server and the tests alike: no LSP, VS Code, MCP SDK or file system',
      from: { path: '^server/src/core/' },
      to: {
        path: [
          '^node_modules/(vscode|vscode-languageserver[^/]*|vscode-languageclient|vscode-jsonrpc|@modelcontextprotocol)/',
          '^(fs|fs/promises|child_process|net|http|https|os)$',
        ],
      },
    },
    {
      name: 'core-imports-no-adapter',
      severity: 'error',
      comment: 'core knows nothing of the adapters built on it',
      from: { path: '^server/src/core/' },
      to: { path: '^server/src/(node|live|cli|lsp)/|^server/src/server\\.ts$|^client/' },
    },
    {
      name: 'node-helpers-over-core',
      severity: 'error',
      comment: 'node/ holds Node-only pieces the CLI and the server share; it builds on core only',
      from: { path: '^server/src/node/' },
      to: { path: '^server/src/(live|cli|lsp)/|^server/src/server\\.ts$' },
    },
    {
      name: 'live-below-the-front-ends',
      severity: 'error',
      comment: 'live/ (fetching catalogs) is used by the CLI and the server, and uses neither',
      from: { path: '^server/src/live/' },
      to: { path: '^server/src/(cli|lsp)/|^server/src/server\\.ts$' },
    },
    {
      name: 'front-ends-apart',
      severity: 'error',
      comment: 'the CLI and the language server share core, node/ and live/, not each other',
      from: { path: '^server/src/cli/' },
      to: { path: '^server/src/lsp/|^server/src/server\\.ts$' },
    },
    {
      name: 'front-ends-apart-lsp',
      severity: 'error',
      comment: 'the CLI and the language server share core, node/ and live/, not each other',
      from: { path: '^server/src/lsp/' },
      to: { path: '^server/src/cli/' },
    },
    {
      name: 'client-holds-no-analysis',
      severity: 'error',
      comment: 'the extension shows what the server computes; it shares only the protocol and the rule docs location',
      from: { path: '^client/' },
      to: {
        path: '^server/',
        pathNot: [
          '^server/src/lsp/protocol\\.ts$',
          '^server/src/core/rules/rule\\.ts$',
          '^server/src/core/types\\.ts$',
        ],
      },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'no import cycles, inside a layer either',
      from: { path: '^(server|client)/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^server/src/core/structure/generated/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};

// For test/architecture.test.ts, which checks that the rules above can fail.
Object.defineProperty(module.exports, 'CORE_LAYERS', { value: CORE_LAYERS, enumerable: false });
