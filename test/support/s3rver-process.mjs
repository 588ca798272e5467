// s3rver in a process of its own, started by test/support/s3-server.ts. s3rver makes the
// continuation tokens of paginated listings with DES, which OpenSSL 3 only has in its legacy
// provider: this process runs with --openssl-legacy-provider so the tests' own process does not.
// Prints {"port":N} once listening; stops on SIGTERM or when its parent's pipe closes.
import { unlink } from 'node:fs/promises';
import S3rver from 's3rver';

const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: process.argv[2] });

// s3rver's DELETE removes the object's folders once they look empty. A PUT under the same folder
// from another client between its mkdir and its open then fails with ENOENT on an unhandled stream
// error, which kills the server (seen in CI: three processes probing `.smartcage/` at once). Its
// listings walk object files, so an empty folder left behind changes no answer: delete the files only.
const store = server.store;
store.deleteObject = async (bucket, key) => {
  await Promise.all(
    ['object', 'object.md5', 'metadata.json'].map((kind) =>
      unlink(store.getResourcePath(bucket, key, kind)).catch((e) => {
        if (e.code !== 'ENOENT') throw e;
      }),
    ),
  );
};

const info = await server.run();
process.stdout.write(JSON.stringify({ port: info.port }) + '\n');
const stop = () => server.close().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
