/**
 * The attacks session's language cases (docs/security.md CG-20, CG-21): what public Smarty 2
 * exploits reach for when a template author is hostile. Stock Smarty 2 reads host files and URLs
 * for a template (`{fetch}`, `{html_image}`, `file:` and `eval:` resources) and, with its security
 * off, runs any PHP function as a modifier or a `{math}` function. Here each must be a compile
 * error or plain data, never a read of the host or a call.
 */
import type { SecurityCase } from '../types.js';
import { allRefused, judge, type Refusal } from './helpers.js';

const NOT_A_TAG = ['E_UNKNOWN_TAG'];
const NO_SUCH_TEMPLATE = ['E_INCLUDE_NOT_FOUND', 'E_DYNAMIC_INCLUDE'];

/** Stock tags that read host files or URLs, and include names that are host paths or resources. */
const HOST_READS: Refusal[] = [
  { template: '{fetch file="/etc/passwd"}', codes: NOT_A_TAG },
  { template: '{fetch file="http://169.254.169.254/latest/meta-data/" assign=x}{$x}', codes: NOT_A_TAG },
  { template: '{html_image file="/etc/passwd"}', codes: NOT_A_TAG },
  { template: '{include file="/etc/passwd"}', codes: NO_SUCH_TEMPLATE },
  { template: '{include file="file:/etc/passwd"}', codes: NO_SUCH_TEMPLATE },
  { template: '{include file="../../../../etc/passwd"}', codes: NO_SUCH_TEMPLATE },
  { template: '{include file="php://filter/resource=/etc/passwd"}', codes: NO_SUCH_TEMPLATE },
  { template: '{include file="C:\\\\Windows\\\\win.ini"}', codes: NO_SUCH_TEMPLATE },
  { template: '{include file="string:{$smarty.now}"}', codes: NO_SUCH_TEMPLATE },
  { template: '{include file="eval:{$smarty.now}"}', codes: NO_SUCH_TEMPLATE },
  { template: '{include file="a\u0000.tpl"}', codes: NO_SUCH_TEMPLATE, label: 'an include name with NUL' },
  {
    template: `{include file="${'x'.repeat(100_000)}"}`,
    codes: NO_SUCH_TEMPLATE,
    label: 'an include name of 100,000 characters',
  },
  { template: '{include file=$n}', codes: NO_SUCH_TEMPLATE, opts: { vars: { n: '/etc/passwd' } } },
];

/** PHP functions stock Smarty 2 calls as modifiers when its security is off. */
const PHP_FUNCTIONS = [
  'system',
  'exec',
  'shell_exec',
  'passthru',
  'popen',
  'proc_open',
  'call_user_func',
  'call_user_func_array',
  'array_map',
  'usort',
  'preg_replace_callback',
  'create_function',
  'assert',
  'eval',
  'include',
  'constant',
  'getenv',
  'ini_get',
  'phpinfo',
  'extract',
  'parse_str',
  'unserialize',
  'file_get_contents',
  'readfile',
  'fopen',
  'mail',
];

const CALLS: Refusal[] = [
  ...PHP_FUNCTIONS.map((f) => ({ template: `{"id"|${f}}`, codes: ['E_UNKNOWN_MODIFIER'] })),
  { template: '{$a|@system}', codes: ['E_UNKNOWN_MODIFIER'], opts: { vars: { a: ['id'] } } },
  { template: '{$a|@array_map:"system"}', codes: ['E_UNKNOWN_MODIFIER'], opts: { vars: { a: ['id'] } } },
  { template: '{math equation="getenv(x)" x=1}', codes: ['E_BAD_ATTRIBUTE'] },
  { template: '{math equation="phpinfo()"}', codes: ['E_BAD_ATTRIBUTE'] },
  { template: '{math equation="x(1)" x="system"}', codes: ['E_BAD_ATTRIBUTE'] },
  { template: '{$x->system()}', codes: ['E_SYNTAX'], opts: { vars: { x: {} } } },
];

export const CG_STOCK: SecurityCase[] = [
  {
    id: 'CG-20',
    category: 'CG',
    title: 'stock tags that read host files or URLs, and include names that are host paths or resources',
    async run(h) {
      return (
        (await allRefused(h, HOST_READS)) ?? {
          status: 'contained',
          detail: `${HOST_READS.length} forms refused: no such tag, or no such template of the tenant`,
        }
      );
    },
  },
  {
    id: 'CG-21',
    category: 'CG',
    title: 'PHP functions as modifiers and {math} functions, constants, method calls',
    async run(h) {
      const bad = await allRefused(h, CALLS);
      if (bad) return bad;
      // $smarty.const is empty (there are no PHP constants), and regex_replace drops `e` as
      // Smarty 2 does, so the replacement is text, never code.
      const a = await h.render(
        '[{$smarty.const.PHP_VERSION}{$smarty.const.DB_PASSWORD}{$smarty.const.constructor}]{"id"|regex_replace:"/.*/e":"system(\'id\')"}',
      );
      return judge(
        h,
        a,
        a.output === "[]system('id')system('id')",
        `${CALLS.length} calls refused; $smarty.const empty; /e dropped, the replacement printed as text`,
      );
    },
  },
];
