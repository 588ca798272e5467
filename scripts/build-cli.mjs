#!/usr/bin/env node
// Bundles the command-line interface (dist/src/cli/main.js and everything it imports) into
// dist/cli/, which bin/smartcage.js loads: main.js and a few chunks, each command's own loaded
// when it runs, instead of about 1,200 modules to resolve and link (docs/decisions.md D163).
// A module that finds a file next to itself through `import.meta.url` (the sandbox worker's entry, the runtime bundle, the forms UI's assets) keeps
// finding it: its `import.meta.url` is rewritten to the URL its own file in dist/src/ has.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = path.join(root, 'dist');
const out = path.join(dist, 'cli');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

/**
 * The packages the engine loads at every render, bundled with it (esbuild bundles each as Node
 * loads it: plain ESM, or CommonJS required statically). Every other package stays outside and
 * Node loads it as without the bundle: isolated-vm is native, the peers are optional, and the
 * serve, lsp and forms packages are loaded by their commands only (prom-client, imported
 * dynamically as CommonJS, would lose its named exports in a split bundle).
 */
const BUNDLED = ['undici', 'jose', 'nodemailer', 'parse5', 'lru-cache', 'p-limit', 'yazl', 'yauzl', 'tar-stream'];

/** Each file's own `import.meta.url`, as a URL relative to the bundle's. */
const ownMetaUrl = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/]src[\\/].*\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const rel = path.relative(out, args.path).split(path.sep).join('/');
      const own = `new URL(${JSON.stringify(`./${rel}`)}, import.meta.url).href`;
      return { contents: text.replaceAll('import.meta.url', own), loader: 'js' };
    });
  },
};

rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: [path.join(dist, 'src/cli/main.js')],
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node24',
  // Chunks: what only `serve`, `lsp` or `site` use is not even read by `render`.
  splitting: true,
  outdir: out,
  chunkNames: 'chunk-[hash]',
  external: [
    ...Object.keys(pkg.dependencies ?? {}).filter((d) => !BUNDLED.includes(d)),
    ...Object.keys(pkg.peerDependencies ?? {}),
  ],
  // Bundled CommonJS packages call require() for Node's own modules.
  banner: {
    js: "import { createRequire as __smartcageRequire } from 'node:module';\nconst require = __smartcageRequire(import.meta.url);",
  },
  plugins: [ownMetaUrl],
  legalComments: 'none',
  logLevel: 'warning',
});
