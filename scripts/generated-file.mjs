// Writes a generated file, or with `--check` on the command line fails (exit 1) when the
// committed file is not what the generator makes now: CI runs the checks so nothing drifts.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export function writeOrCheck(path, text, regenerate) {
  if (process.argv.includes('--check')) {
    const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
    if (current !== text) {
      console.error(`${path} is stale: run \`${regenerate}\` and commit the result`);
      process.exit(1);
    }
    console.log(`${path} is fresh`);
  } else {
    writeFileSync(path, text);
    console.log(`wrote ${path}`);
  }
}
