/** What the spider reads from a page (links.ts). */
import { describe, expect, it } from 'vitest';
import { readPage } from '../../../../src/host-plugins/webops/links.js';
import { MAX_SPIDER_LINKS_PER_PAGE } from '../../../../src/host-plugins/webops/crawl.js';

describe('readPage', () => {
  it('resolves <a href> against the page or its <base>, keeps http(s) only, drops fragments and repeats', () => {
    const html =
      '<title>  A \n title </title><base href="https://s.example/docs/"><a href="x">1</a><a href="/y#f">2</a><a href="/y">3</a>' +
      '<a href="mailto:a@b">4</a><a href="javascript:alert(1)">5</a><a href="http://[bad">6</a><a>7</a><template><a href="t">8</a></template>';
    expect(readPage(html, 'https://s.example/page', 100)).toEqual({
      title: 'A title',
      links: ['https://s.example/docs/x', 'https://s.example/y', 'https://s.example/docs/t'],
    });
  });

  it(`takes at most ${MAX_SPIDER_LINKS_PER_PAGE} links of a page, and survives deep nesting`, () => {
    const many = Array.from({ length: 600 }, (_, i) => `<a href="/p${i}">x</a>`).join('');
    expect(readPage(many, 'https://s.example/', MAX_SPIDER_LINKS_PER_PAGE).links).toHaveLength(
      MAX_SPIDER_LINKS_PER_PAGE,
    );
    const deep = `${'<div>'.repeat(20_000)}<a href="/deep">x</a>`;
    expect(readPage(deep, 'https://s.example/', 10).links).toEqual(['https://s.example/deep']);
  });
});
