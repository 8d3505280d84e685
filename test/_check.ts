import { checkFile } from '/work/main/server/src/core/engine.js';
import { loadWorkspace } from '/work/main/server/src/node/loader.js';
const dir = process.argv[2]!;
const only = process.argv[3];
const loaded = loadWorkspace({ paths: ['.'], cwd: dir, log: (m) => console.error('LOG', m) });
for (const file of loaded.files) {
  const r = checkFile(file, loaded.workspace);
  for (const f of r.findings) {
    if (only && !f.rule.startsWith(only)) continue;
    const p = file.source.positionAt(f.span.start);
    console.log(`${file.path}:${p.line + 1}:${p.character + 1} ${f.severity} ${f.rule} ${f.message}${f.fixes ? ' FIXES: ' + f.fixes.map((x) => x.title).join(' | ') : ''}`);
  }
}
