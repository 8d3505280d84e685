// `npm run demo`: checks the example workspace and prints what Tool Lens finds there. The examples
// hold planted mistakes (examples/README.md lists them), so findings (exit 1) are the expected
// outcome; only a usage or internal error (exit 2, 3) fails the demo.
import { spawnSync } from 'node:child_process';

const args = ['dist/cli.js', 'check', 'examples', ...process.argv.slice(2)];
const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
const status = result.status ?? 3;
process.exit(status === 1 ? 0 : status);
