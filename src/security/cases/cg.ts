/** CG: compiler and generated code (docs/security.md CG). */
import { Script } from 'node:vm';
import { compile } from '../../compiler/index.js';
import type { SecurityCase } from '../types.js';
import { judge, refuses, refusesAll, renders } from './helpers.js';

const HOSTILE = `a"); hostCall('k'); ("` + "'`${x}</script>\\";

/** Writes text as a Smarty single-quoted string (only \\ and \' are escapes there). */
function singleQuoted(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
}

/** Writes text as a Smarty double-quoted string: PHP escapes, and backticks and $ escaped. */
function doubleQuoted(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\$/g, '\\$').replace(/`/g, '\\x60');
}

export const CG: SecurityCase[] = [
  renders(
    'CG-01',
    'CG',
    'string literal breakout stays text',
    `{assign var=x value='${singleQuoted(HOSTILE)}'}{$x}|{assign var=y value="${doubleQuoted(HOSTILE)}"}{$y}`,
    `${HOSTILE}|${HOSTILE}`,
  ),
  renders(
    'CG-02',
    'CG',
    'awkward code points in literals render byte-exact',
    '{assign var=x value="a\u2028b\u2029c\ufeffd\re"}{$x}',
    'a\u2028b\u2029c\ufeffd\re',
  ),
  renders(
    'CG-03',
    'CG',
    'JavaScript names as variables are plain, empty variables',
    '[{$constructor}{$__proto__}{$toString}{$globalThis}{$this}{$eval}{$hasOwnProperty}]',
    '[]',
  ),
  renders(
    'CG-04',
    'CG',
    'property walks on values reach nothing',
    '[{$x.constructor.constructor}{$x.__proto__.y}{$s.constructor}{$s.length}]',
    '[]',
    { vars: { x: {}, s: 'str' } },
  ),
  refusesAll(
    'CG-05',
    'CG',
    'modifier names that are JavaScript names',
    ['{$x|constructor}', '{$x|__proto__}', '{$x|eval}', '{$x|valueOf}', '{$a|@hasOwnProperty}'],
    ['E_UNKNOWN_MODIFIER'],
  ),
  refusesAll(
    'CG-06',
    'CG',
    'forbidden and unknown tags',
    [
      '{php}x{/php}',
      '{include_php file="x.php"}',
      '{insert name="x"}',
      '{toString}',
      '{__defineGetter__ var=x}',
      '{config_load file="/etc/passwd"}',
    ],
    ['E_UNKNOWN_TAG', 'E_NOT_IMPLEMENTED', 'E_SYNTAX', 'E_PHP_DISABLED'],
  ),
  refusesAll(
    'CG-07',
    'CG',
    'hostile attribute names and undeclared attributes',
    ['{api endpoint="https://a.example" "b]=1;x()//"=1}', '{assign var=x __proto__=1 value=2}', '{counter bogus=1}'],
    ['E_SYNTAX', 'E_BAD_ATTR', 'E_UNKNOWN_ATTR', 'E_NOT_IMPLEMENTED'],
  ),
  refuses(
    'CG-08',
    'CG',
    'function names are lookup keys, never code',
    '{function name="f(){};globalThis.a=1;function g" var=r}',
    'E_FUNCTION_NOT_FOUND',
  ),
  {
    id: 'CG-09',
    category: 'CG',
    title: 'template names that reach generated text are data',
    async run(h) {
      for (const name of ["a'+x+'", 'a*/b', 'x\n//# sourceURL=y\nhostCall()', '..\u2028evil']) {
        const { code } = compile('{$x}', { name });
        try {
          new Script(code);
        } catch {
          return {
            status: 'escaped',
            detail: `generated code for template name ${JSON.stringify(name)} does not parse`,
          };
        }
        const a = await h.render('{$x}', { name, vars: { x: 1 } });
        if (a.output !== '1') return judge(h, a, false, `template ${JSON.stringify(name)} renders`);
      }
      return { status: 'contained', detail: 'four hostile names compiled to parseable code and rendered' };
    },
  },
  renders(
    'CG-10',
    'CG',
    'comments are dropped and raw blocks stay text',
    '{* a *\\/ b */ c *}{literal}})();{/literal}*/ --> </script>',
    '})();*/ --> </script>',
  ),
  // PHP answers an invalid pattern with null/false and a warning; the point is that nothing runs.
  renders(
    'CG-11',
    'CG',
    'patterns are strings for a pattern constructor, never regex literals',
    '[{$x|regex_replace:"/a/g,\'\');globalThis.z=1;//":"b"}]{rcms_match var=m pattern="/[/" subject=$s}{if $m === false}F{/if}',
    '[]F',
    { vars: { x: 'a', s: 'a' } },
  ),
  refuses(
    'CG-12',
    'CG',
    '{math} has its own arithmetic parser: code in an equation is refused, never run',
    '[{math equation="x+y;this.constructor" x=1 y=2}]',
    'E_BAD_ATTRIBUTE',
  ),
  refuses('CG-13', 'CG', 'no {eval}: data is never compiled as a template', '{eval var=$member.profile}', [
    'E_UNKNOWN_TAG',
    'E_NOT_IMPLEMENTED',
  ]),
  {
    id: 'CG-14',
    category: 'CG',
    title: 'parser and compiler DoS end in a bounded time with an error',
    async run(h) {
      const forms = [
        '{if 1}'.repeat(200_000),
        `{if ${'('.repeat(100_000)}1${')'.repeat(100_000)}}x{/if}`,
        'x'.repeat(2 * 1024 * 1024),
      ];
      for (const t of forms) {
        const a = await h.render(t);
        if (
          !a.code ||
          !['E_TEMPLATE_TOO_LARGE', 'E_NESTING_TOO_DEEP', 'E_UNCLOSED_TAG', 'E_SYNTAX'].includes(a.code) ||
          a.ms > 5000
        ) {
          return judge(h, a, false, 'a bounded refusal within 5 s');
        }
      }
      return { status: 'contained', detail: 'deep nesting, deep parentheses and a 2 MB template refused' };
    },
  },
  renders(
    'CG-15',
    'CG',
    'numeric literals get PHP values through one formatter',
    '{assign var=a value=9007199254740993}{$a}|{math equation="x*1" x=1.5}|{0.5|string_format:"%.1f"}',
    (o) => o.startsWith('900719925474099') && o.endsWith('|1.5|0.5'),
  ),
  {
    id: 'CG-16',
    category: 'CG',
    title: 'the compiled-code cache key includes the engine version and the sources of includes',
    async run(h) {
      const a = await h.render('{$x}', { vars: { x: 'A' } });
      const b = await h.render('{$x}', { vars: { x: 'B' }, identity: { tenant: 'victim' } });
      return judge(
        h,
        b,
        a.output === 'A' && b.output === 'B',
        'identical templates of two tenants render separately (isolates per tenant)',
      );
    },
  },
  refusesAll(
    'CG-17',
    'CG',
    'unbalanced wrappers are compile errors',
    ['{/foreach}', '{/function}', '{foreach from=$a item=b}'],
    ['E_UNEXPECTED_CLOSE', 'E_UNCLOSED_TAG', 'E_UNKNOWN_TAG'],
  ),
  renders(
    'CG-18',
    'CG',
    'escaping keeps values in their context',
    '{$x|escape:"javascript"}|{$x|escape:"url"}|{$x|escape}',
    '<\\/script><script>alert(1)<\\/script>|%3C%2Fscript%3E%3Cscript%3Ealert%281%29%3C%2Fscript%3E|&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;',
    { vars: { x: '</script><script>alert(1)</script>' } },
  ),
];
