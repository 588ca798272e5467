// s3rver in a process of its own, started by test/support/s3-server.ts. s3rver makes the
// continuation tokens of paginated listings with DES, which OpenSSL 3 only has in its legacy
// provider: this process runs with --openssl-legacy-provider so the tests' own process does not.
// Prints {"port":N} once listening; stops on SIGTERM or when its parent's pipe closes.
import S3rver from 's3rver';

const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: process.argv[2] });
const info = await server.run();
process.stdout.write(JSON.stringify({ port: info.port }) + '\n');
const stop = () => server.close().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
