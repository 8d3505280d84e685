// The README's screenshots, taken in code-server from a real run on a copy of examples/ (called
// from codeserver.test.ts): (a) the squiggle of the contradiction with the floor hover, (b) the quick
// fix menu of a bare dynamic-tool call (the envelope fix), (c) the workflow graph with its marks.
// Each is checked before it is taken: the hover holds the diagnostic once and the floor table, and
// not the contradiction a second time; the menu offers the envelope fix and no title twice; the
// graph marks the dropped composite, the step that breaks its claim and the race.
// The pictures always go to .tmp/e2e/; to docs/images/ (the committed ones the README shows) only
// with TOOL_LENS_E2E_SCREENSHOTS=1, so that a CI run leaves the tree clean.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Browser, Frame, Page } from 'playwright-core';

const ROOT = join(__dirname, '..', '..');
const EXAMPLES = join(ROOT, 'examples');
const TMP = join(ROOT, '.tmp', 'e2e');
const IMAGES = join(ROOT, 'docs', 'images');
const STEP_MS = 45000;
const TEST_MS = 120000;

const GATEWAY = 'gateways/docs-bot.vmcp.yaml';
const CALLS = 'calls/assistant.calls.yaml';

export interface ScreenshotContext {
  session(): { dir: string; port: number; browser: Browser };
  newPage(browser: Browser, problems: string[]): Promise<Page>;
  /** Counts a failure, so the run's folder is kept. */
  failed(): void;
}

/** The 1-based line of the first occurrence of `needle` in an examples/ file, as Go to Line takes it. */
function lineOf(text: string, needle: string): number {
  const index = text.indexOf(needle);
  assert.ok(index >= 0, `examples/ lacks ${needle}`);
  return text.slice(0, index).split('\n').length;
}

async function shoot(page: Page, name: string, keep: string[]): Promise<void> {
  mkdirSync(TMP, { recursive: true });
  await page.screenshot({ path: join(TMP, name) });
  keep.push(join(TMP, name));
  if (process.env.TOOL_LENS_E2E_SCREENSHOTS === '1') {
    mkdirSync(IMAGES, { recursive: true });
    await page.screenshot({ path: join(IMAGES, name) });
    keep.push(join(IMAGES, name));
  }
}

/** Types into the quick input that `key` opens and picks the row that shows `row` (a click, not Enter: the list may still be the last one's). */
async function quickPick(page: Page, key: string, text: string, row: string): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  await page.keyboard.press(key);
  await widget.waitFor({ state: 'visible' });
  await widget.locator('input').fill(text);
  await widget.locator('.monaco-list-row', { hasText: row }).first().click();
  await widget.waitFor({ state: 'hidden' });
}

async function openFile(page: Page, path: string, line: number, column?: number): Promise<void> {
  await quickPick(page, 'Control+P', path, path.split('/').pop()!);
  await page.locator(`.monaco-editor[data-uri$="${path}"] .view-lines`).waitFor();
  const widget = page.locator('.quick-input-widget');
  await page.keyboard.press('Control+G');
  await widget.waitFor({ state: 'visible' });
  await widget.locator('input').fill(`:${line}${column ? `:${column}` : ''}`);
  await page.keyboard.press('Enter');
  await widget.waitFor({ state: 'hidden' });
}

