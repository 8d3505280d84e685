// `tool-lens gateway tools`: the tool list each gateway advertises, against lists computed by hand
// from docs/toolhive.md#building-the-tool-list and #what-a-session-lists for each conflict strategy,
// a filter, an override, and each reason a composite is withheld.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runCli } from './harness.js';

interface Entry {
  name: string;
  kind: 'backend' | 'composite';
  from?: string;
  status?: string;
  reason?: string;
  annotations?: Record<string, boolean | string> | null;
  certain: boolean;
  location: { path: string; line: number; column: number };
}

interface Report {
  path: string;
  name: string | null;
  kind: string;
  strategy: string;
  workloadsFrom: string;
  advertised: Entry[];
  withheld: Entry[];
  unknown: { workload: string; server: string; reason: string }[];
  externalDefinitions: string[];
  errors: number;
}

function reports(args: string[] = ['gateway-tools']): Map<string, Report> {
  const run = runCli(['gateway', 'tools', ...args, '--format', 'json']);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr, '');
  const parsed = JSON.parse(run.stdout) as { version: number; gateways: Report[] };
  assert.equal(parsed.version, 1);
  return new Map(parsed.gateways.map((g) => [g.path.split('/').slice(-2, -1)[0]!, g]));
}

const names = (entries: Entry[]) =>
  entries.map((e) => `${e.kind === 'backend' ? e.from : 'composite'} → ${e.name}${e.status ? ` (${e.status})` : ''}`);

