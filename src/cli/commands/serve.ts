/**
 * `smartcage serve [--port N] [--files DIR]`: starts the form UI's HTTP app
 * (src/forms-ui/server/app.ts) on 127.0.0.1 until SIGINT or SIGTERM.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs, stringOption, UsageError } from '../args.js';
import { EXIT } from '../exit-codes.js';
import type { Command } from '../main.js';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Serve the JSON-schema form UI, its demo pages and APIs on 127.0.0.1.',
  usage: [
    'smartcage serve [--port N] [--files DIR]',
    '',
    '  --port N     port on 127.0.0.1 (default 8080; 0 picks a free one)',
    '  --files DIR  the site\'s file storage, a folder per root: DIR/user/ is served as',
    '               /files/user/ for the file picker (default ./files)',
    '',
    'Pages: / (samples), /demo/NAME (sent with a Content-Security-Policy without',
    "'unsafe-eval': validators come precompiled from /validators/NAME.js);",
    'APIs: POST /api/validate, GET /api/files?path=/files/user/',
    'The browser bundle dist/forms-ui.js is made by `npm run build`.',
  ].join('\n'),
  async run(argv) {
    const { positionals, values } = parseArgs(argv, { port: { type: 'string' }, files: { type: 'string' } });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const portFlag = stringOption(values, 'port');
    const port = portFlag === undefined ? 8080 : Number(portFlag);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port needs an integer from 0 to 65535');
    const filesFlag = stringOption(values, 'files');
    const dir = resolve(filesFlag ?? 'files');
    if (!existsSync(dir)) {
      process.stderr.write(`smartcage serve: folder ${dir} does not exist\n`);
      return EXIT.IO;
    }
    // Loaded here, not at the top: the app needs ajv, an optional peer dependency the other commands run without.
    const { formsBundlePath, startFormsServer } = await import('../../forms-ui/server/app.js');
    if (!existsSync(formsBundlePath())) process.stderr.write('smartcage serve: dist/forms-ui.js is missing; run `npm run build` (or `node scripts/build-forms-ui.mjs`)\n');
    const s = await startFormsServer({ port, storageDir: dir });
    process.stdout.write(`smartcage serve: ${s.url}/ (files: ${dir}); Ctrl-C stops\n`);
    await new Promise<void>((done) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        void s.close().then(done);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    return EXIT.OK;
  },
};
