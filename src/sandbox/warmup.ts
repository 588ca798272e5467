/**
 * What a spare isolate renders before any tenant gets it: a built-in template that goes through
 * the runtime paths most templates use (loops, conditions, the common modifiers), so that V8 has
 * compiled those functions and a new tenant's first render does not pay for it. Only this
 * template runs there: a spare has never run tenant code.
 */
import { compile } from '../compiler/index.js';
import type { CompiledTemplate } from './isolate-host.js';
import { renderRequest, type RenderRequestBody } from './request.js';

const SOURCE = `{assign var=total value=0}{foreach from=$items item=item name=l key=k}
<li class="{if $item.on}on{else}off{/if}">{$smarty.foreach.l.iteration} {$item.title|escape} {$item.body|truncate:40:"...":true|escape}
{$item.date|date_format:"%Y-%m-%d"} {$item.date|date_format:"Y/m/d H:i"} {$item.tags|@join:", "|escape} {$item.tags|@count}
{$item.title|default:"-"|upper|lower|strip_tags|nl2br} {$item.price|number_format} {$item.price|string_format:"%.2f"}
{$item.title|cat:"!"|replace:"a":"b"|regex_replace:"/[0-9]+/":"#"|mb_substr:0:5} {$item.body|strlen} {$item.body|mb_strlen}
{math equation="x + y" x=$item.price y=1 assign=p}{assign var=total value=$total+$p}</li>{/foreach}{$total}{$items|@json_encode|escape:"url"}`;

const ITEMS = Array.from({ length: 8 }, (_, i) => ({
  on: i % 2 === 0,
  title: `Item ${i} <b>&</b>`,
  body: 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor. 日本語のテキスト',
  date: 1700000000 + i * 86400,
  tags: ['a', 'b', `c${i}`],
  price: 1234.5 * i,
}));

/**
 * One render of 8 items. A heavier warm-up makes a tenant's first render faster only by growing
 * the heap, which every tenant then keeps. Measured here (workers 0, 10 tenants x 20 renders of
 * the benchmark page, then cold tenants arriving 250 ms apart): 8 items x 1 render: 6.6 MB RSS
 * per tenant, cold tenant 9.0 ms; 8 x 20: 6.6 MB, 10.5 ms (no gain: it is not JIT warmth);
 * 30 x 5: 6.8 MB, 8.5 ms; 100 x 5: 9.6 MB, 5.9 ms. Memory per tenant limits how many tenants a
 * host holds; 3 ms on a tenant's first render does not pay for 3 MB on every tenant.
 */
export const WARMUP_RENDERS = 1;

let template: CompiledTemplate | undefined;

/** The warm-up template (compiled once per process). */
export function warmupTemplate(): CompiledTemplate {
  if (!template) {
    const r = compile(SOURCE, { name: 'smartcage-warmup', id: 'smartcage-warmup' });
    template = { id: 'smartcage-warmup', code: r.code, filename: 'smartcage-warmup.js' };
  }
  return template;
}

/** Its render request, with a fixed clock and seed. */
export function warmupRequest(): RenderRequestBody {
  return renderRequest({
    templateName: 'smartcage-warmup',
    now: 1700000000,
    site: { timezone: 'Asia/Tokyo', lang: 'ja', rootUrl: 'http://localhost' },
    vars: { items: ITEMS },
    seed: Array.from({ length: 16 }, (_, i) => i + 1),
  });
}