describe('tool-lens gateway tools', () => {
  const all = reports();

  test('prefix: every backend tool under {workload}_, the override rename prefixed, the filter hides', () => {
    const gateway = all.get('prefix')!;
    assert.equal(gateway.name, 'prefixed');
    assert.equal(gateway.strategy, 'prefix ({workload}_)');
    assert.equal(gateway.workloadsFrom, 'backends');
    assert.deepEqual(names(gateway.advertised), [
      'alpha.search → alpha_search',
      'alpha.write_note → alpha_write_note',
      'alpha.purge → alpha_wipe',
      'beta.search → beta_search',
      'composite → research',
    ]);
    assert.deepEqual(names(gateway.withheld), [
      'beta.fetch_page → beta_fetch_page (hidden)',
      'composite → save_page (contradiction)',
      'composite → gone (left-out)',
    ]);
    const hidden = gateway.withheld[0]!;
    assert.match(
      hidden.reason!,
      /the filter of workload "beta" does not list "fetch_page"; composite steps can still call it/,
    );
    assert.deepEqual(hidden.location, { path: 'gateway-tools/catalogs/backends.catalog.yaml', line: 24, column: 15 });
    assert.match(gateway.withheld[1]!.reason!, /readOnlyHint: true but the steps give false/);
    assert.match(gateway.withheld[2]!.reason!, /step "missing" \(alpha_nothing\) does not resolve/);
  });

  test("a composite's advertised annotations: the floor with its explicit hints laid over", () => {
    const research = all.get('prefix')!.advertised.find((e) => e.name === 'research')!;
    // Both steps are read-only; beta's search omits destructiveHint and is open-world.
    assert.deepEqual(research.annotations, { readOnlyHint: true, destructiveHint: true, openWorldHint: true });
    assert.equal(research.certain, true);
    assert.deepEqual(research.location, { path: 'gateway-tools/prefix/gateway.vmcp.yaml', line: 20, column: 11 });
    const alpha = all.get('prefix')!.advertised[0]!;
    assert.deepEqual(alpha.annotations, { readOnlyHint: true, destructiveHint: false, openWorldHint: false });
  });

  test('priority: the first in priorityOrder keeps a shared name, the other is dropped; a clash leaves out every composite', () => {
    const gateway = all.get('priority')!;
    assert.deepEqual(names(gateway.advertised), [
      'alpha.search → search',
      'alpha.write_note → write_note',
      'alpha.purge → purge',
      'beta.fetch_page → fetch_page',
    ]);
    assert.deepEqual(names(gateway.withheld), [
      'beta.search → search (dropped)',
      'composite → fetch_page (name-conflict)',
      'composite → lookup (name-conflict)',
    ]);
    assert.match(gateway.withheld[0]!.reason!, /lost the name "search" to alpha\.search/);
    assert.match(gateway.withheld[1]!.reason!, /named like the advertised backend tool beta\.fetch_page/);
    assert.match(gateway.withheld[2]!.reason!, /left out with every composite tool: "fetch_page" is named like/);
    assert.equal(gateway.errors, 1, 'tool/name-conflict');
  });

  test('manual: overrides give the shared name two names; a workload without a catalog is unknown, and what depends on it uncertain', () => {
    const gateway = all.get('manual')!;
    assert.deepEqual(names(gateway.advertised), [
      'alpha.search → search_notes',
      'alpha.write_note → write_note',
      'alpha.purge → purge',
      'beta.search → search_web',
      'beta.fetch_page → fetch_page',
      'composite → digest',
    ]);
    assert.deepEqual(gateway.withheld, []);
    assert.equal(gateway.advertised.find((e) => e.name === 'fetch_page')!.annotations, null);
    const digest = gateway.advertised.find((e) => e.name === 'digest')!;
    assert.equal(digest.certain, false);
    assert.deepEqual(
      gateway.unknown.map((u) => u.workload),
      ['gamma'],
    );
    assert.equal(gateway.errors, 0);
  });

  test('a VirtualMCPServer: a definition referenced and written in the file is listed, one kept in the cluster is named as unknown', () => {
    const gateway = all.get('k8s')!;
    assert.equal(gateway.kind, 'vmcp-server');
    assert.equal(gateway.name, 'team');
    assert.equal(gateway.workloadsFrom, 'catalog', 'no backends list: the catalogued servers stand in for the group');
    const digest = gateway.advertised.find((e) => e.kind === 'composite')!;
    assert.equal(digest.name, 'notes_digest');
    assert.deepEqual(digest.annotations, { readOnlyHint: true, destructiveHint: false, openWorldHint: false });
    assert.deepEqual(digest.location, { path: 'gateway-tools/k8s/gateway.yaml', line: 26, column: 9 });
    assert.deepEqual(gateway.externalDefinitions, ['defined-in-cluster']);
  });

  test('the table says the same for people', () => {
    const run = runCli(['gateway', 'tools', 'gateway-tools', '--no-color']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^gateway-tools\/manual\/gateway\.vmcp\.yaml:2: gateway "manual", manual strategy$/m);
    assert.match(run.stdout, /^ {4}search_web +beta\.search +read-only, open-world$/m);
    assert.match(
      run.stdout,
      /^ {4}digest +composite +not read-only, destructive, open-world \(if the uncatalogued steps resolve\)$/m,
    );
    assert.match(run.stdout, /^ {4}workload "gamma": no catalog for server "gamma"/m);
    assert.match(run.stdout, /^ {4}beta_fetch_page +hidden +beta\.fetch_page: the filter of workload "beta"/m);
  });

  test('a folder without a gateway is a usage error', () => {
    const run = runCli(['gateway', 'tools', 'one-error/catalogs']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /no gateway configuration \(vmcp-config or VirtualMCPServer\) in one-error\/catalogs/);
    const typo = runCli(['gateway', 'list']);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /unknown gateway command "list"/);
  });

  test("the examples' gateways: the contradicting composite is withheld, the hidden tools listed with their reason", () => {
    const run = runCli(['gateway', 'tools', '.', '--format', 'json'], { cwd: `${__dirname}/../../examples` });
    assert.equal(run.code, 0, run.stderr);
    const gateways = (JSON.parse(run.stdout) as { gateways: Report[] }).gateways;
    assert.deepEqual(
      gateways.map((g) => g.path),
      ['gateways/docs-bot.vmcp.yaml', 'gateways/docs-release.k8s.yaml', 'gateways/knowledge.vmcp.json'],
    );
    const docsBot = gateways[0]!;
    assert.deepEqual(names(docsBot.withheld), ['composite → publish_release_notes (contradiction)']);
    assert.equal(docsBot.workloadsFrom, 'backends');
    const knowledge = gateways[2]!;
    assert.ok(knowledge.withheld.every((e) => e.status === 'hidden' && e.from!.startsWith('filesystem.')));
    assert.deepEqual(names(knowledge.advertised).slice(-1), ['composite → record_decision']);
  });
});
