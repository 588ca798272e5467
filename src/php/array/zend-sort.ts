/**
 * zend_sort (Zend/zend_sort.c), step for step: insertion sort up to 16 elements, a
 * quicksort with median-of-3 (or 5) pivots above. PHP's comparisons are not always
 * transitive (mixed types), so only the same sequence of comparisons gives PHP's order.
 * PHP 8 makes it stable by breaking ties on the original position, which callers do in `cmp`.
 */
type Cmp<T> = (a: T, b: T) => number;

function swap<T>(a: T[], i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}

function sort2<T>(a: T[], i: number, j: number, cmp: Cmp<T>): void {
  if (cmp(a[i], a[j]) > 0) swap(a, i, j);
}

function sort3<T>(a: T[], i: number, j: number, k: number, cmp: Cmp<T>): void {
  if (cmp(a[i], a[j]) <= 0) {
    if (cmp(a[j], a[k]) <= 0) return;
    swap(a, j, k);
    if (cmp(a[i], a[j]) > 0) swap(a, i, j);
    return;
  }
  if (cmp(a[k], a[j]) <= 0) {
    swap(a, i, k);
    return;
  }
  swap(a, i, j);
  if (cmp(a[j], a[k]) > 0) swap(a, j, k);
}

function sort4<T>(a: T[], i: number, j: number, k: number, l: number, cmp: Cmp<T>): void {
  sort3(a, i, j, k, cmp);
  if (cmp(a[k], a[l]) > 0) {
    swap(a, k, l);
    if (cmp(a[j], a[k]) > 0) {
      swap(a, j, k);
      if (cmp(a[i], a[j]) > 0) swap(a, i, j);
    }
  }
}

function sort5<T>(a: T[], i: number, j: number, k: number, l: number, m: number, cmp: Cmp<T>): void {
  sort4(a, i, j, k, l, cmp);
  if (cmp(a[l], a[m]) > 0) {
    swap(a, l, m);
    if (cmp(a[k], a[l]) > 0) {
      swap(a, k, l);
      if (cmp(a[j], a[k]) > 0) {
        swap(a, j, k);
        if (cmp(a[i], a[j]) > 0) swap(a, i, j);
      }
    }
  }
}

function insertSort<T>(a: T[], start: number, n: number, cmp: Cmp<T>): void {
  switch (n) {
    case 0:
    case 1:
      return;
    case 2:
      return sort2(a, start, start + 1, cmp);
    case 3:
      return sort3(a, start, start + 1, start + 2, cmp);
    case 4:
      return sort4(a, start, start + 1, start + 2, start + 3, cmp);
    case 5:
      return sort5(a, start, start + 1, start + 2, start + 3, start + 4, cmp);
  }
  const end = start + n;
  const sentry = start + 6;
  // The first six by plain insertion...
  for (let i = start + 1; i < sentry; i++) {
    let j = i - 1;
    if (cmp(a[j], a[i]) <= 0) continue;
    while (j !== start) {
      j--;
      if (cmp(a[j], a[i]) <= 0) {
        j++;
        break;
      }
    }
    for (let k = i; k > j; k--) swap(a, k, k - 1);
  }
  // ...the rest stepping back two at a time.
  for (let i = sentry; i < end; i++) {
    let j = i - 1;
    if (cmp(a[j], a[i]) <= 0) continue;
    for (;;) {
      j -= 2;
      if (cmp(a[j], a[i]) <= 0) {
        j++;
        if (cmp(a[j], a[i]) <= 0) j++;
        break;
      }
      if (j === start) break;
      if (j === start + 1) {
        j--;
        if (cmp(a[i], a[j]) > 0) j++;
        break;
      }
    }
    for (let k = i; k > j; k--) swap(a, k, k - 1);
  }
}

/** Sorts a[start .. start+n) in place exactly as zend_sort would. */
export function zendSort<T>(a: T[], cmp: Cmp<T>, start = 0, n = a.length): void {
  for (;;) {
    if (n <= 16) {
      insertSort(a, start, n, cmp);
      return;
    }
    const end = start + n;
    const offset = n >> 1;
    let pivot = start + offset;
    if (n >> 10) {
      const delta = offset >> 1;
      sort5(a, start, start + delta, pivot, pivot + delta, end - 1, cmp);
    } else {
      sort3(a, start, pivot, end - 1, cmp);
    }
    swap(a, start + 1, pivot);
    pivot = start + 1;
    let i = pivot + 1;
    let j = end - 1;
    partition: for (;;) {
      while (cmp(a[pivot], a[i]) > 0) {
        i++;
        if (i === j) break partition;
      }
      j--;
      if (j === i) break;
      while (cmp(a[j], a[pivot]) > 0) {
        j--;
        if (j === i) break partition;
      }
      swap(a, i, j);
      i++;
      if (i === j) break;
    }
    swap(a, pivot, i - 1);
    if (i - 1 - start < end - i) {
      zendSort(a, cmp, start, i - start - 1);
      n = end - i;
      start = i;
    } else {
      zendSort(a, cmp, i, end - i);
      n = i - start - 1;
    }
  }
}
