// face/closed-set: a face value outside its closed set (family, access, base, absent, approval
// card). Needs no catalog. The fix is a "did you mean" that rewrites just the value.
import {
  TOOL_APPROVAL_CARD_NAMES,
  TOOL_FAMILIES,
  TOOL_PATH_ABSENCES,
  TOOL_PATH_ACCESSES,
  TOOL_PATH_BASES,
} from '../../faceVocabulary/constants.js';
import { facesOf, type FaceString } from '../../model/faces.js';
import { closest } from '../../text/suggest.js';
import { defineRule, type RuleContext } from '../rule.js';
import { editContextOf } from '../../edit/mappingEdits.js';
import { listOf } from '../../text/words.js';
import { quote, refusedToMount, replaceScalarFix } from '../../wording/faceWords.js';
import { FACE_KINDS } from '../../types.js';

// Words people write for a member of each set that no edit distance would find.
const FAMILY_SYNONYMS: Record<string, string> = {
  exec: 'execute',
  run: 'execute',
  shell: 'execute',
  bash: 'execute',
  command: 'execute',
  remove: 'delete',
  rm: 'delete',
  rename: 'move',
  mv: 'move',
  get: 'fetch',
  http: 'fetch',
  web: 'fetch',
  find: 'search',
  grep: 'search',
  glob: 'search',
  list: 'read',
  create: 'write',
  modify: 'edit',
  update: 'edit',
  ask: 'question',
};
const ACCESS_SYNONYMS: Record<string, string> = {
  readonly: 'read',
  ro: 'read',
  rw: 'write',
  readwrite: 'write',
  modify: 'write',
};
const BASE_SYNONYMS: Record<string, string> = { workspace: 'cwd', workdir: 'cwd', pwd: 'cwd', '.': 'cwd', '/': 'root' };
const ABSENT_SYNONYMS: Record<string, string> = {
  reject: 'refuse',
  deny: 'refuse',
  error: 'refuse',
  fail: 'refuse',
  scope: 'base',
  default: 'base',
};
const CARD_SYNONYMS: Record<string, string> = {
  edit: 'file-edit',
  write: 'file-write',
  notebook: 'notebook-edit',
  bash: 'shell',
  command: 'shell',
  exec: 'shell',
  web: 'fetch',
  http: 'fetch',
  url: 'fetch',
  default: 'generic',
  none: 'generic',
};

const messages = {
  /** `field`: the face field; `set`: the values it allows; `guess`: the one probably meant. */
  notAllowed: ({
    field,
    value,
    set,
    guess,
    toolName,
  }: {
    field: string;
    value: string;
    set: readonly string[];
    guess: string | undefined;
    toolName: string;
  }) =>
    `${field.includes('.') ? field : `\`${field}\``} ${quote(value)} is not allowed: ${guess ? `did you mean ${quote(guess)}?` : 'use an allowed value.'} It is not one of ${listOf(set)}. ${refusedToMount(toolName)}`,
};

export const rule = defineRule({
  id: 'face/closed-set',
  defaultSeverity: 'error',
  summary: 'A face value outside its closed set.',
  kinds: FACE_KINDS,
  messages,
  check(ctx) {
    for (const server of facesOf(ctx).servers) {
      for (const face of server.faces) {
        const check = (
          field: string,
          value: FaceString | undefined,
          set: readonly string[],
          synonyms: Record<string, string>,
        ) => {
          if (value && !set.includes(value.value)) report(ctx, face.toolName, field, value, set, synonyms);
        };
        check('family', face.family, TOOL_FAMILIES, FAMILY_SYNONYMS);
        check('pathTarget.access', face.pathTarget?.access, TOOL_PATH_ACCESSES, ACCESS_SYNONYMS);
        check('pathTarget.base', face.pathTarget?.base, TOOL_PATH_BASES, BASE_SYNONYMS);
        check('pathTarget.absent', face.pathTarget?.absent, TOOL_PATH_ABSENCES, ABSENT_SYNONYMS);
        check('renderHints.approvalCard', face.renderHints?.approvalCard, TOOL_APPROVAL_CARD_NAMES, CARD_SYNONYMS);
      }
    }
  },
});

function report(
  ctx: RuleContext<typeof messages>,
  toolName: string,
  field: string,
  value: FaceString,
  set: readonly string[],
  synonyms: Record<string, string>,
): void {
  const guess = closest(value.value, set, { synonyms });
  ctx.report({
    messageId: 'notAllowed',
    data: { field, value: value.value, set, guess, toolName },
    span: value.node.span,
    fixes: guess ? replaceScalarFix(editContextOf(ctx.file), value.node, guess) : [],
  });
}
