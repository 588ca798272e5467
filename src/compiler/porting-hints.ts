/**
 * Porting help: a template written for Smarty 3 or later fails here where it uses what Smarty 2
 * lacks ({extends}, {block}, `{foreach $a as $x}`, `{$x = 1}`, `$x@first`...), and one written for
 * stock Smarty 2 where it uses a stock plugin the platform does not have ({html_options},
 * {mailto}, {eval}...). The compiler's diagnostic at such a tag ("unknown tag", "unrecognized
 * tag", ignored text) gets a hint that names the construct and what the dialect offers instead
 * (docs/dialect.md, Smarty 3).
 */
import type { Diagnostic } from '../errors.js';

interface Hint {
  /** Tested against the tag's text between its braces, white space trimmed. */
  test: RegExp;
  /** The hint; `$1`... are the test's groups. */
  hint: (m: RegExpExecArray) => string;
}

/** Stock Smarty 2 plugins the platform does not have: what to write instead. */
const STOCK_SMARTY2: readonly Hint[] = [
  {
    test: /^html_(options|checkboxes|radios)\b/,
    hint: (m) =>
      `{html_${m[1]}} is a stock Smarty 2 plugin the dialect does not have: write the ${m[1] === 'options' ? '<option>' : '<input>'} tags in {foreach from=$list key=k item=label}, with |escape`,
  },
  {
    test: /^html_(select_date|select_time|table|image)\b/,
    hint: (m) =>
      `{html_${m[1]}} is a stock Smarty 2 plugin the dialect does not have: write the HTML with {foreach} or {section} (and date_format for dates)`,
  },
  {
    test: /^mailto\b/,
    hint: () =>
      '{mailto} is a stock Smarty 2 plugin the dialect does not have: write <a href="mailto:{$address|escape}">',
  },
  {
    test: /^popup(_init)?\b/,
    hint: () => "{popup} (overLIB) is a stock Smarty 2 plugin the dialect does not have: write the page's own markup",
  },
  {
    test: /^\/?textformat\b/,
    hint: () =>
      '{textformat} is a stock Smarty 2 plugin the dialect does not have: use the wordwrap and indent modifiers',
  },
  {
    test: /^eval\b/,
    hint: () =>
      '{eval} is not in the dialect: templates are compiled before they run, in the sandbox; use {include} or {function}',
  },
  {
    test: /^fetch\b/,
    hint: () =>
      "{fetch} is not in the dialect: use {api} for HTTP (through the host's egress rules), {read_file} for site files",
  },
  {
    test: /^debug\b/,
    hint: () => '{debug} is not in the dialect: print a value with |@debug_print_var, or send it to {logger}',
  },
  {
    test: /^config_load\b/,
    hint: () => 'config files are not in the dialect: {assign} the values in an included template',
  },
  {
    test: /^#\w+#/,
    hint: () =>
      'config variables ({#name#}) come from {config_load}, which the dialect does not have: {assign} the values in an included template and print {$name}',
  },
  { test: /^insert\b/, hint: () => '{insert} is not in the dialect: use {include} or {function}' },
  {
    test: /\|@?rawurlencode\b/,
    hint: () => "rawurlencode is not among the platform's modifiers: |escape:'url' encodes the same way",
  },
  {
    test: /^include_php\b/,
    hint: () => '{include_php} is not in the dialect: templates never run PHP code; use modifiers and plugins',
  },
];

