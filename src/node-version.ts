/**
 * The first module the package entries load: on a Node older than 24 it stops the import with
 * one line saying how to get Node 24, before isolated-vm (whose prebuilt binaries are for Node
 * 24) is loaded and fails with "No native build was found" from deep inside node-gyp-build.
 * A check at import rather than an install script: install scripts do not run under
 * `--ignore-scripts` or npm 11's script policy, and would refuse an install that a later Node
 * could use; an import is where the wrong Node actually matters (D143). Written in syntax every
 * Node since 12 parses, as it must run on the Nodes it refuses.
 */
const MIN_NODE_MAJOR = 24;

const version = process.versions.node;
const major = Number(version.split('.')[0]);
if (major < MIN_NODE_MAJOR) {
  const e = new Error(
    `smartcage needs Node ${MIN_NODE_MAJOR} or later, and this is Node ${version}: install Node ${MIN_NODE_MAJOR} (https://nodejs.org, \`nvm install ${MIN_NODE_MAJOR}\`, or \`npx -p node@${MIN_NODE_MAJOR} node app.mjs\`) and run with it`,
  ) as Error & { code: string };
  e.code = 'ERR_SMARTCAGE_NODE_VERSION';
  // One line where it is printed: no stack of the loader's frames under it.
  e.stack = `Error: ${e.message}`;
  throw e;
}

export {};
