/**
 * The constructs of bench:constructs: one template per thing a page does, each over the same 100
 * rows, so that a construct that is slow against Smarty 2.6.33 shows on its own rather than
 * averaged into a page (issue 35: faster than the PHP engine on any page, not only the
 * benchmark's). Templates use only what stock Smarty 2.6.33 and the dialect both mean the same
 * way (the conformance README's list of departures is left out); the bench checks the outputs
 * equal before it times anything.
 */
import { mulberry32 as prng } from '../../test/support/prng.js';
import { japanese } from '../pages/pages.js';

export interface Construct {
  name: string;
  template: string;
}

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'news', 'tech', 'food', 'Smarty', 'PHP', 'a&b', '<tag>', 'x"y'];

/** The rows every construct reads: ASCII and Japanese text, numbers, dates, flags and lists. */
export function constructVars(): Record<string, unknown> {
  const rnd = prng(3601);
  const word = () => WORDS[Math.floor(rnd() * WORDS.length)]!;
  const sentence = (n: number) => Array.from({ length: n }, word).join(' ');
  const rows = [];
  for (let i = 0; i < 100; i++) {
    rows.push({
      id: 1000 + i,
      name: `${word()} ${word()}`,
      title: `${sentence(4)} & <b>${i}</b> "q"`,
      body: `${sentence(12)}\n${sentence(10)}\n\n${sentence(14)}`,
      ja: japanese(rnd, 30 + Math.floor(rnd() * 40)),
      price: Math.floor(rnd() * 100_000),
      ratio: Math.floor(rnd() * 100_000) / 1000,
      date: 1_700_000_000 + Math.floor(rnd() * 30_000_000),
      flag: rnd() < 0.5,
      empty: i % 3 === 0 ? '' : 'set',
      tags: WORDS.slice(i % 5, (i % 5) + 1 + (i % 3)),
      url: `https://example.jp/items/${1000 + i}?q=${word()}&p=${i}`,
    });
  }
  return { rows, names: WORDS.slice(0, 6), limit: 50_000, title: 'Constructs <bench>' };
}

const each = (body: string, attrs = '') => `{foreach from=$rows item=r${attrs}}${body}\n{/foreach}`;

export function constructs(): Construct[] {
  return [
    // The floor: the rows cross in, the render, the answer out.
    { name: 'empty', template: '' },
    { name: 'loop', template: each('{$r.id}') },
    { name: 'print', template: each('{$r.id} {$r.name} {$r.price} {$r.ratio} {$r.flag}') },
    { name: 'escape', template: each('{$r.title|escape}') },
    { name: 'escape-url', template: each('{$r.url|escape:"url"}') },
    { name: 'escape-quotes', template: each('{$r.title|escape:"quotes"}') },
    { name: 'escape-js', template: each('{$r.body|escape:"javascript"}') },
    { name: 'escape-ja', template: each('{$r.ja|escape:"htmlall":"UTF-8"}') },
    { name: 'truncate', template: each('{$r.body|truncate:40}') },
    { name: 'date_format', template: each('{$r.date|date_format:"%Y-%m-%d %H:%M"}') },
    { name: 'string_format', template: each('{$r.ratio|string_format:"%.2f"}') },
    { name: 'number_format', template: each('{$r.price|number_format}') },
    { name: 'capitalize', template: each('{$r.name|capitalize}') },
    { name: 'upper-lower', template: each('{$r.name|upper} {$r.title|lower}') },
    { name: 'replace', template: each('{$r.body|replace:"a":"4"}') },
    { name: 'regex_replace', template: each('{$r.body|regex_replace:"/[aeiou]+/":"_"}') },
    { name: 'nl2br', template: each('{$r.body|nl2br}') },
    { name: 'strip_tags', template: each('{$r.title|strip_tags}') },
    { name: 'default', template: each('{$r.empty|default:"none"}') },
    { name: 'cat', template: each('{$r.name|cat:" #":$r.id}') },
    { name: 'wordwrap', template: each('{$r.body|wordwrap:30:"\\n":true}') },
    { name: 'chain', template: each('{$r.title|strip_tags|escape|truncate:20:"..."|upper}') },
    { name: 'count', template: each('{$r.tags|@count}') },
    { name: 'implode', template: each('{","|implode:$r.tags}') },
    { name: 'sprintf', template: each('{"%05d-%s"|sprintf:$r.id:$r.name}') },
    { name: 'substr-strlen', template: each('{$r.name|substr:0:5} {$r.body|strlen}') },
    { name: 'mb', template: each('{$r.ja|mb_substr:0:10} {$r.ja|mb_strlen}') },
    { name: 'if-else', template: each('{if $r.price > $limit}high{elseif $r.price > 20000}mid{else}low{/if}') },
    {
      name: 'if-logic',
      template: each('{if $r.flag && ($r.id % 3 == 0 || $r.name eq "news tech")}y{else}n{/if}'),
    },
    { name: 'if-in_array', template: each('{if in_array($r.tags[0], $names)}in{/if}') },
    { name: 'math-inline', template: each('{$r.price*2+$r.id-1} {$r.ratio/4}') },
    { name: 'math-tag', template: each('{math equation="x * y + 1" x=$r.price y=2}') },
    { name: 'assign', template: each('{assign var=x value=$r.name}{$x}') },
    { name: 'assign-quoted', template: each('{assign var=x value="`$r.name` (#`$r.id`)"}{$x}') },
    {
      name: 'accumulate',
      template: `{assign var=acc value=""}${each('{assign var=acc value="`$acc`,`$r.id`"}')}{$acc}`,
    },
    { name: 'capture', template: each('{capture name=c}<i>{$r.name}</i>{/capture}{$smarty.capture.c}') },
    { name: 'cycle', template: each('{cycle values="odd,even"}') },
    { name: 'counter', template: `{counter start=0 print=false}${each('{counter}')}` },
    {
      name: 'foreach-props',
      template: each(
        '{$k}:{$smarty.foreach.l.iteration}{if $smarty.foreach.l.first}F{/if}{if $smarty.foreach.l.last}L{/if}',
        ' key=k name=l',
      ),
    },
    { name: 'nested-foreach', template: each('{foreach from=$r.tags item=t}[{$t}]{/foreach}') },
    { name: 'section', template: '{section name=i loop=$rows}{$rows[i].id} {$rows[i].name}\n{/section}' },
    {
      name: 'section-props',
      template: '{section name=i loop=$rows step=2}{$smarty.section.i.index}/{$smarty.section.i.rownum}\n{/section}',
    },
    { name: 'strip', template: `{strip}${each('\n  <li>\n    {$r.id}\n  </li>')}{/strip}` },
    { name: 'json_encode', template: each('{$r|@json_encode}') },
    {
      name: 'html',
      template:
        '<!DOCTYPE html>\n<html><head><title>{$title|escape}</title></head><body>\n<table>\n' +
        each(
          '<tr class="{cycle values="a,b"}"><td>{$r.id}</td><td><a href="{$r.url|escape}">{$r.title|escape}</a></td>' +
            '<td>{$r.price|number_format}</td><td>{$r.date|date_format:"%Y/%m/%d"}</td></tr>',
        ) +
        '</table></body></html>',
    },
  ];
}
