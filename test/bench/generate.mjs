// Generates the benchmark workspace: about 100,000 lines of vMCP gateway configurations whose
// composite tools use the filesystem and memory servers (chains, parallel fan-in, forEach,
// elicitation gates, templates, arguments, annotations), next to those servers' catalog snapshots.
// Deterministic: the same seed gives the same bytes, so runs on different days compare.
//
//   node test/bench/generate.mjs [OUT_DIR] [--lines N]
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
/**
 * The real `tools/list` captures of the filesystem and memory servers: the clean corpus keeps them
 * unchanged (test/corpus/clean/README.md), and the bench workspaces copy them from there.
 */
export const CATALOG_DIR = join(HERE, '..', 'corpus', 'clean', 'catalogs');
export const CATALOGS = ['filesystem.json', 'memory.json'];
export const DEFAULT_OUT = join(HERE, 'out', 'workspace');
export const DEFAULT_LINES = 100_000;

/** mulberry32: a small seeded generator, enough to vary the shapes reproducibly. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TEAMS = ['docs', 'platform', 'research', 'support', 'release', 'data', 'security', 'design', 'growth', 'infra'];
const TOPICS = [
  'changelog',
  'runbook',
  'onboarding',
  'incident',
  'roadmap',
  'glossary',
  'adr',
  'api-notes',
  'faq',
  'postmortem',
];

function header(team, index) {
  return `# vMCP gateway for the ${team} team (${index}): read-mostly access to the team checkout and the
# shared knowledge graph. Generated for the Tool Lens benchmark.
name: ${team}-gateway-${index}
groupRef: ${team}-team

backends:
  - name: filesystem
    url: http://filesystem.${team}-team.svc.cluster.local:8080/mcp
    transport: streamable-http
  - name: memory
    url: http://memory.${team}-team.svc.cluster.local:8080/mcp
    transport: streamable-http

incomingAuth:
  type: anonymous
outgoingAuth:
  source: inline
  default:
    type: unauthenticated

aggregation:
  conflictResolution: prefix
  conflictResolutionConfig:
    prefixFormat: "{workload}_"
  tools:
    - workload: filesystem
      filter: [read_text_file, read_multiple_files, directory_tree, search_files, list_directory, get_file_info]

operational:
  timeouts:
    default: 30s
    perWorkload:
      filesystem: 15s

compositeTools:
`;
}

// Each shape returns the YAML of one composite tool (indented for the compositeTools list).
// `slip` occasionally puts in the kind of mistake people make, so the checker has findings to
// report, as it would on a real repository.
const SHAPES = [
  function chain(name, topic, slip) {
    return `  # Sequential chain: search -> read -> record, each step waiting on the one before.
  - name: ${name}
    description: Find the ${topic} notes of a project, read them and record them in the knowledge graph.
    parameters:
      type: object
      properties:
        project:
          type: string
          description: Project name, used as the entity the notes are linked to
        root:
          type: string
          description: Folder to search, relative to the allowed root
          default: docs
        pattern:
          type: string
          default: "*${topic}*.md"
      required: [project]
    annotations:
      openWorldHint: false
    steps:
      - id: find
        tool: filesystem.search_files
        arguments:
          path: "{{.params.root}}"
          pattern: "{{.params.${slip ? 'patern' : 'pattern'}}}"
          excludePatterns: ["**/node_modules/**", "**/.git/**"]
        onError:
          action: retry
          retryCount: 2
          retryDelay: 1s
      - id: read
        tool: filesystem.read_multiple_files
        dependsOn: [find]
        arguments:
          paths: ["{{.steps.find.output.content}}"]
      - id: record
        tool: memory.create_entities
        dependsOn: [read]
        arguments:
          entities:
            - name: "{{.params.project}} ${topic}"
              entityType: ${topic}
              observations:
                - "{{.steps.read.output.content}}"
    output:
      properties:
        files:
          type: string
          description: Matching paths, one per line
          value: "{{.steps.find.output.content}}"
        entities:
          type: array
          description: The entities written to the graph
          value: "{{json .steps.record.output.entities}}"
      required: [files]
`;
  },

  function fanIn(name, topic, slip) {
    return `  # Parallel fan-in: the reads start together and the output collects them.
  - name: ${name}
    description: Read the README, the ${topic} and the layout of a project in one call.
    parameters:
      type: object
      properties:
        root:
          type: string
          description: Project directory, relative to the allowed root
          default: "."
        lines:
          type: integer
          description: How many lines of each file to include
          default: 80
    timeout: 2m
    annotations:
      title: Summarize the ${topic} of a project
      readOnlyHint: true
      openWorldHint: false
    steps:
      - id: tree
        tool: filesystem.directory_tree
        arguments:
          path: "{{.params.root}}"
          excludePatterns: [node_modules, .git, dist]
      - id: readme
        tool: filesystem.read_text_file
        arguments:
          path: "{{.params.root}}/README.md"
          head: "{{.params.lines}}"
      - id: notes
        tool: ${slip ? 'filesystem.read_txt_file' : 'filesystem.read_text_file'}
        arguments:
          path: "{{.params.root}}/${topic}.md"
          head: "{{.params.lines}}"
        onError:
          action: continue
        defaultResults:
          content: No ${topic}.md in this project.
    output:
      properties:
        layout:
          type: string
          description: Directory tree of the project (JSON)
          value: "{{.steps.tree.output.content}}"
        readme:
          type: string
          description: First lines of README.md
          value: "{{.steps.readme.output.content}}"
        notes:
          type: string
          description: First lines of ${topic}.md, or a note that there is none
          value: "{{.steps.notes.output.content}}"
      required: [layout, readme]
`;
  },

  function forEach(name, topic) {
    return `  # forEach: one observation per entity the search finds, at most 8 at a time.
  - name: ${name}
    description: Add a dated ${topic} observation to every entity that matches a query.
    parameters:
      type: object
      properties:
        query:
          type: string
          description: Search text for the knowledge graph
        note:
          type: string
          description: Observation to add
      required: [query, note]
    steps:
      - id: find
        tool: memory.search_nodes
        arguments:
          query: "{{.params.query}}"
      - id: observe
        type: forEach
        dependsOn: [find]
        collection: "{{json .steps.find.output.entities}}"
        itemVar: entity
        maxParallel: 8
        maxIterations: 200
        step:
          id: add
          type: tool
          tool: memory.add_observations
          arguments:
            observations:
              - entityName: "{{.forEach.entity.name}}"
                contents: ["${topic}: {{.params.note}}"]
        onError:
          action: continue
        defaultResults:
          count: 0
    output:
      properties:
        matched:
          type: integer
          description: How many entities matched the query
          value: "{{.steps.observe.output.count}}"
      required: [matched]
`;
  },

  function gate(name, topic, slip) {
    return `  # Elicitation gate: nothing is deleted until the user confirms; a decline skips the delete.
  - name: ${name}
    description: Show the ${topic} entities that match a query and delete them after confirmation.
    parameters:
      type: object
      properties:
        query:
          type: string
          description: Search text for the entities to remove
        dry_run:
          type: boolean
          default: false
      required: [query]
    timeout: 10m
    annotations:
      title: Remove ${topic} entities
      destructiveHint: true
      idempotentHint: true
      openWorldHint: false
    steps:
      - id: matches
        tool: memory.search_nodes
        arguments:
          query: "{{.params.query}}"
      - id: confirm
        type: elicitation
        dependsOn: [matches]
        message: >-
          Delete {{len .steps.matches.output.entities}} ${topic} entities matching
          "{{.params.query}}"? This cannot be undone.
        schema:
          type: object
          properties:
            reason:
              type: string
              description: Why these entities go
          required: [reason]
        timeout: 5m
        onDecline:
          action: continue
        onCancel:
          action: abort
      - id: remove
        tool: memory.delete_entities
        dependsOn: [confirm]
        condition: '{{and (eq .steps.confirm.output.action "accept") (not .params.dry_run)}}'
        arguments:
          entityNames: ["{{.params.query}}"]
        defaultResults:
          success: false
          message: nothing deleted
    output:
      properties:
        decision:
          type: string
          description: accept, decline or cancel
          value: "{{.steps.confirm.output.action}}"
        deleted:
          type: boolean
          description: Whether the entities were deleted
          value: "{{.steps.remove.output.${slip ? 'succes' : 'success'}}}"
      required: [decision]
`;
  },

  function link(name, topic) {
    return `  # Two writes in order: the entity first, then its relation to the project.
  - name: ${name}
    description: Record a ${topic} document as an entity and link it to its project.
    parameters:
      type: object
      properties:
        project:
          type: string
          description: Project the document belongs to
        path:
          type: string
          description: Path of the document, relative to the allowed root
      required: [project, path]
    annotations:
      openWorldHint: false
      idempotentHint: false
    steps:
      - id: info
        tool: filesystem.get_file_info
        arguments:
          path: "{{.params.path}}"
      - id: store
        tool: memory.create_entities
        dependsOn: [info]
        arguments:
          entities:
            - name: "{{.params.path}}"
              entityType: ${topic}
              observations:
                - "{{.steps.info.output.content}}"
      - id: relate
        tool: memory.create_relations
        dependsOn: [store]
        arguments:
          relations:
            - from: "{{.params.path}}"
              to: "{{.params.project}}"
              relationType: documents
    output:
      properties:
        entities:
          type: array
          description: The entities written to the graph
          value: "{{json .steps.store.output.entities}}"
      required: [entities]
`;
  },
];

/** The i-th composite tool of a file (with the blank line that separates it from the one before). */
function compositeTool(next, i) {
  const shape = SHAPES[Math.floor(next() * SHAPES.length)];
  const topic = TOPICS[Math.floor(next() * TOPICS.length)];
  const slip = next() < 0.03;
  return `${i === 0 ? '' : '\n'}${shape(`${shape.name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}_${topic.replace(/-/g, '_')}_${i}`, topic, slip)}`;
}

