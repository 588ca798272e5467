/**
 * What createEngine({ plugins }) and definePlugin refuse (docs/decisions.md D66), each with the
 * message that says why, before any worker starts; and runPluginExamples, which renders an
 * embedder's examples as the built-in ones are rendered in test/plugins/examples.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  createEngine,
  definePlugin,
  runPluginExamples,
  type ModifierDefinition,
  type PluginDefinition,
  type TagDefinition,
} from '../../src/index.js';

const tag: TagDefinition = {
  kind: 'function',
  name: 'shop_hello',
  summary: 'Greets.',
  attrs: { who: { type: 'string', default: 'world' } },
  examples: [{ template: '{shop_hello}', output: 'hello world' }],
  run: (attrs) => ({ output: `hello ${String(attrs.who)}` }),
};

const modifier: ModifierDefinition = {
  kind: 'modifier',
  name: 'shop_shout',
  summary: 'Upper case and an exclamation mark.',
  params: [],
  examples: [{ template: '{$w|shop_shout}', vars: { w: 'hi' }, output: 'HI!' }],
  run: (input) => `${String(input).toUpperCase()}!`,
};

/** The message createEngine throws for this list, or null when it takes it. */
function refusal(plugins: unknown): string | null {
  try {
    void createEngine({ plugins: plugins as PluginDefinition[], workers: 0 }).close();
    return null;
  } catch (e) {
    expect(e).toBeInstanceOf(TypeError);
    return (e as Error).message;
  }
}

describe('names an embedder may not take', () => {
  it('a built-in tag, a tag the compiler writes, {php}, or a tag the language reserves', () => {
    expect(refusal([{ ...tag, name: 'assign' }])).toBe(
      'smartcage: createEngine({ plugins }): plugin #1 (assign): {assign} is a built-in tag',
    );
    expect(refusal([{ ...tag, name: 'api_token' }])).toContain('{api_token} is a built-in tag');
    for (const name of ['foreach', 'foreachelse', 'include', 'if', 'else', 'literal', 'capture', 'function']) {
      expect(refusal([{ ...tag, name }]), name).toMatch(/is (a tag the compiler writes itself|a built-in tag)$/);
    }
    expect(refusal([{ ...tag, name: 'php' }])).toContain('{php} is a tag the compiler writes itself');
    expect(refusal([{ ...tag, name: 'webanalytics' }])).toContain('{webanalytics} is a built-in tag');
  });

  it("a built-in modifier, by name or as an alias of the embedder's", () => {
    expect(refusal([{ ...modifier, name: 'upper' }])).toContain('"upper" is a built-in modifier');
    expect(refusal([{ ...modifier, aliases: ['escape'] }])).toContain('"escape" is a built-in modifier');
    expect(refusal([{ ...tag, aliases: ['counter'] }])).toContain('{counter} is a built-in tag');
  });

  it("tags and modifiers are separate namespaces, as in templates: a tag may share a modifier's name", async () => {
    const e = createEngine({
      plugins: [{ ...tag, name: 'upper', examples: [{ template: '{upper}', output: 'hello world' }] }],
      workers: 0,
    });
    try {
      expect((await e.render('{upper who="x"}{$y|upper}', { vars: { y: 'b' } })).output).toBe('hello xB');
    } finally {
      await e.close();
    }
  });

  it('only what the grammar reads as a name: letters, digits and _, not first a digit, at most 64', () => {
    for (const name of ['1abc', 'a-b', 'a b', '', 'x'.repeat(65), 'ä', 42, null]) {
      expect(refusal([{ ...tag, name }]), String(name)).toMatch(
        /is not a tag name: letters, digits and _, not starting with a digit, at most 64 characters$/,
      );
    }
    expect(refusal([{ ...tag, name: `_${'x'.repeat(63)}` }])).toBeNull();
  });

  it('one name twice in the list', () => {
    expect(refusal([tag, { ...tag }])).toBe(
      'smartcage: createEngine({ plugins }): plugin #2 (shop_hello): the name shop_hello is taken by an earlier plugin of the list',
    );
    expect(refusal([tag, { ...tag, name: 'shop_other', aliases: ['shop_hello'] }])).toContain(
      'the name shop_hello is taken by an earlier plugin',
    );
    // A tag and a modifier of one name do not collide.
    expect(refusal([tag, { ...modifier, name: 'shop_hello' }])).toBeNull();
  });
});

