/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4), enough to check what
 * `/metrics` sends: every sample belongs to a family declared with # HELP and # TYPE before it,
 * label sets are well formed, values are numbers. It throws on the first line that is not.
 */
export interface Family {
  help: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  samples: { name: string; labels: Record<string, string>; value: number }[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: -?\\d+)?$`);
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/y;
const SUFFIXES: Record<Family['type'], string[]> = {
  counter: [''],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const help = new Map<string, string>();
  text.split('\n').forEach((line, i) => {
    const fail = (why: string) => {
      throw new Error(`line ${i + 1}: ${why}: ${line}`);
    };
    if (line === '') return;
    let m = new RegExp(`^# HELP (${NAME}) (.*)$`).exec(line);
    if (m) return void help.set(m[1]!, m[2]!);
    m = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`).exec(line);
    if (m) {
      if (families.has(m[1]!)) fail('a second TYPE');
      if (!help.has(m[1]!)) fail('TYPE before HELP');
      return void families.set(m[1]!, { help: help.get(m[1]!)!, type: m[2] as Family['type'], samples: [] });
    }
    if (line.startsWith('#')) return;
    m = SAMPLE.exec(line);
    if (!m) fail('not a sample');
    const [, name, labelText = '', valueText] = m!;
    // As Prometheus reads it (Go's ParseFloat): NaN and Inf in any case; prom-client writes `Nan`.
    const special = /^(nan)$|^([+-]?)inf(inity)?$/i.exec(valueText!);
    const value = special ? (special[1] ? NaN : special[2] === '-' ? -Infinity : Infinity) : Number(valueText);
    if (Number.isNaN(value) && !special) fail('not a number');
    const labels: Record<string, string> = {};
    LABEL.lastIndex = 0;
    while (LABEL.lastIndex < labelText.length) {
      const l = LABEL.exec(labelText);
      if (!l) fail('bad labels');
      labels[l![1]!] = l![2]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    }
    const family = [...families.entries()].find(([f, fam]) => SUFFIXES[fam.type].some((s) => `${f}${s}` === name));
    if (!family) fail('a sample of no declared family');
    family![1].samples.push({ name: name!, labels, value });
  });
  return families;
}

/** The value of `name` with exactly these labels among its samples (of any family), or undefined. */
export function sampleValue(
  families: Map<string, Family>,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const f of families.values()) {
    for (const s of f.samples) {
      if (s.name !== name) continue;
      const keys = Object.keys(labels);
      if (Object.keys(s.labels).length === keys.length && keys.every((k) => s.labels[k] === labels[k])) return s.value;
    }
  }
  return undefined;
}
