// client/unpinned-package: a server that its client starts by fetching a package or an image with
// no fixed version (`npx -y pkg`, `pkg@latest`, `uvx pkg`, `uv run --with pkg`, a git source with
// no ref, `docker run image` with no tag or `:latest`). Each start may run other code than the one
// reviewed. Client-neutral: every client runs `command` with `args` as written. Info by default.
import { fetchedBy, type Fetched } from '../../model/clientLaunch.js';
import { clientViewOf } from '../../model/clients.js';
import { defineRule } from '../rule.js';

const HOW: Record<Fetched['kind'], string> = {
  npm: 'a version (name@1.2.3)',
  python: 'a version (name==1.2.3)',
  git: 'a tag or commit (#ref or @ref)',
  image: 'a tag or digest (image:1.2.3)',
};

export const rule = defineRule({
  id: 'client/unpinned-package',
  defaultSeverity: 'info',
  summary: 'A server fetched unpinned on each start (`npx -y pkg`, `@latest`, `uvx pkg`, an image without a tag).',
  kinds: ['mcp-servers'],
  messages: {
    unpinned: (d: { spec: string; runner: string; how: string }) =>
      `"${d.spec}" is fetched unpinned: pin ${d.how}. ${d.runner} fetches it at each start, so what runs can change unreviewed.`,
  },
  check(ctx) {
    for (const server of clientViewOf(ctx).servers) {
      for (const fetched of fetchedBy(server.entry)) {
        if (fetched.pinned) continue;
        ctx.report({
          messageId: 'unpinned',
          data: { spec: fetched.spec, runner: fetched.runner, how: HOW[fetched.kind] },
          span: fetched.node.span,
        });
      }
    }
  },
});
