// The MCP SDK's client side as a lazy chunk (scripts/build.mjs, LAZY_CHUNKS): with zod and its
// transports, half a megabyte that only a catalog fetch runs. sdk.ts requires this module's file
// on the first fetch, so no other start parses it.
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
export { DEFAULT_INHERITED_ENV_VARS, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
