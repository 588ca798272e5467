import { defineFunction, type PluginContext } from '../types.js';
import { toInt, toStr } from '../../value/convert.js';
import { checkArrayLength } from '../../value/limits.js';
import { PhpArray, PhpObject, type Value } from '../../value/value.js';

/** Scalar entries of an array (a lone scalar counts as a one-element list). */
function idList(v: Value): Value[] {
  const all = v instanceof PhpArray ? v.values() : v === null || v === undefined ? [] : [v];
  return all.filter((x) => x !== null && x !== undefined && !(x instanceof PhpArray) && !(x instanceof PhpObject));
}

/**
 * Draws `cnt` ids. Ids are compared by their string form (1 and "1" are the same id): repeated
 * ids in `ids` count once, and any id in `exclude_ids` is never drawn. Each id may be drawn
 * `duplicate + 1` times. Every draw picks uniformly among the ids that may still be drawn, so
 * the result is in random order; when fewer draws are possible than `cnt`, all of them are made.
 */
function draw(ids: Value[], exclude: Value[], cnt: number, duplicate: number, ctx: PluginContext): Value[] {
  const excluded = new Set(exclude.map(toStr));
  const seen = new Set<string>();
  const pool: Value[] = [];
  for (const id of ids) {
    const k = toStr(id);
    if (excluded.has(k) || seen.has(k)) continue;
    seen.add(k);
    pool.push(id);
  }
  const perId = Math.max(0, duplicate) + 1;
  const total = Math.max(0, Math.min(cnt, pool.length * perId));
  checkArrayLength(total, '{lottery}');
  const left = pool.map(() => perId);
  const out: Value[] = [];
  while (out.length < total) {
    const j = Math.floor(ctx.random() * pool.length);
    out.push(pool[j]);
    if (--left[j] === 0) {
      // Swap-remove: the last eligible id takes the exhausted one's place.
      pool[j] = pool[pool.length - 1];
      left[j] = left[left.length - 1];
      pool.pop();
      left.pop();
    }
  }
  return out;
}

export default defineFunction({
  kind: 'function',
  name: 'lottery',
  summary:
    'Draws `cnt` ids at random from `ids` into `var` as a list, in draw order. Ids are compared as strings; repeated ids count once; ids in `exclude_ids` are never drawn; each id may be drawn `duplicate` extra times (0: at most once). Asking for more than can be drawn gives all possible draws.',
  attrs: {
    var: { type: 'varname', required: true },
    cnt: { type: 'int', default: 1, doc: 'How many ids to draw.' },
    duplicate: { type: 'int', default: 0, doc: 'How many extra times one id may be drawn.' },
    ids: { type: 'array', required: true, doc: 'The candidate ids.' },
    exclude_ids: { type: 'array', doc: 'Ids never drawn.' },
  },
  examples: [
    { template: '{lottery var=w ids=$ids cnt=2}{$w|@count}', vars: { ids: [1, 2, 3, 4, 5] }, output: '2' },
    {
      template:
        '{lottery var=w ids=$ids exclude_ids=$ex cnt=10}{$w|@count}|{lottery var=one ids=$ids exclude_ids=$ex}{$one.0}',
      vars: { ids: [1, 2, 3], ex: [1, 3] },
      output: '1|2',
    },
    { template: '{lottery var=w ids=$ids cnt=5 duplicate=1}{$w|@count}', vars: { ids: ['a', 'b'] }, output: '4' },
  ],
  run(attrs, ctx) {
    if (!(attrs.ids instanceof PhpArray)) ctx.warn('{lottery} ids= should be an array');
    const cnt = attrs.cnt === undefined || attrs.cnt === null ? 1 : toInt(attrs.cnt);
    const duplicate = attrs.duplicate === undefined || attrs.duplicate === null ? 0 : toInt(attrs.duplicate);
    const drawn = draw(idList(attrs.ids ?? null), idList(attrs.exclude_ids ?? null), cnt, duplicate, ctx);
    ctx.assign(toStr(attrs.var ?? null), PhpArray.fromList(drawn));
  },
});
