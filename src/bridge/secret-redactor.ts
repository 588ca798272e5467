/**
 * Takes the secret values issued in a render back out of everything the bridge answers: every
 * form of secret-forms.ts becomes `[secret:NAME redacted]` (a shorter marker when a value
 * shows in that text). One Aho-Corasick pass per string
 * (multi-match.ts), so the work is linear in what is answered, which is itself capped before
 * it gets here (the egress guard's body and header caps).
 *
 * Bounds (per render): at most MAX_SECRETS_PER_RENDER distinct secret values, each at most
 * MAX_SECRET_CHARS long, and MAX_PATTERN_CHARS characters of forms (the matcher's memory, ~19 bytes per character);
 * per answer, at most MAX_REDACTIONS replacements and MAX_GROWTH characters added by the
 * markers. Past them the call fails instead of answering unredacted.
 */
import { BridgeError } from '../host-api/errors.js';
import { MultiMatcher } from './multi-match.js';
import { secretForms } from './secret-forms.js';
import { plainToTransfer, type AnswerTransfer, type Transfer } from '../protocol/transfer.js';

export const MAX_SECRETS_PER_RENDER = 64;
export const MAX_PATTERN_CHARS = 512 * 1024;
const MAX_SECRET_CHARS = 8 * 1024;
export const MAX_REDACTIONS = 10_000;
const MAX_GROWTH = 1024 * 1024;

/** What one answer may still spend on redaction. */
export interface RedactionBudget {
  redactions: number;
  growth: number;
}

export function answerBudget(): RedactionBudget {
  return { redactions: MAX_REDACTIONS, growth: MAX_GROWTH };
}

export class SecretRedactor {
  private readonly names: string[] = [];
  private readonly forms: string[][] = [];
  private readonly byValue = new Map<string, number>();
  private patternChars = 0;
  private matcher: MultiMatcher | null = null;
  /** Per secret, what its forms are replaced with (made with the matcher). */
  private markers: string[] = [];

  /** Registers a value (once per distinct value); throws E_QUOTA past the per-render bounds. */
  add(name: string, value: string): void {
    if (value === '' || this.byValue.has(value)) return;
    if (this.names.length >= MAX_SECRETS_PER_RENDER)
      throw new BridgeError('E_QUOTA', `more than ${MAX_SECRETS_PER_RENDER} different secrets in one render`);
    // Refused before its forms are made (about 2 ms per 1,000 characters; a 4096-bit PEM key is 3,300).
    if (value.length > MAX_SECRET_CHARS)
      throw new BridgeError('E_QUOTA', `the secret ${name} is too long to be kept out of responses`);
    const forms = secretForms(value, MAX_PATTERN_CHARS - this.patternChars);
    if (forms === null) throw new BridgeError('E_QUOTA', `the secret ${name} is too long to be kept out of responses`);
    const chars = forms.reduce((n, f) => n + f.length, 0);
    this.patternChars += chars;
    this.byValue.set(value, this.names.length);
    this.names.push(name);
    this.forms.push(forms);
    this.matcher = null;
  }

  get empty(): boolean {
    return this.names.length === 0;
  }

  /** `text` with every form of every registered value replaced by its marker. */
  redact(text: string, budget: RedactionBudget = answerBudget()): string {
    if (this.empty || text === '') return text;
    const m = this.build();
    const found = m.find(text, budget.redactions);
    if (found === null)
      throw new BridgeError('E_SIZE_LIMIT', `an answer holds more than ${MAX_REDACTIONS} secret values to redact`);
    if (found.length === 0) return text;
    let out = '';
    let at = 0;
    for (const { start, end, tag } of found) {
      const marker = this.markers[tag]!;
      budget.growth -= marker.length - (end - start);
      if (budget.growth < 0)
        throw new BridgeError('E_SIZE_LIMIT', 'redacting secret values would grow an answer by more than 1 MiB');
      out += text.slice(at, start) + marker;
      at = end;
    }
    budget.redactions -= found.length;
    out += text.slice(at);
    // Pieces around a marker cannot hold a whole form (every byte of every match was removed),
    // but a marker next to them could complete one; an answer is never sent with a form in it.
    const again = m.find(out, 0);
    if (again === null || again.length > 0)
      throw new BridgeError('E_SECRET_DENIED', 'an answer could not be cleared of a secret value');
    return out;
  }

  /**
   * A bridge value with every string, key and number redacted (a number or integer key that
   * shows a secret in its digits becomes the marker text), except the strings `keep` names.
   * One budget for the whole value.
   */
  redactTransfer(t: Transfer, budget?: RedactionBudget, keep?: (s: string) => boolean): Transfer;
  redactTransfer(t: AnswerTransfer, budget?: RedactionBudget, keep?: (s: string) => boolean): AnswerTransfer;
  redactTransfer(
    t: AnswerTransfer,
    budget: RedactionBudget = answerBudget(),
    keep: (s: string) => boolean = () => false,
  ): AnswerTransfer {
    if (this.empty) return t;
    const text = (s: string): string => (keep(s) ? s : this.redact(s, budget));
    const num = (n: number): number | string => {
      const shown = String(n);
      const r = text(shown);
      return r === shown ? n : r;
    };
    const walk = (v: AnswerTransfer): Transfer => {
      if (v === null || typeof v === 'boolean') return v;
      if (typeof v === 'string') return text(v);
      if (typeof v === 'number') return num(v);
      // Plain data is walked as the pairs it stands for: a key the redaction changes stays in its place.
      if ('p' in v) return walk(plainToTransfer(v.p));
      if ('f' in v) {
        const r = num(v.f);
        return typeof r === 'number' ? v : r;
      }
      if ('i' in v) {
        const r = text(v.i);
        return r === v.i ? v : r;
      }
      // A list is walked as its pairs too: an index that shows a secret's digits is redacted as any key.
      if ('l' in v) return walk({ a: v.l.map((x, i) => [i, x] as [number, AnswerTransfer]) });
      if ('a' in v) return { a: v.a.map(([k, x]) => [typeof k === 'string' ? text(k) : num(k), walk(x)]) };
      return { o: v.o.map(([k, x]) => [text(k), walk(x)]) };
    };
    return walk(t);
  }

  private build(): MultiMatcher {
    if (this.matcher) return this.matcher;
    const m = new MultiMatcher(this.forms.flatMap((forms, tag) => forms.map((text) => ({ text, tag }))));
    // A marker must not itself show a form (a value like "secret" or the secret's own name):
    // the first candidate that shows none, down to nothing at all.
    this.markers = this.names.map((name) =>
      [`[secret:${name} redacted]`, '[secret redacted]', '[redacted]', '[…]', ''].find((c) => m.find(c)?.length === 0)!,
    );
    this.matcher = m;
    return m;
  }
}
