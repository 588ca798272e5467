/**
 * Secret values never enter the isolate. {secret var=s key=NAME} assigns a handle, a string
 * like `[secret:NAME:3f9a...]` with 128 random bits issued for this render only; printing it
 * shows the handle, not the value. The host swaps a handle for its value only inside the
 * attributes whose rule allows it (for example an `api` header to one of the https origins the
 * secret lists), and takes every issued value, in every form a server might echo it in, back
 * out of everything the bridge answers (secret-redactor.ts).
 */
import { randomBytes } from 'node:crypto';
import type { SecretRecord } from '../host-api/host.js';
import { BridgeError } from '../host-api/errors.js';
import { SecretRedactor, answerBudget } from './secret-redactor.js';
import type { HostAnswer, TagAnswer } from '../protocol/host-call.js';
import type { AnswerTransfer } from '../protocol/transfer.js';
import type { RenderSecrets } from '../host-plugins/plugin-contract.js';

const HANDLE = /\[secret:([A-Za-z0-9_.-]{1,128}):([0-9a-f]{32})\]/g;

export class SecretHandles implements RenderSecrets {
  private readonly byNonce = new Map<string, { name: string; record: SecretRecord }>();
  private readonly redactor = new SecretRedactor();

  /** Throws E_QUOTA past the redactor's per-render bounds (distinct secrets, their forms' size). */
  issue(name: string, record: SecretRecord): string {
    this.redactor.add(name, record.value);
    const nonce = randomBytes(16).toString('hex');
    this.byNonce.set(nonce, { name, record });
    return `[secret:${name}:${nonce}]`;
  }

  /** True when the text holds a handle issued in this render. */
  contains(text: string): boolean {
    for (const m of text.matchAll(HANDLE)) if (this.byNonce.has(m[2])) return true;
    return false;
  }

  /**
   * Replaces the handles in `text` with their values, when `allowed(record)` says this use is
   * allowed; otherwise E_SECRET_DENIED naming the secret (never its value).
   */
  substitute(text: string, use: string, allowed: (record: SecretRecord) => boolean): string {
    return text.replace(HANDLE, (whole, name: string, nonce: string) => {
      const entry = this.byNonce.get(nonce);
      if (!entry || entry.name !== name) return whole; // not issued here: plain text
      if (!allowed(entry.record))
        throw new BridgeError('E_SECRET_DENIED', `the secret ${name} may not be used in ${use}`);
      return entry.record.value;
    });
  }

  /** `text` with every form of every value issued in this render replaced by `[secret:NAME redacted]`. */
  redact(text: string): string {
    return this.redactor.redact(text);
  }

  /**
   * An answer of the bridge redacted like `redact`: assigned values and block items (strings,
   * keys and numbers), output, log lines, a modifier's value, an error message. One budget for
   * the whole answer; past it E_SIZE_LIMIT (an answer never leaves unredacted).
   */
  redactAnswer(a: HostAnswer): HostAnswer {
    if (this.redactor.empty) return a;
    const budget = answerBudget();
    const text = (s: string): string => this.redactor.redact(s, budget);
    // A handle holds no value; left alone, it cannot be broken by a short value that matches its text.
    const handle = (s: string): boolean => this.isHandle(s);
    const value = (v: AnswerTransfer): AnswerTransfer => this.redactor.redactTransfer(v, budget, handle);
    // Only the fields copied here leave: a field added to an answer must be added (redacted) here.
    if (!a.ok) return { ok: false, error: { code: a.error.code, message: text(a.error.message) } };
    if ('value' in a) return { ok: true, value: this.redactor.redactTransfer(a.value, budget, handle) };
    const out: TagAnswer = { ok: true };
    if (a.assign) out.assign = a.assign.map(([name, v]) => [name, value(v)]);
    if (a.iterate) out.iterate = { var: a.iterate.var, items: a.iterate.items.map(value) };
    if (a.output !== undefined) out.output = text(a.output);
    if (a.log) out.log = a.log.map((l) => ({ level: l.level, message: text(l.message) }));
    return out;
  }

  /** `s` is exactly one handle issued in this render. */
  private isHandle(s: string): boolean {
    if (s.length > 180 || !s.startsWith('[secret:')) return false;
    const m = /^\[secret:([A-Za-z0-9_.-]{1,128}):([0-9a-f]{32})\]$/.exec(s);
    return m !== null && this.byNonce.get(m[2]!)?.name === m[1];
  }
}
