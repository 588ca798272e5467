/**
 * createEngine({ plugins }): an embedder's own tags and modifiers, rendered through the real
 * path (a sandbox worker process, the bridge back to this process). Each rule of
 * docs/plugins-for-embedders.md is tried here: attributes checked from the declaration at
 * compile time and again by the bridge, errors at the tag's line and column, a plugin that
 * throws or answers too much or the wrong shape, calls counted, the identity from the render.
 */
import { describe, expect, it } from 'vitest';
import {
  BridgeError,
  PhpArray,
  createEngine,
  definePlugin,
  toJS,
  type PluginCall,
  type Value,
} from '../../src/index.js';
import { INLINE_MAX_CHARS } from '../../src/compiled-templates.js';
import { MAX_REQUEST_CHARS, MAX_REQUEST_VALUES } from '../../src/protocol/transfer.js';
import { FIXED_NOW, testEngine, templateError } from '../support/engine.js';

/** What the plugins were called with, newest last. */
const calls: { plugin: string; attrs: unknown; identity: PluginCall['identity']; render: PluginCall['render'] }[] = [];

const price = definePlugin({
  kind: 'function',
  name: 'shop_price',
  summary: 'The price of a product, printed or assigned.',
  attrs: {
    id: { type: 'int', required: true, min: 1, max: 9999 },
    currency: { type: 'string', enum: ['JPY', 'USD'], default: 'JPY' },
    var: { type: 'varname', doc: 'Receives the price as { amount, currency } instead of printing it.' },
  },
  examples: [{ template: '{shop_price id=3}', output: '300 JPY' }],
  run(attrs, call) {
    calls.push({ plugin: 'shop_price', attrs: { ...attrs }, identity: call.identity, render: call.render });
    const amount = Number(attrs.id) * 100;
    if (attrs.var) return { assign: [[String(attrs.var), { amount, currency: attrs.currency }]] };
    return { output: `${amount} ${String(attrs.currency)}` };
  },
});

const yen = definePlugin({
  kind: 'modifier',
  name: 'yen',
  summary: 'An amount in yen, with thousands separators.',
  input: { name: 'amount', type: 'int', required: true },
  params: [{ name: 'suffix', type: 'string', default: '円' }],
  examples: [{ template: '{$p|yen}', vars: { p: 1200 }, output: '1,200円' }],
  run: (amount, [suffix]) => `${Number(amount).toLocaleString('en')}${String(suffix)}`,
});

const tax = definePlugin({
  kind: 'modifier',
  name: 'shop_tax',
  summary: 'An amount with tax at `rate` percent, rounded down.',
  params: [{ name: 'rate', type: 'int', required: true }],
  examples: [{ template: '{$p|shop_tax:10}', vars: { p: 1000 }, output: '1100' }],
  run: (amount, [rate]) => Math.floor((Number(amount) * (100 + Number(rate))) / 100),
});

const items = definePlugin({
  kind: 'block',
  name: 'shop_items',
  summary: 'Iterates over the first `count` products.',
  attrs: { count: { type: 'int', required: true, min: 0, max: 10 }, item: { type: 'varname', default: 'item' } },
  examples: [{ template: '{shop_items count=2}{$item.name};{/shop_items}', output: 'p1;p2;' }],
  run: (attrs) => ({
    iterate: {
      var: String(attrs.item),
      items: Array.from({ length: Number(attrs.count) }, (_, i) => ({ name: `p${i + 1}` })),
    },
  }),
});