async function frameWith(page: Page, selector: string): Promise<Frame> {
  const deadline = Date.now() + STEP_MS;
  for (;;) {
    for (const frame of page.frames()) {
      if (
        await frame
          .locator(selector)
          .count()
          .catch(() => 0)
      )
        return frame;
    }
    if (Date.now() > deadline) throw new Error(`no frame shows ${selector}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export function screenshotTests(ctx: ScreenshotContext): void {
  test(
    'in the browser: the README screenshots (floor hover, envelope quick fix, graph), each checked',
    { timeout: TEST_MS },
    async (t) => {
      const s = ctx.session();
      const problems: string[] = [];
      const shots: string[] = [];
      let page: Page | undefined;
      try {
        const workspace = join(s.dir, 'workspace-examples');
        cpSync(EXAMPLES, workspace, { recursive: true });
        const gatewayText = readFileSync(join(EXAMPLES, GATEWAY), 'utf8');
        const callsText = readFileSync(join(EXAMPLES, CALLS), 'utf8');
        page = await ctx.newPage(s.browser, problems);
        page.setDefaultTimeout(STEP_MS);
        await page.goto(`http://127.0.0.1:${s.port}/?folder=${encodeURIComponent(workspace)}`);
        await page.locator('.monaco-workbench').waitFor();

        // (a) The contradiction's squiggle, hovered: the diagnostic once, then the floor table.
        // publish_release_notes claims read-only while its step "write" writes.
        const hint = lineOf(gatewayText, '      title: Publish release notes\n      readOnlyHint: true') + 1;
        await openFile(page, GATEWAY, hint);
        const editor = page.locator(`.monaco-editor[data-uri$="${GATEWAY}"]`);
        const squiggle = editor.locator('.squiggly-error').first();
        await squiggle.waitFor();
        await editor.locator('.codelens-decoration', { hasText: 'Dropped by the gateway' }).first().waitFor();
        const box = (await squiggle.boundingBox()) ?? assert.fail('the squiggle has no box');
        await page.mouse.move(box.x + Math.min(40, box.width / 2), box.y + box.height / 2);
        const hover = page.locator('.monaco-hover:visible', { hasText: 'decided by' });
        await hover.first().waitFor();
        const hoverText = (await hover.first().innerText()).replace(/\s+/g, ' ');
        assert.match(hoverText, /readOnlyHint: true is safer than the steps: .*Step "write"/, 'the diagnostic');
        assert.equal(
          hoverText.split('readOnlyHint: true is safer than the steps').length - 1,
          1,
          `the diagnostic once: ${hoverText}`,
        );
        assert.doesNotMatch(
          hoverText,
          /⚠ \*\*[a-z_]+\*\* is dropped by the gateway/,
          'the hover does not say the contradiction again',
        );
        await shoot(page, 'floor-hover.png', shots);
        await page.keyboard.press('Escape');

        // (b) The quick fix menu of a bare call to a dynamic tool: the envelope fix, each title once.
        await openFile(page, CALLS, lineOf(callsText, '  - tool: applet_create'), 11);
        const calls = page.locator(`.monaco-editor[data-uri$="${CALLS}"]`);
        await calls.locator('.squiggly-error').first().waitFor();
        // The mouse away from the tabs the quick open's row left it over (no tab tooltip in the picture).
        await page.mouse.move(1000, 820);
        await page.keyboard.press('Control+.');
        const menu = page.locator('.action-widget');
        await menu.locator('.monaco-list-row', { hasText: 'Call through call_dynamic_tool' }).first().waitFor();
        const titles = (await menu.locator('.monaco-list-row.action').allInnerTexts()).map((text) =>
          text.replace(/\s+/g, ' ').trim(),
        );
        t.diagnostic(`quick fixes: ${JSON.stringify(titles)}`);
        assert.deepEqual(titles, [...new Set(titles)], 'no title twice');
        await shoot(page, 'envelope-quick-fix.png', shots);
        await page.keyboard.press('Escape');

        // (c) The graph of publish_release_notes (the composite around the cursor).
        await openFile(page, GATEWAY, hint);
        await quickPick(page, 'F1', '>Tool Lens: Show Workflow Graph', 'Show Workflow Graph');
        await page.locator('.tab', { hasText: 'Graph: publish_release_notes · docs-bot.vmcp.yaml' }).waitFor();
        const graph = await frameWith(page, 'svg .node');
        await graph.locator('.dropped', { hasText: 'Dropped by the gateway' }).waitFor();
        assert.ok(await graph.locator('.node[data-marks~="breaks-claim"]').count(), 'a step that breaks the claim');
        assert.ok(await graph.locator('.node[data-marks~="race"]').count(), 'the race');
        assert.equal(await graph.locator('.edge.reads').count(), 1, 'the race as a reads edge');
        await page.mouse.move(1300, 820);
        await page.locator('.workbench-hover').first().waitFor({ state: 'hidden' });
        await shoot(page, 'workflow-graph.png', shots);
        t.diagnostic(`screenshots: ${shots.join(', ')}`);
      } catch (error) {
        ctx.failed();
        if (page) {
          mkdirSync(TMP, { recursive: true });
          await page.screenshot({ path: join(TMP, 'screenshots-fail.png') }).catch(() => undefined);
          problems.push(`screenshot of the failure: ${join(TMP, 'screenshots-fail.png')}`);
        }
        throw new Error(`${error instanceof Error ? error.message : String(error)}\n${problems.join('\n')}`, {
          cause: error,
        });
      } finally {
        await page?.close();
      }
    },
  );
}
