// The document-kind schema files as a lazy chunk (scripts/build.mjs, LAZY_CHUNKS): a quarter of a
// megabyte of objects that validate.ts (bundledSchemas) loads on the first document it validates.
// In the chunk each file is one JSON.parse of its text (jsonParsePlugin), which V8 reads faster
// than the same object as code.
import faceOverlaySchema from '../../../../schemas/face-overlay.schema.json';
import mcpServersSchema from '../../../../schemas/mcp-servers.schema.json';
import toolCallsSchema from '../../../../schemas/tool-calls.schema.json';
import toolCatalogSchema from '../../../../schemas/tool-catalog.schema.json';
import toolhiveKeysSchema from '../../../../schemas/toolhive-keys.schema.json';
import vmcpCommonSchema from '../../../../schemas/vmcp-common.schema.json';
import vmcpCompositeSchema from '../../../../schemas/vmcp-composite.schema.json';
import vmcpConfigSchema from '../../../../schemas/vmcp-config.schema.json';
import vmcpServerSchema from '../../../../schemas/vmcp-server.schema.json';

/** The files generate-validators.mjs compiles (its SCHEMA_FILES), by name, as bundled objects. */
export const BUNDLED_SCHEMAS: Record<string, object> = {
  'toolhive-keys.schema.json': toolhiveKeysSchema,
  'vmcp-common.schema.json': vmcpCommonSchema,
  'face-overlay.schema.json': faceOverlaySchema,
  'vmcp-config.schema.json': vmcpConfigSchema,
  'vmcp-server.schema.json': vmcpServerSchema,
  'vmcp-composite.schema.json': vmcpCompositeSchema,
  'tool-catalog.schema.json': toolCatalogSchema,
  'mcp-servers.schema.json': mcpServersSchema,
  'tool-calls.schema.json': toolCallsSchema,
};