/** Answers whatever the template asks it to: the shapes a careless plugin could answer with. */
const echo = definePlugin({
  kind: 'function',
  name: 'shop_echo',
  summary: 'Answers with what `what` names (a test double of a faulty plugin).',
  attrs: { what: { type: 'string', required: true }, size: { type: 'int', default: 0 } },
  examples: [{ template: '{shop_echo what="text"}', output: 'text' }],
  run(attrs) {
    switch (attrs.what) {
      case 'text':
        return { output: 'text' };
      case 'nothing':
        return undefined;
      case 'large':
        return { output: 'x'.repeat(Number(attrs.size)) };
      case 'large-assign':
        return { assign: [['big', ['y'.repeat(Number(attrs.size))]]] };
      case 'typo':
        return { assigns: [['x', 1]] } as never;
      case 'function':
        return { assign: [['x', () => 1]] };
      case 'cycle': {
        const a: unknown[] = [];
        a.push(a);
        return { assign: [['x', a]] };
      }
      case 'deep': {
        let v: unknown = 1;
        for (let i = 0; i < 70; i++) v = [v];
        return { assign: [['x', v]] };
      }
      case 'bad-name':
        return { assign: [['1x', 1]] };
      case 'iterate':
        return { iterate: { var: 'x', items: [1] } };
      case 'our-code':
        throw new BridgeError('E_NOT_FOUND', 'no product 404');
      case 'secret':
        throw new Error('connection to db.internal:5432 refused (password=hunter2)');
      default:
        return { output: 'x', log: [{ level: 'info', message: `asked for ${String(attrs.what)}` }] };
    }
  },
});

const member = definePlugin({
  kind: 'function',
  name: 'shop_member_points',
  summary: 'Points of a member; member_id from a variable needs a super user.',
  attrs: { member_id: { type: 'int', required: true, literalUnlessSuperUser: true } },
  examples: [{ template: '{shop_member_points member_id=2}', output: '20' }],
  run: (attrs) => ({ output: String(Number(attrs.member_id) * 10) }),
});

const fetcher = definePlugin({
  kind: 'function',
  name: 'shop_fetch',
  host: 'http',
  summary: 'Needs the http adapter.',
  attrs: {},
  examples: [{ template: '{shop_fetch}', output: 'fetched' }],
  run: () => ({ output: 'fetched' }),
});

const plugins = [price, yen, tax, items, echo, member, fetcher];
/** What onHostError was told, newest last. */
const reported: { error: unknown; plugin: string; tenant: string }[] = [];
const engine = testEngine({ plugins, onHostError: (error, where) => reported.push({ error, ...where }) });
const render = (source: string, vars?: Record<string, unknown>) => engine.render(source, { name: 'shop.tpl', vars });

