/**
 * examples/news-page.tpl and the `news` endpoint's custom function (functions/news.tpl) render on
 * a fresh sample site, on both backends, with the site's real content in them.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { eachBackend } from '../../site/support/backends.js';
import { siteBench } from '../../site/support/site-bench.js';

const PAGE = readFileSync(new URL('../../../examples/news-page.tpl', import.meta.url), 'utf8');

eachBackend('the news page and the news endpoint', (backend) => {
  const bench = siteBench(backend);

  it('renders examples/news-page.tpl with the newest contents, a content in full and its view counter synced', async () => {
    // A web request (it has a REQUEST_METHOD; D144 sets one for render --site --request) is a page view.
    const html = await bench.render(PAGE, { request: { server: { REQUEST_METHOD: 'GET' } } });
    if (process.env.SHOW_NEWS_PAGE) console.log(html);
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="ja">')).toBe(true);
    expect(html).toContain(`<title>ニュース | ${bench.site.tenant}</title>`);
    expect(html).toContain(
      '<time datetime="2023-10-25">2023年10月25日</time> <span class="category">お知らせ</span> <a href="/news/25/">11月のリリースノート</a>',
    );
    expect(html.match(/<li><time /g)).toHaveLength(5);
    expect(html).toContain('1 / 5 ページ（全25件）');
    expect(html).toContain('<li class="child"><a href="/news/?contents_type=4">ウェビナー</a></li>');
    expect(html).not.toContain('アーカイブ');
    expect(html).toContain('<h2>新しいウェブサイトを公開しました</h2>');
    expect(html).toContain('<p>デザインを一新し、スマートフォンでも読みやすくなりました。</p>');
    expect(html).toContain(
      '</ul>\n    <p class="tags"><a href="/tags/1/">#お知らせ</a> <a href="/tags/5/">#東京</a></p>\n    <p class="views">閲覧数: 107 → 108（同期後 108）</p>',
    );
    expect(html).toContain('<li>品川 03-2345-6789</li>');
    expect(html).toContain('<a href="http://child.localhost:8080">サポートサイト</a>');
    expect(html).not.toContain('下書き');
    // The next view counts on from the synced value.
    expect(await bench.render(PAGE, { request: { server: { REQUEST_METHOD: 'GET' } } })).toContain(
      '閲覧数: 108 → 109（同期後 109）',
    );
    // A render with no request (the command line's preview) shows the count and adds nothing.
    expect(await bench.render(PAGE)).toContain('    <p class="views">閲覧数: 109</p>\n  </article>');
    expect(await bench.render(PAGE)).toContain('<p class="views">閲覧数: 109</p>');
  });

  it('pages with ?pageID=', async () => {
    const html = await bench.render(PAGE, { request: { get: { pageID: '5' } } });
    expect(html).toContain('5 / 5 ページ（全25件）');
    expect(html).toContain('<a href="/news/1/">新しいウェブサイトを公開しました</a>');
  });

  it('answers GET /rcms-api/1/news from functions/news.tpl: the newest open contents', async () => {
    const out = await bench.render(
      '{function name="news" var=r}{$r.pageInfo.totalCnt}|{$r.list|@count}|{$r.list.0.topics_id}|{$r.errors|@count}',
    );
    expect(out).toBe('25|10|25|0');
  });
});
