/**
 * The pager arithmetic of the list APIs, shared by {assign_pager} and the host's api_method
 * lists: a page past the last is the last, a page below 1 is 1, and pageInfo has the list APIs'
 * members in their order.
 */
import { PhpArray } from '../../value/value.js';

export interface PageWindow {
  totalCnt: number;
  perPage: number;
  totalPageCnt: number;
  pageNo: number;
  /** Offsets of the page's rows: [start, end). */
  start: number;
  end: number;
}

export function pageWindow(total: number, perPage: number, asked: number): PageWindow {
  const per = Math.max(1, perPage);
  const pages = Math.max(1, Math.ceil(total / per));
  const page = Math.min(Math.max(1, asked), pages);
  return {
    totalCnt: total,
    perPage: per,
    totalPageCnt: pages,
    pageNo: page,
    start: (page - 1) * per,
    end: Math.min(total, page * per),
  };
}

/** pageInfo: totalCnt, perPage, totalPageCnt, pageNo, next_page_param (null on the last page). */
export function pageInfo(w: PageWindow): PhpArray {
  return PhpArray.fromEntries([
    ['totalCnt', w.totalCnt],
    ['perPage', w.perPage],
    ['totalPageCnt', w.totalPageCnt],
    ['pageNo', w.pageNo],
    ['next_page_param', w.pageNo < w.totalPageCnt ? w.pageNo + 1 : null],
  ]);
}
