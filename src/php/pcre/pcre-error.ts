/**
 * A PCRE feature that has no exact JavaScript translation. Thrown instead of running a
 * pattern with a different meaning; invalid patterns (those PHP itself rejects) are not
 * errors here but a warning plus PHP's false/null result.
 */
export class PcreError extends Error {
  readonly code: 'E_REGEX_UNSUPPORTED' | 'E_REGEX_TOO_LARGE';

  constructor(message: string, code: 'E_REGEX_UNSUPPORTED' | 'E_REGEX_TOO_LARGE' = 'E_REGEX_UNSUPPORTED') {
    super(message);
    this.code = code;
  }
}

/** A pattern PHP refuses to compile: the message is PHP's warning text without the function name. */
export class PcreCompileError extends Error {}
