// How messages name a call site and its tool: `Step "fetch"`, `Call "notify_user"`,
// `Dynamic call "applet_create"` (through call_dynamic_tool), `applet_create (namespace "applets")`.
// Every rule about calls and steps starts its message this way, so the words live once.

/** Who a finding about a call site is about: data from the analyses, words from here. */
export type CallSubject =
  | { kind: 'step'; stepId: string }
  /** A recorded or example call; `place` is `#3` or `on line 3` when it names no tool. */
  | { kind: 'call'; name?: string; place: string }
  /** A call_dynamic_tool envelope that names its inner tool. */
  | { kind: 'dynamic-call'; toolName: string; through: string };

export function subjectWords(subject: CallSubject): string {
  switch (subject.kind) {
    case 'step':
      return `Step "${subject.stepId}"`;
    case 'call':
      return subject.name !== undefined ? `Call "${subject.name}"` : `Call ${subject.place}`;
    case 'dynamic-call':
      // Short: the subject opens the headline, what a Problems panel row shows.
      return `Dynamic call "${subject.toolName}"`;
  }
}

/** The same inside a sentence: `call "notify_user"` (a step and a dynamic call keep their words). */
export function subjectInSentence(subject: CallSubject): string {
  return subject.kind === 'call' ? `c${subjectWords(subject).slice(1)}` : subjectWords(subject);
}

/** The tool as messages name it: `applet_create (namespace "applets")` for a dynamic tool. */
export function toolWords(tool: { name: string; namespace?: string }): string {
  return tool.namespace !== undefined ? `${tool.name} (namespace "${tool.namespace}")` : tool.name;
}

/** The tool a call's arguments go to: as a step wrote it, else by its catalog name. */
export function calledToolWords(place: { tool: { name: string; namespace?: string }; writtenName?: string }): string {
  return place.writtenName ?? toolWords(place.tool);
}
