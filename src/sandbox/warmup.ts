/**
 * What a spare isolate renders before any tenant gets it: a built-in template that goes through
 * the runtime paths most templates use (loops, conditions, the common modifiers), so that V8 has
 * compiled those functions and a new tenant's first render does not pay for it. Only this
 * template runs there: a spare has never run tenant code.
 */
import { compile } from '../compiler/index.js';
import type { CompiledTemplate } from '../protocol/render.js';
import { renderRequest, type RenderRequestBody } from './request.js';
import { SITE_DEFAULTS } from '../site-defaults.js';

const SOURCE = `{assign var=total value=0}{foreach from=$items item=item name=l key=k}
<li class="{if $item.on}on{else}off{/if}">{$smarty.foreach.l.iteration} {$item.title|escape} {$item.body|truncate:40:"...":true|escape}
{$item.date|date_format:"%Y-%m-%d"} {$item.date|date_format:"Y/m/d H:i"} {$item.tags|@join:", "|escape} {$item.tags|@count}
{$item.title|default:"-"|upper|lower|strip_tags|nl2br} {$item.price|number_format} {$item.price|string_format:"%.2f"}
{$item.title|cat:"!"|replace:"a":"b"|regex_replace:"/[0-9]+/":"#"|mb_substr:0:5} {$item.body|strlen} {$item.body|mb_strlen}
{math equation="x + y" x=$item.price y=1 assign=p}{assign var=total value=$total+$p}</li>{/foreach}{$total}{$items|@json_encode|escape:"url"}
{section name=s loop=$items}{if $smarty.section.s.index % 2 == 0}{$items[s].title|escape}{elseif $items[s].price > 10}{$items[s].price}{/if}{/section}`;

/**
 * The warm-up's data takes the branches the pages take, not only the common ones: code V8
 * optimized in the spare on data that never took a branch has no feedback for it, and the first
 * tenant whose data does take it deoptimizes there, in its first render (`--trace-deopt` on the
 * five pages of bench/pages, D289). Hence titles with both quotes (escape's `"` and `'` cases),
 * two new characters past ASCII per item (json_encode keeps each `\uXXXX` it made: with the same
 * eight characters in every item, its making was never seen by the optimized code), and a
 * {section} reading its rows by index (array reads with integer keys).
 */
const KANA =
  'あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをんがぎぐげござじずぜぞ日本語文字列';
const ITEMS = Array.from({ length: 30 }, (_, i) => ({
  on: i % 2 === 0,
  title: `Item ${i} <b>&</b> "q" it's`,
  body:
    'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor. 日本語のテキスト' +
    KANA.slice(i * 2, i * 2 + 2),
  date: 1700000000 + i * 86400,
  tags: ['a', 'b', `c${i}`],
  price: 1234.5 * i,
}));

/**
 * Three renders of 30 items. A new isolate's runtime runs in V8's lower tiers until enough of it
 * has run: a tenant's first ~30 renders of the benchmark page got faster one by one, from ~5 ms
 * to ~0.9 ms, after a warm-up of one render of 8 items. Measured on 2026-11-25 (workers 0, cold
 * tenants arriving 250 ms apart, then 20 tenants x 20 renders of the page for RSS), first render
 * / RSS per tenant / CPU to build a spare: 8 x 1: 5.0-5.2 ms / 6.0-6.5 MB / 27 ms; 30 x 3:
 * 2.7-3.5 ms / 6.0-6.1 MB / 52 ms; 30 x 5 and 50 x 3: 2.4 ms / 6.3-6.6 MB / 65-71 ms; 100 x 1:
 * 3.8-4.2 ms / 6.6-6.9 MB. So 30 x 3: a new tenant's first render ~2 ms sooner for ~25 ms more
 * CPU while the next spare is built, in the background after that first render (it competes
 * with the renders that run meanwhile). (An earlier measurement, before the runtime's tables
 * became lazy, had a heavier warm-up cost ~3 MB per tenant; it no longer does.)
 */
const BROAD_RENDERS = 3;

/**
 * Then two renders of 100 items of the core alone: a loop with a condition and the modifiers most
 * list pages run per item (escape, truncate, date_format, join, count). After the broad renders
 * those functions were still in V8's lower tiers, and a tenant's first render was where they
 * reached the optimizing tier (docs/decisions.md D253). Two exactly: with 1, 3 or 4 core renders
 * the list page's cold tenant cost 3.8-4.3 ms of CPU against 2.4-2.8 ms with 2 (two alternating
 * runs each); why more is worse is not known (no deoptimization shows in the tenant's render).
 */
const CORE_RENDERS = 2;

/** The warm-up's renders: `warmupTemplate(i)` and `warmupRequest(i)` for i below this. */
export const WARMUP_RENDERS = BROAD_RENDERS + CORE_RENDERS;

const CORE_SOURCE = `{foreach from=$items item=item}<li class="{if $item.on}a{else}b{/if}">{$item.title|escape}
{$item.body|truncate:40:"...":true|escape} {$item.date|date_format:"%Y-%m-%d"} {$item.tags|@join:", "|escape} {$item.tags|@count}</li>{/foreach}`;

const CORE_ITEMS = Array.from({ length: 100 }, (_, i) => ({
  on: i % 2 === 0,
  title: `Item ${i} <b>&</b> "q" it's`,
  body: 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.',
  date: 1700000000 + i * 86400,
  tags: ['a', 'b', `c${i}`],
}));

const templates = new Map<string, CompiledTemplate>();

function compiled(id: string, source: string): CompiledTemplate {
  let t = templates.get(id);
  if (!t) {
    const r = compile(source, { name: id, id });
    t = { id, code: r.code, filename: `${id}.js` };
    templates.set(id, t);
  }
  return t;
}

/** The template of the warm-up's render `i` (compiled once per process). */
export function warmupTemplate(i: number): CompiledTemplate {
  return i < BROAD_RENDERS ? compiled('smartcage-warmup', SOURCE) : compiled('smartcage-warmup-core', CORE_SOURCE);
}

/** The request of the warm-up's render `i`, with a fixed clock and seed. */
export function warmupRequest(i: number): RenderRequestBody {
  return renderRequest({
    templateName: warmupTemplate(i).id,
    now: 1700000000,
    site: { ...SITE_DEFAULTS },
    vars: { items: i < BROAD_RENDERS ? ITEMS : CORE_ITEMS },
    seed: Array.from({ length: 16 }, (_, k) => k + 1),
  });
}
