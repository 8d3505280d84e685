// The one sentence every finding that waits for a catalog ends with: how to add one.
// Several rule families say it, so it lives here, once.

/** How to add a catalog for a server (or for "the server" when there is no single one to name). */
export function addCatalogAdvice(serverName?: string): string {
  const file = serverName ? `${serverName}.tools.json` : '<server>.tools.json';
  const fetch = serverName ? `tool-lens catalog fetch ${serverName}` : 'tool-lens catalog fetch';
  return (
    `To add one, save the server's tools/list result as ${file} or in a "catalog: 1" file (\`${fetch}\` writes one), ` +
    `list existing snapshots under catalogs: in .toollens.yaml, or map the workload to a catalogued server under workloads:.`
  );
}

/** How to add a catalog for the servers named, naming the server when there is exactly one. */
export function addCatalogAdviceFor(servers: readonly { serverName: string }[]): string {
  return addCatalogAdvice(servers.length === 1 ? servers[0]!.serverName : undefined);
}