const lineCount = (text) => text.split('\n').length - 1;

export function generate(out = DEFAULT_OUT, targetLines = DEFAULT_LINES) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'gateways'), { recursive: true });
  mkdirSync(join(out, 'catalogs'), { recursive: true });
  let lines = 0;
  let bytes = 0;
  let files = 0;
  let tools = 0;
  for (const name of CATALOGS) copyFileSync(join(CATALOG_DIR, name), join(out, 'catalogs', name));
  const next = random(0x7001);
  while (lines < targetLines) {
    const team = TEAMS[files % TEAMS.length];
    let text = header(team, files);
    // About a thousand lines per file: big enough to matter, as real gateway configs get.
    const perFile = 16 + Math.floor(next() * 8);
    for (let i = 0; i < perFile; i++) {
      text += compositeTool(next, i);
      tools++;
    }
    const path = join(out, 'gateways', `${team}-${String(files).padStart(3, '0')}.vmcp.yaml`);
    writeFileSync(path, text);
    lines += lineCount(text);
    bytes += Buffer.byteLength(text);
    files++;
  }
  return { dir: out, files, tools, lines, bytes };
}

/**
 * The second CLI workspace: `files` gateway configurations of `perFile` composite tools each
 * (about 250 to 450 lines a file), next to the same catalog snapshots: more, shorter files than
 * `generate`'s, so that what a run spends per file (reading, kind detection, the configuration's
 * globs, the catalog) weighs more against the parse. Deterministic.
 */
