/**
 * A request handler, and the guard every server of ours puts around one: a handler that throws
 * answers 500 with the error's message as JSON (or, when its headers went out already, ends the
 * response), instead of leaving the request hanging.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from './send.js';

export type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export function answerFailure(res: ServerResponse, e: unknown): void {
  if (!res.headersSent) sendJson(res, 500, { error: e instanceof Error ? e.message : String(e) });
  else res.end();
}

/** `handle` for http.createServer: its failures answered by answerFailure. */
export const guarded =
  (handle: Handler) =>
  (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch((e: unknown) => answerFailure(res, e));
  };
