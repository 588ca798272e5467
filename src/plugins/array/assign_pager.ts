import { defineFunction } from '../types.js';
import { PhpArray } from '../../value/value.js';
import { key } from '../../value/access.js';
import { toInt, toStr } from '../../value/convert.js';
import { pageInfo, pageWindow } from './pager.js';

/**
 * {assign_pager}: one page of an array plus the list APIs' pageInfo. pageID comes from the
 * attribute, else from the request parameter named by urlVar ($smarty.get, then the request);
 * it is clamped to 1..the last page (spec: a page past the last is the last). Keys are kept as
 * array_slice keeps them (string keys stay, int keys are renumbered).
 */
export default defineFunction({
  kind: 'function',
  name: 'assign_pager',
  summary:
    'Splits an array into pages: `var` gets the rows of page `pageID` (default: the request parameter named by `urlVar`), `var_pageInfo` gets totalCnt, perPage, totalPageCnt, pageNo and next_page_param.',
  attrs: {
    from: { type: 'array', required: true },
    var: { type: 'varname' },
    var_pageInfo: { type: 'varname' },
    perPage: { type: 'int', default: 20, min: 1, max: 10000 },
    pageID: { type: 'int' },
    urlVar: { type: 'string', default: 'pageID' },
  },
  examples: [
    {
      template:
        '{assign_pager from=$l var=rows var_pageInfo=info perPage=2 pageID=2}{$rows|@implode:","}|{$info.totalCnt}/{$info.totalPageCnt}/{$info.pageNo}/{$info.next_page_param}',
      vars: { l: ['a', 'b', 'c', 'd', 'e'] },
      output: 'c,d|5/3/2/3',
    },
    {
      template: '{assign_pager from=$l var=rows perPage=2 pageID=9}{$rows|@implode:","}',
      vars: { l: ['a', 'b', 'c'] },
      output: 'c',
    },
  ],
  run(attrs, ctx) {
    const from = attrs.from instanceof PhpArray ? attrs.from : PhpArray.empty();
    if (
      (attrs.var === null || attrs.var === undefined) &&
      (attrs.var_pageInfo === null || attrs.var_pageInfo === undefined)
    ) {
      ctx.warn('assign_pager: give var or var_pageInfo');
      return '';
    }
    const urlVar = toStr(attrs.urlVar ?? 'pageID');
    const fromRequest = key(ctx.request('get'), urlVar) ?? key(ctx.request('request'), urlVar);
    const asked = attrs.pageID !== undefined && attrs.pageID !== null ? toInt(attrs.pageID) : toInt(fromRequest ?? 1);
    const w = pageWindow(from.size, toInt(attrs.perPage ?? 20), asked);
    const rows = PhpArray.empty();
    from
      .entries()
      .slice(w.start, w.end)
      .forEach(([k, v]) => (typeof k !== 'string' ? rows.push(v) : rows.set(k, v)));
    if (attrs.var !== null && attrs.var !== undefined) ctx.assign(toStr(attrs.var), rows);
    if (attrs.var_pageInfo !== null && attrs.var_pageInfo !== undefined)
      ctx.assign(toStr(attrs.var_pageInfo), pageInfo(w));
    return '';
  },
});