export const MANY_FILES = 240;
export const MANY_PER_FILE = 6;
export function generateMany(out, files = MANY_FILES, perFile = MANY_PER_FILE) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'gateways'), { recursive: true });
  mkdirSync(join(out, 'catalogs'), { recursive: true });
  const stats = { dir: out, files: 0, tools: 0, lines: 0, bytes: 0 };
  // As in `generate`, the figures count the gateway files, not the two snapshots beside them.
  for (const name of CATALOGS) copyFileSync(join(CATALOG_DIR, name), join(out, 'catalogs', name));
  const next = random(0x6006);
  for (let f = 0; f < files; f++) {
    const team = TEAMS[f % TEAMS.length];
    let text = header(team, f);
    for (let i = 0; i < perFile; i++) text += compositeTool(next, i);
    stats.tools += perFile;
    writeFileSync(join(out, 'gateways', `${team}-${String(f).padStart(3, '0')}.vmcp.yaml`), text);
    stats.files++;
    stats.lines += lineCount(text);
    stats.bytes += Buffer.byteLength(text);
  }
  return stats;
}

// ------------------------------------------------------------------------------------------------
// The language-server benchmark's inputs: one large document to edit, and a workspace of many
// smaller files of every kind the server checks at start-up.

/**
 * One gateway document of about `targetLines` lines (composite tools of every shape, a few
 * deliberate slips), for the edit-latency benchmark. Deterministic for a seed.
 */
export function generateDocument(targetLines = 2000, seed = 0x2000) {
  const next = random(seed);
  let text = header('platform', 0);
  let tools = 0;
  while (lineCount(text) < targetLines) text += compositeTool(next, tools++);
  return { text, tools, lines: lineCount(text), bytes: Buffer.byteLength(text) };
}

