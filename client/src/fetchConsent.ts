// The words and the memory of "Fetch Catalog from an MCP Server": the quick pick rows, the consent
// prompt, and the consents given, kept in the workspace state per exact launch (its fingerprint,
// so the answer never holds a secret). No `vscode` import, so the tests use it directly.
import type { LiveServerItem } from '../../server/src/lsp/protocol.js';

export const CONSENT_KEY = 'toolLens.fetchConsent';

/** One consent: what was agreed to, as shown (secrets masked), by fingerprint. */
interface ConsentRecord {
  server: string;
  commandLine: string;
  at: string;
}

/** The part of `vscode.Memento` used here. */
export interface MementoLike {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

function consents(memento: MementoLike): Record<string, ConsentRecord> {
  const stored = memento.get<Record<string, ConsentRecord>>(CONSENT_KEY);
  return stored && typeof stored === 'object' ? stored : {};
}

/** Whether the user already agreed to this exact launch (any change of it asks again). */
export function hasConsent(memento: MementoLike, item: LiveServerItem): boolean {
  return item.fingerprint !== undefined && Object.prototype.hasOwnProperty.call(consents(memento), item.fingerprint);
}

export async function recordConsent(memento: MementoLike, item: LiveServerItem, now = new Date()): Promise<void> {
  if (!item.fingerprint || !item.commandLine) return;
  const all = consents(memento);
  // The server's earlier launches no longer run: their consents go, so the list stays small.
  for (const [fingerprint, record] of Object.entries(all)) if (record.server === item.name) delete all[fingerprint];
  all[item.fingerprint] = { server: item.name, commandLine: item.commandLine, at: now.toISOString() };
  await memento.update(CONSENT_KEY, all);
}

export interface PickRow {
  label: string;
  description: string;
  detail: string;
}

/** A quick pick row: name; transport (or why it cannot be fetched) and where it is declared; the command line. */
export function pickRow(item: LiveServerItem): PickRow {
  const how = item.blocked
    ? item.blocked.reason === 'needs-input'
      ? 'needs input'
      : 'cannot be fetched'
    : (item.transport ?? 'stdio');
  const state = item.pending
    ? ' · fetching now'
    : item.catalogued
      ? ` · has a catalog${item.fetchedAt ? ` (fetched ${item.fetchedAt})` : ''}`
      : '';
  return {
    label: item.blocked ? `$(circle-slash) ${item.name}` : item.name,
    description: `${how} · ${item.declaredIn}${state}`,
    detail: item.blocked ? `Cannot be fetched: ${item.blocked.message}` : (item.commandLine ?? ''),
  };
}

/** The button that declines: the modal's first, so Enter (and Escape, through `close`) starts nothing. */
export const CONSENT_CANCEL = 'Cancel';
/** The modal's close affordance (Escape, the window's close box): declines too. */
export const CONSENT_CLOSE = 'Close';

/** Where the snapshot goes, and whether it replaces one, in a sentence. */
function snapshotWords(item: LiveServerItem): string {
  const snapshot = item.snapshot;
  if (!snapshot) return 'The tools are saved as a snapshot in catalogs/ that you can commit.';
  if (snapshot.replaces) {
    const when = item.fetchedAt ? ` (fetched ${item.fetchedAt})` : '';
    return `The tools are saved to ${snapshot.file}, replacing the snapshot already there${when}: commit or compare it first if you want to keep it.`;
  }
  return `The tools are saved to ${snapshot.file}, a new snapshot you can commit.`;
}

/**
 * The modal that asks before anything starts: the exact command line (secrets masked), what
 * happens, and the snapshot file written (new, or replacing one). `buttons` in their order: Cancel
 * first, so that the default (Enter) starts nothing; then the action.
 */
export function consentPrompt(item: LiveServerItem): {
  message: string;
  detail: string;
  action: string;
  buttons: string[];
} {
  const stdio = (item.transport ?? 'stdio') === 'stdio';
  const file = item.declaredIn.replace(/:\d+$/, '');
  const action = stdio ? 'Start and Fetch' : 'Connect and Fetch';
  const message = stdio
    ? `Start the MCP server "${item.name}" to fetch its tools?`
    : `Connect to the MCP server "${item.name}" to fetch its tools?`;
  const what = stdio
    ? [
        `Tool Lens will run this command, as ${item.declaredIn} declares it, without a shell:`,
        '',
        item.commandLine ?? '',
        '',
        'It runs code that this workspace chose: the program is shown as the absolute path that will run. It gets only PATH and HOME from your environment, plus the variables ' +
          `that ${file} sets (those that decide which program runs or what it loads, such as PATH or NODE_OPTIONS, are shown; the others' values are hidden), and it is stopped as soon as its tools are listed, or when it does not answer in time.`,
      ]
    : [
        `Tool Lens will connect to this address, as ${item.declaredIn} declares it (header and query values hidden):`,
        '',
        item.commandLine ?? '',
        '',
        'It sends the headers the config sets and lists the tools; nothing else is called.',
      ];
  return {
    message,
    detail: [
      ...what,
      '',
      snapshotWords(item),
      '',
      `Tool Lens remembers your answer for this exact ${stdio ? 'command line' : 'address'} and asks again when it changes.`,
    ].join('\n'),
    action,
    buttons: [CONSENT_CANCEL, action],
  };
}
