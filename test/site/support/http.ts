/** Real HTTP requests on 127.0.0.1, with the headers a browser would set (Host, Cookie) and every Set-Cookie line kept. */
import { request } from 'node:http';

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Set-Cookie lines. */
  cookies: string[];
}

export function http(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<HttpAnswer> {
  return new Promise((done, fail) => {
    const req = request(url, { method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        done({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          cookies: res.headers['set-cookie'] ?? [],
        }),
      );
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(opts.body);
  });
}

/** `name=value` of a Set-Cookie line, for the Cookie header of the next request. */
export function cookiePair(line: string): string {
  return line.split(';')[0]!;
}