describe("an engine's own plugins", () => {
  it('print, assign, filter values and iterate like built-in plugins, with declared defaults filled in', async () => {
    const r = await render(
      '{shop_price id=2}|{shop_price id=3 currency="USD" var=p}{$p.amount} {$p.currency}|{$n|yen} {$n|yen:" yen"}|{shop_items count=3}{$item.name}{/shop_items}|{shop_echo what="nothing"}.',
      { n: 1234567 },
    );
    expect(r.output).toBe('200 JPY|300 USD|1,234,567円 1,234,567 yen|p1p2p3|.');
  });

  it('a modifier without @ maps over an array, as Smarty does for every modifier', async () => {
    expect((await render('{foreach from=$l|yen item=x}{$x},{/foreach}', { l: [1000, 2] })).output).toBe('1,000円,2円,');
  });

  it("a plugin's log lines reach the render's log", async () => {
    expect((await render('{shop_echo what="hello"}')).logs).toEqual([{ level: 'info', message: 'asked for hello' }]);
  });

  it("run gets the render's identity, frozen, never one from an attribute, and the render's clock", async () => {
    const e = testEngine({ plugins, timezone: 'Europe/Paris', lang: 'en' });
    await e.render('{shop_price id=1}', { identity: { tenant: 'shop-a', memberId: 7 } });
    const seen = calls.at(-1)!;
    expect(seen.identity).toMatchObject({ tenant: 'shop-a', memberId: 7, superUser: false, context: 'web' });
    expect(Object.isFrozen(seen.identity)).toBe(true);
    expect(seen.render).toEqual({ now: FIXED_NOW, timezone: 'Europe/Paris', lang: 'en' });
    // `tenant` is not an attribute the declaration has, so a template cannot pass one.
    const err = await templateError(e.render('{shop_price id=1 tenant="shop-b"}', { identity: { tenant: 'shop-a' } }));
    expect(err.code).toBe('E_UNKNOWN_ATTR');
  });

  it('an attribute written as a literal is checked at compile time, at its line and column', async () => {
    const cases: [string, string, number, number][] = [
      ['x\n  {shop_price}', 'E_MISSING_ATTR', 2, 3],
      ['x\n{shop_price id=1 colour="red"}', 'E_UNKNOWN_ATTR', 2, 18],
      ['{shop_price id="abc"}', 'E_BAD_ATTR', 1, 16],
      ['\n\n{shop_price id=1 currency="EUR"}', 'E_BAD_ATTR', 3, 27],
      ['\n{$n|yen}{$n|shop_tax}', 'E_MODIFIER_ARGS', 2, 12],
    ];
    for (const [source, code, line, column] of cases) {
      const e = await templateError(render(source));
      expect([e.code, e.template, e.line, e.column], source).toEqual([code, 'shop.tpl', line, column]);
    }
  });

  it("the bridge checks every value again from the declaration: a variable's value fails at the tag's line", async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['{shop_price id=$v}', { v: 'abc' }, '{shop_price} id= must be an integer'],
      ['{shop_price id=$v}', { v: 0 }, '{shop_price} id= must be at least 1'],
      ['{shop_price id=$v}', { v: 10000 }, '{shop_price} id= must be at most 9999'],
      ['{shop_price id=1 currency=$v}', { v: 'EUR' }, '{shop_price} currency= must be one of JPY, USD'],
      ['{shop_price id=1 var=$v}', { v: 'not a name' }, '{shop_price} var= must be a variable name'],
      ['{shop_price id=$v}', { v: null }, '{shop_price} needs the attribute id'],
      // A modifier's input and arguments are checked as a host modifier's are, named as attributes.
      ['{$v|yen}', { v: 'many' }, '{yen} amount= must be an integer'],
      ['{$v|yen}', { v: null }, '{yen} needs the attribute amount'],
      ['{$v|shop_tax:$r}', { v: 1, r: 'ten' }, '{shop_tax} rate= must be an integer'],
      ['{$v|yen:"a":"b"}', { v: 1 }, 'the modifier yen takes at most 1 argument(s)'],
    ];
    for (const [source, vars, message] of cases) {
      const e = await templateError(render(`ok\n\n  ${source}`, vars));
      expect([e.code, e.message, e.line, e.column], source).toEqual(['E_BAD_ATTRIBUTE', message, 3, 3]);
    }
  });

  it('a plugin that throws one of our codes: the code and its message reach the template, at the tag', async () => {
    const e = await templateError(render('a\n{shop_echo what="our-code"}'));
    expect([e.code, e.message, e.line, e.column]).toEqual(['E_NOT_FOUND', 'no product 404', 2, 1]);
  });

  it('a plugin that throws anything else: E_HOST_FAILED, its message withheld from the template, the error to onHostError', async () => {
    const e = await templateError(
      engine.render('{shop_echo what="secret"}', { name: 'shop.tpl', identity: { tenant: 'shop-a' } }),
    );
    expect([e.code, e.message]).toEqual(['E_HOST_FAILED', '{shop_echo} failed on the host']);
    expect(e.format()).not.toContain('hunter2');
    const last = reported.at(-1)!;
    expect([last.plugin, last.tenant, (last.error as Error).message]).toEqual([
      'shop_echo',
      'shop-a',
      'connection to db.internal:5432 refused (password=hunter2)',
    ]);
  });

  it("a deliberate error with one of our codes is the template's answer, not a failure to report", async () => {
    const before = reported.length;
    await templateError(render('{shop_echo what="our-code"}'));
    expect(reported.length).toBe(before);
  });

  it('a call of more values than MAX_REQUEST_VALUES is refused before the host reads it (D321)', async () => {
    // A list of n scalars is n + 1 values: the list and its elements.
    const list = (n: number) => Array.from({ length: n }, (_, i) => i % 10);
    const over = await templateError(render('a\n{shop_echo what=$v}', { v: list(MAX_REQUEST_VALUES) }));
    expect([over.code, over.message, over.line]).toEqual([
      'E_BAD_ATTRIBUTE',
      `{shop_echo} values are too many to cross the bridge (over ${MAX_REQUEST_VALUES} values)`,
      2,
    ]);
    // One value fewer reaches the host, which refuses the list where it wants a string.
    const under = await templateError(render('{shop_echo what=$v}', { v: list(MAX_REQUEST_VALUES - 1) }));
    expect(under.code).toBe('E_BAD_ATTRIBUTE');
    expect(under.message).not.toContain('too many');
    const reported = await templateError(render('{$v|yen}', { v: [list(MAX_REQUEST_VALUES)] }));
    expect(reported.message).toBe(
      `the modifier yen values are too many to cross the bridge (over ${MAX_REQUEST_VALUES} values)`,
    );
  });

  it('an answer past the bridge cap is E_SIZE_LIMIT; one just under it crosses', async () => {
    const over = await templateError(render(`{shop_echo what="large" size=${MAX_REQUEST_CHARS}}`));
    expect([over.code, over.message]).toEqual([
      'E_SIZE_LIMIT',
      `the answer of {shop_echo} is too large to cross the bridge (over ${MAX_REQUEST_CHARS} characters)`,
    ]);
    const assigned = await templateError(render(`{shop_echo what="large-assign" size=${MAX_REQUEST_CHARS}}`));
    expect(assigned.code).toBe('E_SIZE_LIMIT');
    const under = await render(`{shop_echo what="large" size=${MAX_REQUEST_CHARS - 2}}`);
    expect(under.output.length).toBe(MAX_REQUEST_CHARS - 2);
  });

  it("an answer of the wrong shape is the plugin's failure: E_HOST_FAILED for the template, what was wrong for onHostError", async () => {
    const cases: [string, string][] = [
      [
        'typo',
        '{shop_echo} answered wrongly: its answer has a field assigns (it may have assign, output, iterate, log)',
      ],
      ['function', '{shop_echo} answered wrongly: a function is not a template value'],
      ['cycle', '{shop_echo} answered wrongly: its answer nests too deep (or holds itself)'],
      [
        'deep',
        '{shop_echo} answered wrongly: its answer is not a template value (a value nested deeper than 64 levels cannot cross the bridge)',
      ],
      [
        'bad-name',
        '{shop_echo} answered wrongly: its answer has an assign entry that is not a [variable name, value] pair',
      ],
      ['iterate', '{shop_echo} answered wrongly: its answer has iterate, which only a block answers'],
    ];
    for (const [what, message] of cases) {
      const e = await templateError(render(`{shop_echo what="${what}"}`));
      expect([e.code, e.message], what).toEqual(['E_HOST_FAILED', '{shop_echo} failed on the host']);
      const error = reported.at(-1)!.error as Error;
      expect([error.name, error.message], what).toEqual(['PluginAnswerError', message]);
    }
  });

  it("calls count against the render's bridge quota like any host call", async () => {
    const e = testEngine({ plugins, limits: { maxHostCalls: 3 } });
    expect((await e.render('{shop_price id=1}{$n|yen}{shop_price id=1}', { vars: { n: 1 } })).output).toBe(
      '100 JPY1円100 JPY',
    );
    const err = await templateError(e.render('{section name=i loop=4}{$n|yen}{/section}', { vars: { n: 1 } }));
    expect(err.code).toBe('E_BRIDGE_QUOTA');
  });

  it('an identity attribute keeps the built-in rule: a literal, or a variable for a super user only', async () => {
    expect((await render('{shop_member_points member_id=2}')).output).toBe('20');
    const e = await templateError(
      engine.render('\n{shop_member_points member_id=$m}', { name: 'shop.tpl', vars: { m: 2 } }),
    );
    expect([e.code, e.line, e.column]).toEqual(['E_IDENTITY_DENIED', 2, 31]);
    const su = await engine.render('{shop_member_points member_id=$m}', {
      vars: { m: 2 },
      identity: { memberId: 1, superUser: true },
    });
    expect(su.output).toBe('20');
  });

  it('a plugin naming an adapter the host lacks is refused before it runs, as built-in ones are', async () => {
    expect((await render('{shop_fetch}')).output).toBe('fetched');
    const bare = testEngine({ plugins, host: {} });
    const e = await templateError(bare.render('{shop_fetch}'));
    expect(e.code).toBe('E_HOST_CAPABILITY');
    expect(e.message).toContain('HostAdapters.http');
  });

  it("unknown names still get the hint, now among the engine's names too", async () => {
    const tag = await templateError(render('{shop_prise id=1}'));
    expect([tag.code, tag.message]).toEqual(['E_UNKNOWN_TAG', 'unknown tag {shop_prise}; did you mean "shop_price"?']);
    const mod = await templateError(render('{$n|yenn}'));
    expect([mod.code, mod.message]).toEqual(['E_UNKNOWN_MODIFIER', 'unknown modifier "yenn"; did you mean "yen"?']);
  });

  it('a template past the inline size compiles on the compile thread with the same plugins', async () => {
    const big = `{* ${'x'.repeat(INLINE_MAX_CHARS)} *}{shop_price id=4}{$n|yen}`;
    expect((await render(big, { n: 5 })).output).toBe('400 JPY5円');
    const e = await templateError(render(`{* ${'x'.repeat(INLINE_MAX_CHARS)} *}\n{shop_price id="x"}`));
    expect([e.code, e.line]).toEqual(['E_BAD_ATTR', 2]);
  });
});

