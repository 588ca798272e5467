/**
 * The forms UI's design tokens (src/forms-ui/style.ts): the rules use the tokens and only them,
 * the README's table is the tokens, and the colour pairs the rules put together are readable
 * (WCAG 2.1: 4.5:1 for text, 3:1 for borders and the focus ring). The computed styles in
 * Chromium are test/browser/design.test.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FORM_CSS, PAGE_CSS, TOKENS, type Token } from '../../src/forms-ui/style.js';

const README = readFileSync(new URL('../../src/forms-ui/README.md', import.meta.url), 'utf8');
const CSS = FORM_CSS + PAGE_CSS;
/** The rules without the declarations of the tokens themselves. */
const RULES = CSS.replace(/--jf-[a-z0-9-]+: [^;]+;/g, '');

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
function contrast(a: Token, b: Token): number {
  const [x, y] = [luminance(TOKENS[a]), luminance(TOKENS[b])].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
}

describe('design tokens', () => {
  it('every var(--jf-…) in the rules is a token, and every token is used', () => {
    const used = new Set([...RULES.matchAll(/var\(--jf-([a-z0-9-]+)\)/g)].map((m) => m[1]!));
    const leading = CSS.includes('--jf-leading: 1.7'); // the Japanese override sets it
    expect([...used].filter((u) => !(u in TOKENS))).toEqual([]);
    expect(Object.keys(TOKENS).filter((t) => !used.has(t))).toEqual([]);
    expect(leading).toBe(true);
  });

  it('the rules name no colour of their own', () => {
    expect(RULES).not.toMatch(/#[0-9a-f]{3,6}\b|rgb\(|hsl\(/i);
  });

  it("the README's table lists every token with its value", () => {
    const rows = [...README.matchAll(/^\| `--jf-([a-z0-9-]+)` \| `([^`]+)` \|/gm)].map((m) => [m[1], m[2]]);
    expect(Object.fromEntries(rows)).toEqual(TOKENS);
  });

  it.each<[Token, Token, number]>([
    ['color-text', 'color-surface', 4.5],
    ['color-text', 'color-surface-alt', 4.5],
    ['color-text', 'color-danger-surface', 4.5],
    ['color-text', 'color-info-surface', 4.5],
    ['color-muted', 'color-surface', 4.5],
    ['color-muted', 'color-surface-alt', 4.5],
    ['color-danger', 'color-surface', 4.5],
    ['color-danger', 'color-surface-alt', 4.5],
    ['color-danger', 'color-danger-surface', 4.5],
    ['color-warning', 'color-warning-surface', 4.5],
    ['color-accent', 'color-surface', 4.5],
    ['color-accent', 'color-surface-alt', 4.5],
    ['color-accent-text', 'color-accent', 4.5],
    ['color-border', 'color-surface', 3],
    ['color-border', 'color-surface-alt', 3],
    ['color-focus', 'color-surface', 3],
    ['color-focus', 'color-surface-alt', 3],
    ['color-danger', 'color-danger-surface', 3],
  ])('%s on %s: at least %d:1', (fg, bg, min) => {
    expect(contrast(fg, bg)).toBeGreaterThanOrEqual(min);
  });
});
