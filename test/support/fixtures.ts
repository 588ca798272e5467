/**
 * Fixture files, one case per file (after Twig's .test files):
 *
 *   --TEST--            one line saying what the case shows
 *   --TEMPLATE--        the template (more templates for {include}: --TEMPLATE(name.tpl)--)
 *   --FUNCTION(key)--   a stored custom function for {function name=key}
 *   --DATA--            variables as JSON (optional)
 *   --EXPECT--          the exact output
 *   --ERROR--           or: the error code, optionally followed by line:column
 *   --SMARTY3--         optional: "differs: <why>" when Debian's Smarty 3.1 must not be used as
 *                       the oracle for this case (Smarty 2 or the platform behave otherwise)
 *
 * Each section ends at the line break before the next marker; the file's final line break is not content.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface Fixture {
  file: string;
  title: string;
  template: string;
  includes: Record<string, string>;
  functions: Record<string, string>;
  data: string | null;
  expect: string | null;
  error: { code: string; line?: number; column?: number } | null;
  /** Why Smarty 3 differs, or null when the differential test compares with it. */
  smarty3Differs: string | null;
}

const MARKER = /^--([A-Z][A-Z0-9]*)(?:\(([^)]*)\))?--$/;

function parseFixture(file: string, text: string): Fixture {
  const sections: { name: string; arg: string | null; lines: string[] }[] = [];
  for (const line of text.replace(/\n$/, '').split('\n')) {
    const m = MARKER.exec(line);
    if (m) sections.push({ name: m[1], arg: m[2] ?? null, lines: [] });
    else if (sections.length) sections[sections.length - 1].lines.push(line);
  }
  const body = (s: { lines: string[] }) => s.lines.join('\n');
  const f: Fixture = {
    file,
    title: '',
    template: '',
    includes: {},
    functions: {},
    data: null,
    expect: null,
    error: null,
    smarty3Differs: null,
  };
  for (const s of sections) {
    switch (s.name) {
      case 'TEST':
        f.title = body(s).trim();
        break;
      case 'TEMPLATE':
        if (s.arg) f.includes[s.arg] = body(s);
        else f.template = body(s);
        break;
      case 'FUNCTION':
        f.functions[s.arg ?? ''] = body(s);
        break;
      case 'DATA':
        f.data = body(s);
        break;
      case 'EXPECT':
        f.expect = body(s);
        break;
      case 'ERROR': {
        const [code, pos] = body(s).trim().split(/\s+/);
        const [line, column] = pos ? pos.split(':').map(Number) : [];
        f.error = { code, line, column };
        break;
      }
      case 'SMARTY3': {
        const m = /^differs: (.+)$/s.exec(body(s).trim());
        if (!m) throw new Error(`${file}: --SMARTY3-- must say "differs: <why>"`);
        f.smarty3Differs = m[1];
        break;
      }
      default:
        throw new Error(`${file}: unknown section --${s.name}--`);
    }
  }
  if (f.expect === null && f.error === null) throw new Error(`${file}: needs --EXPECT-- or --ERROR--`);
  return f;
}

export function loadFixtures(dir: string): Fixture[] {
  const out: Fixture[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.test.txt')) out.push(parseFixture(relative(dir, p), readFileSync(p, 'utf8')));
    }
  };
  walk(dir);
  return out;
}
