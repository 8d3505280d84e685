// `npm run demo`: checks the example workspace and prints what Tool Lens finds there. The examples
// hold planted mistakes (examples/README.md lists them), so findings (exit 1) are the expected
// outcome; only a usage or internal error (exit 2, 3) fails the demo.
import { spawnSync } from 'node:child_process';

// The example workspace is its own: its .toollens.yaml configures the run, as it would in a
// repository of its own (without --config, a run from here would take this folder as the workspace).
const args = ['dist/cli.js', 'check', 'examples', '--config', 'examples/.toollens.yaml', ...process.argv.slice(2)];
const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
const status = result.status ?? 3;
process.exit(status === 1 ? 0 : status);
