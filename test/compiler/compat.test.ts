/** check --compat (src/compiler/compat.ts): the dialect's departures from stock Smarty 2, one warning each. */
import { describe, expect, it } from 'vitest';
import { dialectDepartures } from '../../src/compiler/compat.js';

const notes = (template: string) =>
  dialectDepartures(template, 't.tpl').map((d) => `${d.column} ${d.message.split(/[:;(]/)[0]!.trim()}`);

describe('dialectDepartures', () => {
  it('finds each kind once, at its place', () => {
    expect(notes('{$a["k"]}')).toEqual(['5 a quoted key in brackets']);
    expect(notes('{$s|@json_decode}{$l|@implode:","}{$s|explode:","}')).toEqual([
      '4 json_decode gives arrays by default',
      '21 implode takes its two arguments in either order',
      '38 explode of an empty string is an empty array',
    ]);
    expect(notes('{if Null === $x or FALSE}x{/if}')).toEqual(['5 Null in {if}', '20 FALSE in {if}']);
    expect(notes('{assign var="list." value=1}')).toEqual(['13 a dotted {assign} name']);
    expect(notes('{continue}')).toEqual(["1 {continue} is the dialect's, not stock Smarty 2's"]);
  });

  it('is quiet on stock Smarty 2', () => {
    expect(
      notes(
        '{if $a eq 1 and true}{$x|escape:"html"|truncate:10}{/if}{$a.b}{$a[0]}{assign var=x value="a"}{counter}{cycle values="a,b"}{$smarty.foreach.f.index}',
      ),
    ).toEqual([]);
  });
});