describe('definitions that are not whole', () => {
  it('createEngine names the plugin and what is wrong with it, for plain objects too', () => {
    const cases: [unknown, string][] = [
      [{ ...tag, kind: 'compiler' }, 'kind must be function, block or modifier, not "compiler"'],
      [{ ...tag, summary: ' ' }, 'summary must say in a sentence what it does'],
      [{ ...tag, run: undefined }, 'run must be a function (it runs on the host)'],
      [
        { ...tag, examples: [] },
        'examples must list at least one { template, output } (runPluginExamples renders them)',
      ],
      [
        { ...tag, examples: [{ template: '{shop_hello}' }] },
        'each example needs a template and its exact output (strings)',
      ],
      [
        { ...tag, attrs: { who: { type: 'text' } } },
        'attribute who: type must be one of string, int, number, bool, array, mixed, varname',
      ],
      [{ ...tag, attrs: { 'who-am-i': { type: 'string' } } }, '"who-am-i" is not an attribute name'],
      [{ ...tag, attrs: { n: { type: 'int', min: 5, max: 1 } } }, 'attribute n: min is above max'],
      [{ ...tag, attrs: { n: { type: 'int', enum: [1, 2] } } }, 'attribute n: enum must be a list of strings'],
      [
        { ...tag, attrs: { n: { type: 'string', literalUnlessSuperUser: true } } },
        'attribute n: literalUnlessSuperUser is for member ids (type int)',
      ],
      [{ ...tag, attrs: undefined }, 'attrs must be an object of attribute declarations ({} for none)'],
      [{ ...modifier, params: undefined }, 'params must be a list (empty for none)'],
      [
        { ...modifier, params: [{ name: 'n', type: 'float' }] },
        'parameter n: type must be one of string, int, number, bool, array, mixed, varname',
      ],
      [{ ...modifier, input: { type: 'int' } }, 'each modifier parameter needs a name (letters, digits, _)'],
    ];
    for (const [def, why] of cases) {
      expect(refusal([def])).toBe(
        `smartcage: createEngine({ plugins }): plugin #1 (${(def as { name: string }).name}): ${why}`,
      );
    }
    expect(refusal([null])).toBe(
      'smartcage: createEngine({ plugins }): plugin #1: a plugin is an object (definePlugin({ kind, name, ... }))',
    );
    expect(refusal({ shop_hello: tag })).toBe(
      'smartcage: createEngine({ plugins }) takes a list of plugins (definePlugin)',
    );
  });

  it('definePlugin refuses the same where the definition is written', () => {
    expect(() => definePlugin({ ...tag, name: 'assign' })).toThrow(
      new TypeError('smartcage: definePlugin: {assign} is a built-in tag'),
    );
    expect(definePlugin(tag)).toBe(tag);
  });
});

describe('runPluginExamples', () => {
  it("renders every example of the engine's own plugins with that engine", async () => {
    const e = createEngine({ plugins: [definePlugin(tag), definePlugin(modifier)], workers: 0 });
    try {
      const runs = await runPluginExamples(e);
      expect(runs.map((r) => [r.plugin, r.index, r.output, r.ok])).toEqual([
        ['shop_hello', 1, 'hello world', true],
        ['shop_shout', 1, 'HI!', true],
      ]);
    } finally {
      await e.close();
    }
  });

  it('an example whose output differs, or whose render fails, is not ok, with what happened', async () => {
    const wrong: TagDefinition = {
      ...tag,
      examples: [
        { template: '{shop_hello who="you"}', output: 'hello world' },
        { template: '{shop_hello who=}', output: '' },
      ],
    };
    const e = createEngine({ plugins: [wrong], workers: 0 });
    try {
      const [differs, fails] = await runPluginExamples(e);
      expect([differs!.ok, differs!.output, differs!.expected]).toEqual([false, 'hello you', 'hello world']);
      expect([fails!.ok, fails!.output, fails!.error?.code, fails!.error?.template]).toEqual([
        false,
        null,
        'E_SYNTAX',
        'shop_hello-example-2.tpl',
      ]);
    } finally {
      await e.close();
    }
  });

  it('an engine without plugins of its own has no examples; anything else is refused', async () => {
    const e = createEngine({ workers: 0 });
    try {
      expect(await runPluginExamples(e)).toEqual([]);
      await expect(runPluginExamples({} as typeof e)).rejects.toThrow(
        'runPluginExamples takes an engine made by createEngine',
      );
    } finally {
      await e.close();
    }
  });
});
