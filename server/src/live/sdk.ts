// The MCP SDK, loaded on first use: it costs about 90 ms to load, and every `tool-lens check` and
// every language-server start would pay that for a feature used only when a user asks to fetch.
import type * as ClientModule from '@modelcontextprotocol/sdk/client/index.js';
import type * as SseModule from '@modelcontextprotocol/sdk/client/sse.js';
import type * as StdioModule from '@modelcontextprotocol/sdk/client/stdio.js';
import type * as HttpModule from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type * as TypesModule from '@modelcontextprotocol/sdk/types.js';
import type * as SdkChunk from './sdk.chunk.js';

export interface McpSdk {
  Client: typeof ClientModule.Client;
  SSEClientTransport: typeof SseModule.SSEClientTransport;
  StdioClientTransport: typeof StdioModule.StdioClientTransport;
  DEFAULT_INHERITED_ENV_VARS: typeof StdioModule.DEFAULT_INHERITED_ENV_VARS;
  StreamableHTTPClientTransport: typeof HttpModule.StreamableHTTPClientTransport;
  ResultSchema: typeof TypesModule.ResultSchema;
}

let loaded: McpSdk | undefined;

/** Loads the SDK once; `fetchCatalog` awaits this before anything calls `sdk()`. */
export function loadSdk(): Promise<McpSdk> {
  if (!loaded) {
    // A lazy chunk (sdk.chunk.ts), its own file beside the bundles: a start that fetches nothing
    // never parses it. A literal path in a function: the build keeps it a require of that file.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const chunk = require('./sdk.chunk.js') as typeof SdkChunk;
    loaded = {
      Client: chunk.Client,
      SSEClientTransport: chunk.SSEClientTransport,
      StdioClientTransport: chunk.StdioClientTransport,
      DEFAULT_INHERITED_ENV_VARS: chunk.DEFAULT_INHERITED_ENV_VARS,
      StreamableHTTPClientTransport: chunk.StreamableHTTPClientTransport,
      ResultSchema: chunk.ResultSchema,
    };
  }
  return Promise.resolve(loaded);
}

/** The loaded SDK; only valid after `loadSdk()` has resolved. */
export function sdk(): McpSdk {
  if (!loaded) throw new Error('the MCP SDK was used before loadSdk() finished');
  return loaded;
}
