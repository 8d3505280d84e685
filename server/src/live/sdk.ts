// The MCP SDK, loaded on first use: it costs about 90 ms to load, and every `tool-lens check` and
// every language-server start would pay that for a feature used only when a user asks to fetch.
import type * as ClientModule from '@modelcontextprotocol/sdk/client/index.js';
import type * as SseModule from '@modelcontextprotocol/sdk/client/sse.js';
import type * as StdioModule from '@modelcontextprotocol/sdk/client/stdio.js';
import type * as HttpModule from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type * as TypesModule from '@modelcontextprotocol/sdk/types.js';

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
export async function loadSdk(): Promise<McpSdk> {
  if (!loaded) {
    // Dynamic imports: the bundler keeps these modules unevaluated until this runs.
    const [client, sse, stdio, http, types] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/sse.js'),
      import('@modelcontextprotocol/sdk/client/stdio.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
    // The same classes either way; TypeScript only sees the ESM and the CJS declarations of the
    // package as different types, so the module shapes are asserted once here.
    loaded = {
      Client: client.Client as unknown as McpSdk['Client'],
      SSEClientTransport: sse.SSEClientTransport as unknown as McpSdk['SSEClientTransport'],
      StdioClientTransport: stdio.StdioClientTransport as unknown as McpSdk['StdioClientTransport'],
      DEFAULT_INHERITED_ENV_VARS: stdio.DEFAULT_INHERITED_ENV_VARS,
      StreamableHTTPClientTransport:
        http.StreamableHTTPClientTransport as unknown as McpSdk['StreamableHTTPClientTransport'],
      ResultSchema: types.ResultSchema as unknown as McpSdk['ResultSchema'],
    };
  }
  return loaded;
}

/** The loaded SDK; only valid after `loadSdk()` has resolved. */
export function sdk(): McpSdk {
  if (!loaded) throw new Error('the MCP SDK was used before loadSdk() finished');
  return loaded;
}
