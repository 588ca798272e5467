/**
 * `smartcage check --compat`: the places where a template relies on a documented departure of the
 * dialect from stock Smarty 2 (docs/dialect.md, "Departures from stock Smarty 2"), as W_DIALECT
 * warnings. A template ported from stock Smarty 2, or run there, may behave differently at
 * exactly these places; nothing else about the template changes.
 */
import type { Diagnostic } from '../errors.js';
import { SourceText } from '../errors.js';
import { parseTemplate } from './parse.js';
import { builtinTag } from './builtin-tags.js';
import { BUILTIN_PLUGINS } from '../plugins/registry.js';
import type { PluginSet } from '../plugins/plugin-set.js';

/** The function tags of stock Smarty 2.6 (its plugins folder and compiler); any other tag is the platform's. */
const SMARTY2_FUNCTIONS = new Set([
  'assign',
  'counter',
  'cycle',
  'debug',
  'eval',
  'fetch',
  'html_checkboxes',
  'html_image',
  'html_options',
  'html_radios',
  'html_select_date',
  'html_select_time',
  'html_table',
  'mailto',
  'math',
  'popup',
  'popup_init',
  'textformat',
  'config_load',
  'insert',
]);

/** The built-in tags the dialect adds to Smarty 2's. */
const DIALECT_TAGS = new Set(['break', 'continue', 'return', 'function', 'set_memory']);

/** Modifiers whose result differs from PHP 8 under Smarty 2 for some input (docs/dialect.md, Modifiers). */
const DIFFERING_MODIFIERS: Readonly<Record<string, string>> = {
  json_decode: 'json_decode gives arrays by default (PHP: objects)',
  count: 'count of anything that is not an array is 0 (PHP 8: a TypeError)',
  explode: "explode of an empty string is an empty array (PHP: [''])",
  split: 'split of an empty string is an empty array',
  implode: 'implode takes its two arguments in either order (PHP 8: glue first)',
  join: 'join takes its two arguments in either order (PHP 8: glue first)',
  date_format: "date_format is the platform's: PHP date() letters, Y-m-d by default, the site's time zone",
};

/** Modifiers that give '' for a value that is not a scalar: with `@` they may get one. */
const SCALAR_ONLY = new Set(['cat', 'escape', 'strtolower', 'substr']);

type Node = { type: string; start: number; end: number; [k: string]: unknown };

export function dialectDepartures(source: string, name: string, plugins: PluginSet = BUILTIN_PLUGINS): Diagnostic[] {
  const src = new SourceText(name, source);
  const { nodes } = parseTemplate(src);
  const found = new Map<string, Diagnostic>();
  const note = (n: { start: number; end: number }, message: string) => {
    const key = `${n.start}:${message}`;
    if (!found.has(key)) found.set(key, src.diagnostic('warning', 'W_DIALECT', message, n.start, n.end));
  };
  const walk = (n: unknown, inIf: boolean): void => {
    if (Array.isArray(n)) {
      for (const x of n) walk(x, inIf);
      return;
    }
    if (n === null || typeof n !== 'object') return;
    const node = n as Node;
    if (typeof node.type === 'string') visit(node, inIf);
    const cond = node.type === 'If' || node.type === 'ElseIf';
    for (const [k, v] of Object.entries(node)) if (k !== 'start' && k !== 'end') walk(v, inIf || cond);
  };
  const visit = (n: Node, inIf: boolean) => {
    const text = source.slice(n.start, n.end);
    switch (n.type) {
      case 'String':
      case 'Interp':
        if ((text.startsWith('"') || text.startsWith("'")) && text.includes('}'))
          note(
            n,
            'a } inside a quoted value: the dialect reads tags quote-aware, Smarty 2 ends the tag at the first }',
          );
        break;
      case 'Key': {
        const key = n.key as Node;
        const at = source[key.start];
        if (at === "'" || at === '"')
          note(n, "a quoted key in brackets ($a['key']) is the dialect's; Smarty 2 reads $a.key or $a[key]");
        break;
      }
      case 'Modifier': {
        const modName = n.name as string;
        if (DIFFERING_MODIFIERS[modName]) note(n, DIFFERING_MODIFIERS[modName]);
        else if (SCALAR_ONLY.has(modName) && n.all)
          note(n, `${modName} with @ gives '' for a value that is not a scalar (PHP: a TypeError or a notice)`);
        else if (plugins.findModifier(modName)?.origin === 'platform')
          note(n, `the modifier ${modName} is the platform's, not stock Smarty 2's`);
        break;
      }
      case 'Call':
        if (n.name === 'count') note(n, DIFFERING_MODIFIERS.count!);
        break;
      case 'Var': {
        const path = n.path as Node[];
        if (n.name === 'smarty' && path[0]?.type === 'Key' && source.slice(path[0].start, path[0].end) === '.const')
          note(n, "$smarty.const reads the dialect's constants (src/php/constants.ts and the host's), not PHP's");
        break;
      }
      case 'Bool':
      case 'Null':
        if (inIf && text !== text.toLowerCase())
          note(
            n,
            `${text} in {if}: Smarty 2 in secure mode refuses it (its words are lowercase); the dialect reads any case`,
          );
        break;
      case 'Tag': {
        const tag = n.name as string;
        if (DIALECT_TAGS.has(tag)) note(n, `{${tag}} is the dialect's, not stock Smarty 2's`);
        else if (!builtinTag(tag) && !SMARTY2_FUNCTIONS.has(tag) && plugins.findFunction(tag))
          note(n, `{${tag}} is the platform's, not stock Smarty 2's`);
        if (tag === 'assign') {
          const v = (n.attrs as Node[]).find((a) => a.name === 'var')?.value as Node | undefined;
          if (v?.type === 'String' && (v.value as string).includes('.'))
            note(
              v,
              'a dotted {assign} name (var="a.b", var="list.") sets a key: the dialect\'s; Smarty 2 makes a variable of that name',
            );
        }
        break;
      }
    }
  };
  walk(nodes, false);
  return [...found.values()].sort((a, b) => a.line - b.line || a.column - b.column);
}
