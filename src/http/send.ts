/**
 * Answers of the project's HTTP servers (`smartcage serve`, its sites, the forms app): every one
 * `nosniff` and `no-store` (they are generated per request, often private to a site), pages
 * under PAGE_CSP.
 */
import type { ServerResponse } from 'node:http';
import { PAGE_CSP } from './csp.js';

export function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Uint8Array,
  extra: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': type,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    ...extra,
  });
  res.end(body);
}

export const sendJson = (res: ServerResponse, status: number, body: unknown): void =>
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(body));

/** An HTML page of ours, under the pages' CSP. */
export const sendPage = (res: ServerResponse, status: number, html: string): void =>
  send(res, status, 'text/html; charset=utf-8', html, { 'content-security-policy': PAGE_CSP });

export const sendText = (res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}) =>
  send(res, status, 'text/plain; charset=utf-8', text, extra);

/** 303 See Other: where a form post goes on (post, redirect, get). */
export function seeOther(res: ServerResponse, location: string): void {
  res.writeHead(303, { location, 'cache-control': 'no-store' });
  res.end();
}
