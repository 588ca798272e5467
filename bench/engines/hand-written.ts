/**
 * The limit: the page written by hand in plain JavaScript, producing exactly the string every
 * engine must produce. `makeHandWritten` is self-contained (no imports, no closures over module
 * state) because its source text is also evaluated inside an isolate (`String(makeHandWritten)`).
 */
import type { PageData } from '../data/generate.js';

export function makeHandWritten(): (d: PageData) => string {
  const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' };
  const RE = /[&<>"']/g;
  const rep = (c: string) => ESC[c];
  const esc = (s: string) => s.replace(RE, rep);
  const two = (n: number) => (n < 10 ? '0' + n : '' + n);
  const ymd = (t: number) => {
    const d = new Date(t * 1000);
    return d.getUTCFullYear() + '-' + two(d.getUTCMonth() + 1) + '-' + two(d.getUTCDate());
  };
  return function render(d: PageData): string {
    const title = esc(d.page.title);
    let o =
      '<!DOCTYPE html>\n<html><head><title>' +
      title +
      '</title></head>\n<body>\n<h1>' +
      title +
      '</h1>\n<ul class="items">\n';
    const items = d.items;
    for (let i = 0; i < items.length; i++) {
      const it = items[i];
      const body = it.body.length > 80 ? it.body.slice(0, 77) + '...' : it.body;
      o +=
        '<li class="' +
        (it.featured ? 'featured' : 'plain') +
        '" id="item-' +
        it.id +
        '"><span class="n">' +
        (i + 1) +
        '</span> <h2>' +
        esc(it.title) +
        '</h2> <p>' +
        esc(body) +
        '</p> <time>' +
        ymd(it.date) +
        '</time> <span class="tags">' +
        esc(it.tags.join(', ')) +
        '</span></li>\n';
    }
    o += '</ul>\n<p class="total">Total: ' + items.length + ' items</p>\n</body>\n</html>';
    return o;
  };
}

/** The escaping every engine is given, so that all outputs are byte-equal (PHP's htmlspecialchars with ENT_QUOTES). */
export function escapeHtml(v: unknown): string {
  const s = String(v ?? '');
  return s.replace(/[&<>"']/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#039;',
  );
}