describe('compiled code is per engine', () => {
  it('two engines with different plugins compile the same template differently, each to its own', async () => {
    const other = definePlugin({
      kind: 'function',
      name: 'shop_price',
      summary: 'Another shop: the price in cents.',
      attrs: { id: { type: 'int', required: true }, note: { type: 'string' } },
      examples: [{ template: '{shop_price id=1}', output: '1 cents' }],
      run: (attrs) => ({ output: `${String(attrs.id)} cents` }),
    });
    const a = createEngine({ plugins: [price], workers: 0 });
    const b = createEngine({ plugins: [other], workers: 0 });
    const none = createEngine({ workers: 0 });
    try {
      const source = '{shop_price id=7}';
      expect((await a.render(source)).output).toBe('700 JPY');
      expect((await b.render(source)).output).toBe('7 cents');
      expect((await templateError(none.render(source))).code).toBe('E_UNKNOWN_TAG');
      // Each again, from its cache: nothing one compiled reaches the other.
      expect((await a.render(source)).output).toBe('700 JPY');
      expect((await b.render(source)).output).toBe('7 cents');
      // The declarations differ too: what one engine accepts the other refuses at compile time.
      expect((await b.render('{shop_price id=1 note="n"}')).output).toBe('1 cents');
      expect((await templateError(a.render('{shop_price id=1 note="n"}'))).code).toBe('E_UNKNOWN_ATTR');
      expect(a.compile(source).code).toContain('rt.hostFn("shop_price")');
      expect(none.compile('{counter}').code).toContain('rt.fn("counter")');
    } finally {
      await a.close();
      await b.close();
      await none.close();
    }
  });

  it('an engine without plugins of its own compiles as before: the built-in set, no host-only aliases', async () => {
    const none = createEngine({ workers: 0 });
    const empty = createEngine({ plugins: [], workers: 0 });
    try {
      const source = '{$x|upper}{counter}';
      expect(empty.compile(source).code).toBe(none.compile(source).code);
      expect(none.compile(source).code).not.toMatch(/hostFn|hostModifier/);
    } finally {
      await none.close();
      await empty.close();
    }
  });
});

describe('values an embedder works with', () => {
  it('attributes arrive as template values (PhpArray for arrays, key order kept); plain data answers become arrays', async () => {
    let got: Value = null;
    const take = definePlugin({
      kind: 'function',
      name: 'shop_take',
      summary: 'Keeps what it was given.',
      attrs: { list: { type: 'array', required: true } },
      examples: [{ template: '{shop_take list=$l}', vars: { l: [1] }, output: '' }],
      run(attrs) {
        got = attrs.list ?? null;
        return { assign: [['back', { b: 2, a: [1, 'x'] }]] };
      },
    });
    const e = createEngine({ plugins: [take], workers: 0 });
    try {
      const r = await e.render('{shop_take list=$l}{foreach from=$back key=k item=v}{$k},{/foreach}{$back.a.1}', {
        vars: '{"l": {"2": "two", "1": "one"}}',
      });
      expect(r.output).toBe('b,a,x');
      expect(got).toBeInstanceOf(PhpArray);
      expect((got as unknown as PhpArray).keys()).toEqual([2, 1]);
      expect(toJS(got)).toEqual({ 2: 'two', 1: 'one' });
    } finally {
      await e.close();
    }
  });
});
