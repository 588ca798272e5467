import type { ErrorCode } from '../protocol/error-codes.js';

/** A refusal or failure of a privileged plugin call, with a code and a tenant-safe message. */
export class BridgeError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}
