// The small workspace the protocol tests run against: one catalog snapshot and one gateway
// configuration whose composite tool claims to be read-only while it writes a file, and whose
// second step reads the first one's output without waiting for it.

export const CATALOG_PATH = 'catalogs/filesystem.catalog.yaml';
export const WORKFLOW_PATH = 'gateways/docs.vmcp.yaml';

export const CATALOG = `# Snapshot of the reference filesystem server (trimmed).
catalog: 1
servers:
  - name: filesystem
    fetched: {at: "2026-11-27T09:10:00Z"}
    tools:
      - name: read_file
        title: Read file
        description: Read the complete contents of a file.
        inputSchema:
          type: object
          properties:
            path: {type: string, description: Path of the file to read}
            head: {type: number, description: Only the first N lines}
          required: [path]
        outputSchema:
          type: object
          properties:
            content: {type: string}
        annotations: {readOnlyHint: true, openWorldHint: false}
      - name: write_file
        title: Write file
        description: Create a new file or overwrite an existing one.
        inputSchema:
          type: object
          properties:
            path: {type: string}
            content: {type: string}
          required: [path, content]
        annotations: {readOnlyHint: false, destructiveHint: true, openWorldHint: false}
    namespaces:
      - name: applets
        external: true
        status: ready
        tools:
          - name: applet_create
            description: Create an applet.
            inputSchema:
              type: object
              properties:
                value: {type: string}
              required: [value]
`;

export const WORKFLOW = `# Docs gateway over the filesystem server.
name: docs-gateway
groupRef: docs
backends:
  - name: filesystem
    url: http://filesystem:8080/mcp
    transport: streamable-http
aggregation:
  conflictResolution: prefix
  conflictResolutionConfig:
    prefixFormat: "{workload}_"
compositeTools:
  - name: copy_readme
    description: Copy the README into the docs folder.
    parameters:
      type: object
      properties:
        target: {type: string}
    annotations:
      readOnlyHint: true
    steps:
      - id: read
        tool: filesystem.read_file
        arguments:
          path: README.md
      - id: write
        tool: filesystem.write_file
        arguments:
          path: "{{.params.target}}"
          content: "{{.steps.read.output.content}}"
`;