const HINTS: readonly Hint[] = [
  ...STOCK_SMARTY2,
  {
    test: /^\/?extends\b/,
    hint: () =>
      '{extends} is Smarty 3 template inheritance, which Smarty 2 lacks: keep the shared layout in templates and {include file=...} its parts from each page',
  },
  {
    test: /^\/?block\b/,
    hint: () =>
      '{block} is Smarty 3 template inheritance, which Smarty 2 lacks: use {include file=...} for shared parts, or {capture name=...} and $smarty.capture.NAME',
  },
  {
    test: /^foreach\s+(\$[\w.]+)\s+as\s+\$(\w+)(?:\s*=>\s*\$(\w+))?/,
    hint: (m) =>
      `{foreach ${m[1]} as ...} is Smarty 3 syntax: write {foreach from=${m[1]} ${m[3] ? `key=${m[2]} item=${m[3]}` : `item=${m[2]}`}}`,
  },
  {
    test: /@(iteration|index|first|last|total|key|show)\b/,
    hint: (m) =>
      `$x@${m[1]} is Smarty 3: give the loop a name ({foreach ... name=f}) and read $smarty.foreach.f.${m[1]}`,
  },
  { test: /^else\s+if\b/, hint: () => "{else if} is Smarty 3's {elseif}" },
  {
    test: /^\/?for\b/,
    hint: () => '{for} is Smarty 3: loop with {section name=i start=1 loop=11} ($smarty.section.i.index) or {foreach}',
  },
  {
    test: /^\/?while\b/,
    hint: () => '{while} is Smarty 3: loop with {foreach} or {section}, and leave early with {break}',
  },
  {
    test: /^\$([\w.]+)\s*(\+\+|--)$/,
    hint: (m) => `{$x${m[2]}} is Smarty 3: write {assign var=${m[1]} value=$${m[1]}${m[2][0]}1}`,
  },
  {
    test: /^\$([\w.]+)(?:\[[^\]]*\])*\s*[-+*/.]?=(?!=)/,
    hint: (m) => `{$x = ...} is Smarty 3 assignment: write {assign var=${m[1]} value=...}`,
  },
  {
    test: /^\/?nocache\b|\bnocache\b/,
    hint: () => 'nocache is Smarty 3 caching, which the dialect has no use for: remove it',
  },
  {
    test: /\bnofilter\b/,
    hint: () =>
      'nofilter is Smarty 3: Smarty 2 prints the value as it is; with default modifiers, write |smarty:nodefaults',
  },
  {
    test: /^\/?setfilter\b/,
    hint: () =>
      '{setfilter} is Smarty 3: the engine option defaultModifiers (site.json default_modifiers) puts modifiers on every variable',
  },
  {
    test: /^call\b/,
    hint: () =>
      '{call} is Smarty 3: in the dialect {function name=... var=...} calls a stored custom function (functions/NAME.tpl), and {include file=...} a template',
  },
  {
    test: /^\/function\b/,
    hint: () =>
      '{function}...{/function} defines a Smarty 3 template function: in the dialect {function name=... var=...} calls a stored custom function (functions/NAME.tpl)',
  },
  {
    test: /^(include|extends|capture|block)\s+['"]/,
    hint: (m) =>
      `{${m[1]} 'name'} is Smarty 3 shorthand: write the attribute, {${m[1] === 'capture' || m[1] === 'block' ? `${m[1]} name=` : `${m[1]} file=`}'...'}`,
  },
  {
    test: /^include\b.*\binline\b/,
    hint: () =>
      'inline is a Smarty 3 {include} option: remove it (included templates are compiled into the page anyway)',
  },
  {
    test: /\bscope\s*=/,
    hint: () => "scope= is Smarty 3: Smarty 2 variables are the render's, seen by included templates as they are",
  },
  { test: /\bis\s+(not\s+)?in\b/, hint: () => '"is in" is Smarty 3: use in_array($value, $list)' },
  {
    test: /\$smarty\.block\b/,
    hint: () => '$smarty.block is Smarty 3 template inheritance, which Smarty 2 lacks: use {include file=...}',
  },
  {
    test: /->\w+\s*\(/,
    hint: () =>
      'templates cannot call methods (Smarty 3 allows $obj->method()): read a property ($obj->prop), or use a modifier',
  },
  {
    test: /^\$[^?]*\s\?\s[^:]*:/,
    hint: () => 'the ternary operator is Smarty 3: use {if}...{else}...{/if}, or the default modifier',
  },
  {
    test: /^assign\s+(?!\w+\s*=)/,
    hint: () => '{assign x value} is Smarty 3 shorthand: write {assign var=x value=...}',
  },
];

/** The hint for a tag's text (braces included or not), or null when it is nothing Smarty 3 has. */
export function portingHint(tag: string): string | null {
  const body = tag.replace(/^\{\s*/, '').replace(/\s*\}$/, '');
  for (const h of HINTS) {
    const m = h.test.exec(body);
    if (m) return h.hint(m);
  }
  return null;
}

/**
 * Adds the hint of the tag each diagnostic points into, when that tag is Smarty 3 syntax.
 * `sources` maps a template name to its text.
 */
export function withPortingHints(diagnostics: Diagnostic[], sources: ReadonlyMap<string, string>): Diagnostic[] {
  return diagnostics.map((d) => {
    const text = sources.get(d.name);
    if (text === undefined || d.line < 1) return d;
    const tag = tagAt(text, d.line, d.column);
    const hint = tag === null ? null : portingHint(tag);
    return hint === null ? d : { ...d, message: `${d.message}${/[.?!]$/.test(d.message) ? '' : '.'} ${hint}` };
  });
}

/** The text of the tag around line:column (1-based), from its `{` to its `}`, or null. */
function tagAt(text: string, line: number, column: number): string | null {
  let at = 0;
  for (let l = 1; l < line; l++) {
    at = text.indexOf('\n', at) + 1;
    if (at === 0) return null;
  }
  const offset = at + column - 1;
  const start = text.lastIndexOf('{', offset);
  if (start < 0) return null;
  const end = text.indexOf('}', Math.max(offset, start));
  // A tag reaches no further than its line's next few hundred characters: past that it is text.
  if (end < 0 || end - start > 400) return null;
  return text.slice(start, end + 1);
}