// Faces for the tools of the two reference servers, as a runtime's overlay would give them.
const FILESYSTEM_FACES = `  read_text_file:
    family: read
    pathTarget:
      param: path
      access: read
      base: cwd
      absent: refuse
    renderHints:
      approvalCard: generic
      userFacingName: Read file
      activity: Reading a text file from the workspace
      summaryParams: [path, head, tail]
    ruleFace:
      params: [path, head, tail]
      primaryParams: [path]

  list_directory:
    family: read
    pathTarget:
      param: path
      access: read
      base: cwd
      absent: base
    renderHints:
      userFacingName: List directory
      activity: Listing a directory
      summaryParams: [path]
    ruleFace:
      params: [path]

  directory_tree:
    family: read
    pathTarget:
      param: path
      access: read
      base: root
    renderHints:
      userFacingName: Directory tree
      summaryParams: [path, excludePatterns]
    ruleFace:
      params: [path]
      primaryParams: [path]

  search_files:
    family: search
    pathTarget:
      param: path
      access: read
      base: cwd
      absent: base
      patternParam: pattern
    renderHints:
      userFacingName: Search files
      activity: Searching the workspace for files by name
      summaryParams: [pattern, path]
    ruleFace:
      params: [path, pattern]
      primaryParams: [pattern]

  get_file_info:
    family: read
    pathTarget:
      param: path
      access: read
    renderHints:
      userFacingName: File info
      summaryParams: [path]
    ruleFace:
      params: [path]

  write_file:
    family: write
    pathTarget:
      param: path
      access: write
      base: cwd
      absent: refuse
    renderHints:
      approvalCard: generic
      userFacingName: Write file
      activity: Writing a file in the workspace (overwrites an existing file without asking)
      summaryParams: [path]
    ruleFace:
      params: [path]
      primaryParams: [path]
`;

const MEMORY_FACES = `  search_nodes:
    family: search
    renderHints:
      approvalCard: generic
      userFacingName: Search the knowledge graph
      activity: Searching entities, types and observations
      summaryParams: [query]
    ruleFace:
      params: [query]
      primaryParams: [query]

  read_graph:
    family: read
    renderHints:
      userFacingName: Read the knowledge graph

  open_nodes:
    family: read
    renderHints:
      userFacingName: Open entities
      summaryParams: [names]

  create_entities:
    family: write
    renderHints:
      approvalCard: generic
      userFacingName: Create entities
      summaryParams: [entities]

  delete_entities:
    family: delete
    renderHints:
      approvalCard: generic
      userFacingName: Delete entities
      activity: Deleting entities and their relations from the knowledge graph
      summaryParams: [entityNames]
`;

/**
 * A workspace of `files` files for the start-up benchmark: about 70% gateway configurations of
 * 2 to 8 composite tools (roughly 100 to 450 lines each), 15% catalog snapshots (the two
 * captures of the clean corpus, then copies renamed `filesystem-N` / `memory-N`) and 15% tool-face
 * overlays, one per catalogued server. Deterministic.
 */
export function generateLspWorkspace(out, files = 100) {
  rmSync(out, { recursive: true, force: true });
  for (const dir of ['gateways', 'catalogs', 'faces']) mkdirSync(join(out, dir), { recursive: true });
  const catalogs = Math.max(2, Math.round(files * 0.15));
  const overlays = Math.min(catalogs, Math.round(files * 0.15));
  const gateways = Math.max(0, files - catalogs - overlays);
  const next = random(0x1005);
  const servers = [];
  const stats = { dir: out, files: 0, gateways, catalogs, overlays, tools: 0, lines: 0, bytes: 0, paths: [] };
  const write = (path, text) => {
    writeFileSync(join(out, path), text);
    stats.files++;
    stats.lines += lineCount(text);
    stats.bytes += Buffer.byteLength(text);
    stats.paths.push(path);
  };
  const captures = CATALOGS.map((name) => JSON.parse(readFileSync(join(CATALOG_DIR, name), 'utf8')));
  for (let k = 0; k < catalogs; k++) {
    const capture = captures[k % captures.length];
    const copy = k < captures.length ? capture : { ...capture, server: `${capture.server}-${k}` };
    servers.push({ name: copy.server, faces: capture.server === 'filesystem' ? FILESYSTEM_FACES : MEMORY_FACES });
    write(`catalogs/${copy.server}.json`, `${JSON.stringify(copy, null, 2)}\n`);
  }
  for (let k = 0; k < overlays; k++) {
    const server = servers[k];
    write(
      `faces/${server.name}.faces.yaml`,
      `# Tool faces for ${server.name}: how the agent runtime treats its tools.\nserver: ${server.name}\ntoolFaces:\n${server.faces}`,
    );
  }
  for (let g = 0; g < gateways; g++) {
    const team = TEAMS[g % TEAMS.length];
    let text = header(team, g);
    const count = 2 + Math.floor(next() * 7);
    for (let i = 0; i < count; i++) text += compositeTool(next, i);
    stats.tools += count;
    write(`gateways/${team}-${String(g).padStart(3, '0')}.vmcp.yaml`, text);
  }
  return stats;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const linesAt = args.indexOf('--lines');
  const target = linesAt >= 0 ? Number(args.splice(linesAt, 2)[1]) : DEFAULT_LINES;
  const stats = generate(args[0] ?? DEFAULT_OUT, target);
  console.log(
    `${stats.files} files, ${stats.tools} composite tools, ${stats.lines} lines, ${(stats.bytes / 1e6).toFixed(1)} MB in ${stats.dir}`,
  );
}
