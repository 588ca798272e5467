import { describe, expect, it } from 'vitest';
import xmltojson, { MAX_XML_LENGTH } from '../../../src/plugins/markup/xmltojson.js';
import { LimitError } from '../../../src/value/limits.js';
import { testPluginContext } from '../../support/plugin-context.js';
import type { Value } from '../../../src/value/value.js';

function run(attrs: Record<string, Value>): { value: Value; warnings: string[] } {
  const warnings: string[] = [];
  const ctx = testPluginContext({}, { warnings });
  xmltojson.run!({ var: 'j', ...attrs }, ctx);
  return { value: ctx.scope.j ?? null, warnings };
}

describe('xmltojson plugin', () => {
  it('stores the JSON text in var', () => {
    expect(run({ xml: '<r><a>1</a><a>2</a></r>' })).toEqual({ value: '{"a":["1","2"]}', warnings: [] });
  });

  it('stores false with a warning for XML that is not well-formed', () => {
    const r = run({ xml: '<r><a></r>' });
    expect(r.value).toBe(false);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/^xmltojson: the XML is not well-formed \(line 1, column 7\): /);
  });

  it('treats a missing xml as an empty document', () => {
    expect(run({}).value).toBe(false);
  });

  it('keeps namespaced elements with any non-zero convert_namespace', () => {
    const xml = '<r xmlns:m="urn:m"><m:a>1</m:a><b m:x="2"/></r>';
    expect(run({ xml }).value).toBe('{"b":{}}');
    expect(run({ xml, convert_namespace: 0 }).value).toBe('{"b":{}}');
    expect(run({ xml, convert_namespace: 1 }).value).toBe('{"a":"1","b":{"@attributes":{"x":"2"}}}');
    expect(run({ xml, convert_namespace: '1' }).value).toBe('{"a":"1","b":{"@attributes":{"x":"2"}}}');
  });

  it('warns about namespace errors but converts', () => {
    const r = run({ xml: '<r><p:a>1</p:a></r>' });
    expect(r.value).toBe('{"p:a":"1"}');
    expect(r.warnings).toEqual([
      'xmltojson: namespace warning at line 1, column 4: Namespace prefix p on a is not defined',
    ]);
  });

  it('refuses documents beyond the size limit', () => {
    expect(() => run({ xml: `<r>${'x'.repeat(MAX_XML_LENGTH)}</r>` })).toThrow(LimitError);
  });
});

describe('xmltojson and hostile XML (security.md MEM-06, MEM-07)', () => {
  it('refuses entity declarations: billion laughs, external entities, parameter entities', () => {
    const docs = [
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><lolz>&lol2;</lolz>',
      '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>',
      '<!DOCTYPE r [<!ENTITY x SYSTEM "http://169.254.169.254/">]><r>&x;</r>',
      '<!DOCTYPE r [<!ENTITY % p SYSTEM "http://example.com/x.dtd"> %p;]><r/>',
      '<!DOCTYPE r SYSTEM "http://169.254.169.254/"><r>&x;</r>',
    ];
    for (const xml of docs) {
      const r = run({ xml });
      expect(r.value).toBe(false);
      expect(r.warnings.join()).toMatch(/not well-formed/);
    }
  });

  it('refuses a repeated DOCTYPE', () => {
    expect(run({ xml: '<!DOCTYPE r><!DOCTYPE r><r/>' }).value).toBe(false);
  });

  it('reads an external DOCTYPE without fetching anything', () => {
    expect(run({ xml: '<!DOCTYPE r SYSTEM "http://169.254.169.254/"><r>a</r>' }).value).toBe('{"0":"a"}');
  });

  it('handles 300 000 numeric character references', () => {
    const r = run({ xml: `<r>${'&#65;'.repeat(300000)}</r>` });
    expect(r.value).toBe(`{"0":"${'A'.repeat(300000)}"}`);
  });

  it('stops at libxml depth (257 levels) without recursion trouble at 100 000 levels', () => {
    const deep = (n: number) => '<a>'.repeat(n) + '</a>'.repeat(n);
    expect(run({ xml: deep(257) }).value).not.toBe(false);
    const r = run({ xml: deep(100000) });
    expect(r.value).toBe(false);
    expect(r.warnings.join()).toMatch(/Excessive depth/);
  });
});

describe('xmltojson warnings', () => {
  it('passes on ten namespace warnings and counts the rest', () => {
    const r = run({ xml: `<r>${'<p:a/>'.repeat(25)}</r>` });
    expect(r.value).toBe(`{"p:a":[${Array(25).fill('{}').join(',')}]}`);
    expect(r.warnings).toHaveLength(11);
    expect(r.warnings[10]).toBe('xmltojson: 15 more namespace warnings');
  });
});
