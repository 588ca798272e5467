/** The array modifiers and the array-building function plugins. */
import type { Plugin } from '../types.js';
import append from './append.js';
import arrayColumn from './array_column.js';
import arrayDiff from './array_diff.js';
import arrayFilter from './array_filter.js';
import arrayKeyExists from './array_key_exists.js';
import arrayKeys from './array_keys.js';
import arrayMerge from './array_merge.js';
import arrayPop from './array_pop.js';
import arrayPush from './array_push.js';
import arrayReverse from './array_reverse.js';
import arraySearch from './array_search.js';
import arrayShift from './array_shift.js';
import arraySlice from './array_slice.js';
import arraySum from './array_sum.js';
import arrayUnique from './array_unique.js';
import arrayValues from './array_values.js';
import arsort from './arsort.js';
import asort from './asort.js';
import assignArray from './assign_array.js';
import assignArrayDiff from './assign_array_diff.js';
import assignArrayIntersect from './assign_array_intersect.js';
import assignArraySet from './assign_array_set.js';
import count from './count.js';
import explode from './explode.js';
import httpBuildQuery from './http_build_query.js';
import implode from './implode.js';
import inArray from './in_array.js';
import isArray from './is_array.js';
import join from './join.js';
import key from './key.js';
import krsort from './krsort.js';
import ksort from './ksort.js';
import parseUrl from './parse_url.js';
import pathinfo from './pathinfo.js';
import propertyExists from './property_exists.js';
import range from './range.js';
import rcmsArsort from './rcms_arsort.js';
import rcmsAsort from './rcms_asort.js';
import rcmsInArray from './rcms_in_array.js';
import rcmsKrsort from './rcms_krsort.js';
import rcmsKsort from './rcms_ksort.js';
import rcmsRsort from './rcms_rsort.js';
import rcmsSort from './rcms_sort.js';
import rcmsSortByKey from './rcms_sort_by_key.js';
import rsort from './rsort.js';
import shuffle from './shuffle.js';
import sort from './sort.js';
import toFormOptions from './to_form_options.js';
import toObject from './to_object.js';
import assignPager from './assign_pager.js';

export const plugins: Plugin[] = [
  assignPager,
  append,
  arrayColumn,
  arrayDiff,
  arrayFilter,
  arrayKeyExists,
  arrayKeys,
  arrayMerge,
  arrayPop,
  arrayPush,
  arrayReverse,
  arraySearch,
  arrayShift,
  arraySlice,
  arraySum,
  arrayUnique,
  arrayValues,
  arsort,
  asort,
  assignArray,
  assignArrayDiff,
  assignArrayIntersect,
  assignArraySet,
  count,
  explode,
  httpBuildQuery,
  implode,
  inArray,
  isArray,
  join,
  key,
  krsort,
  ksort,
  parseUrl,
  pathinfo,
  propertyExists,
  range,
  rcmsArsort,
  rcmsAsort,
  rcmsInArray,
  rcmsKrsort,
  rcmsKsort,
  rcmsRsort,
  rcmsSort,
  rcmsSortByKey,
  rsort,
  shuffle,
  sort,
  toFormOptions,
  toObject,
];
