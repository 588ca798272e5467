/** The built-in tag table (src/compiler/builtin-tags.ts) and the plugin registry stay in step. */
import { describe, expect, it } from 'vitest';
import { BUILTIN_TAG_NAMES, builtinTag } from '../../src/compiler/builtin-tags.js';
import { findFunction } from '../../src/plugins/registry.js';
import { FUNCTION_NAMES } from '../../src/plugins/catalog.js';

describe('built-in tags', () => {
  it('only the spec plugins the compiler writes itself are also declared in the registry', () => {
    expect(BUILTIN_TAG_NAMES.filter((name) => findFunction(name) || FUNCTION_NAMES.includes(name))).toEqual([
      'return',
      'function',
      'set_memory',
    ]);
  });

  it('their registry declaration prints nothing, as their table entry says', () => {
    for (const name of ['return', 'function', 'set_memory']) {
      const builtin = builtinTag(name);
      expect({ name, plugin: findFunction(name)?.kind, prints: builtin?.kind === 'tag' && builtin.prints }).toEqual({
        name,
        plugin: 'compiler',
        prints: false,
      });
    }
  });

  it('alternative branches are names for the suggestions, not tags of their own; inherited keys are not tags', () => {
    expect(BUILTIN_TAG_NAMES).toEqual(expect.arrayContaining(['foreachelse', 'sectionelse']));
    expect(builtinTag('foreachelse')).toBeUndefined();
    expect(builtinTag('toString')).toBeUndefined();
  });
});
