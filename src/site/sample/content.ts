/**
 * The content family's sample data (README, "The sample site"; docs/site.md, "Content"): group 1
 * "News" with contents 1-25 open and 26 closed (a draft), its extended columns (a counter
 * `view_count`, a repeating counter `reactions`, a repeating text `related_links`, `author`,
 * `event_date`), categories (one a child, one unpublished), group 2 "Blog" with contents 27 and
 * 28, master CSV tables 1 (prefectures) and 2 (offices) in ja and en, and the child site `child`.
 * Every date is fixed: contents open in October 2023, before the examples' clock (1700000000,
 * 2023-11-15 07:13:20 Asia/Tokyo), with no end.
 */
import type { SqlRunner, SqlValue } from '../db/database.js';
import type { SiteContext } from '../site-context.js';
import { insertRows } from './rows.js';

type Bilingual = readonly [ja: string, en: string];

/** Contents 1-26 of group 1: category, subject and body in ja and en. */
const NEWS: readonly { category: number; subject: Bilingual; body: Bilingual }[] = [
  {
    category: 1,
    subject: ['新しいウェブサイトを公開しました', 'Our new website is live'],
    body: [
      '<p>デザインを一新し、スマートフォンでも読みやすくなりました。</p>',
      '<p>A fresh design that reads well on phones, too.</p>',
    ],
  },
  {
    category: 3,
    subject: ['2023年度上期の業績を発表しました', 'First-half results for fiscal 2023'],
    body: ['<p>売上高は前年同期比12%増となりました。</p>', '<p>Revenue grew 12% over the same period last year.</p>'],
  },
  {
    category: 2,
    subject: ['東京で開発者ミートアップを開催します', 'Developer meetup in Tokyo'],
    body: [
      '<p>10月28日、渋谷の会場で開催します。参加無料です。</p>',
      '<p>On October 28 at our Shibuya venue. Admission is free.</p>',
    ],
  },
  {
    category: 1,
    subject: ['年末年始の営業時間について', 'Opening hours over the New Year holidays'],
    body: ['<p>12月29日から1月3日まで休業いたします。</p>', '<p>We are closed from December 29 to January 3.</p>'],
  },
  {
    category: 4,
    subject: ['ウェビナー「はじめてのヘッドレスCMS」', 'Webinar: headless CMS for beginners'],
    body: ['<p>導入の流れを60分で解説します。</p>', '<p>Sixty minutes on how to get started.</p>'],
  },
  {
    category: 1,
    subject: ['サポート窓口の電話番号が変わります', 'Our support phone number is changing'],
    body: ['<p>11月1日より新しい番号でお受けします。</p>', '<p>From November 1, please call the new number.</p>'],
  },
  {
    category: 3,
    subject: ['大阪に新しいオフィスを開設しました', 'New office in Osaka'],
    body: [
      '<p>西日本のお客様へのサポートを強化します。</p>',
      '<p>Closer support for our customers in western Japan.</p>',
    ],
  },
  {
    category: 2,
    subject: ['秋のユーザーカンファレンス登録受付中', 'Registration open for the autumn user conference'],
    body: ['<p>事例セッションを多数ご用意しています。</p>', '<p>With many sessions on real projects.</p>'],
  },
  {
    category: 1,
    subject: ['メンテナンスのお知らせ（10月9日）', 'Scheduled maintenance on October 9'],
    body: [
      '<p>午前2時から4時まで管理画面を停止します。</p>',
      '<p>The admin screens are down from 2:00 to 4:00 a.m.</p>',
    ],
  },
  {
    category: 4,
    subject: ['ウェビナー「APIで作る会員サイト」', 'Webinar: member sites built on APIs'],
    body: ['<p>ログインとマイページの作り方を紹介します。</p>', '<p>How to build login and my-page screens.</p>'],
  },
  {
    category: 3,
    subject: ['ISO 27001認証を取得しました', 'We are now ISO 27001 certified'],
    body: [
      '<p>情報セキュリティ管理体制が認められました。</p>',
      '<p>Our information security management was certified.</p>',
    ],
  },
  {
    category: 1,
    subject: ['利用規約を改定しました', 'Updated terms of service'],
    body: ['<p>改定後の規約は11月1日から適用されます。</p>', '<p>The new terms apply from November 1.</p>'],
  },
  {
    category: 2,
    subject: ['福岡でハンズオン勉強会を開催', 'Hands-on workshop in Fukuoka'],
    body: ['<p>ノートPCをご持参ください。</p>', '<p>Please bring your laptop.</p>'],
  },
  {
    category: 1,
    subject: ['ヘルプセンターを刷新しました', 'A new help center'],
    body: ['<p>検索しやすくなり、動画ガイドも追加しました。</p>', '<p>Easier to search, now with video guides.</p>'],
  },
  {
    category: 3,
    subject: ['新製品「スマートフォーム」を発表', 'Introducing Smart Forms'],
    body: ['<p>入力項目をドラッグ＆ドロップで作成できます。</p>', '<p>Build form fields by drag and drop.</p>'],
  },
  {
    category: 4,
    subject: ['ウェビナー「多言語サイトの運用」', 'Webinar: running a multilingual site'],
    body: ['<p>翻訳フローと公開設定のコツを解説します。</p>', '<p>Tips on translation workflows and publishing.</p>'],
  },
  {
    category: 1,
    subject: ['請求書の発行方法が変わります', 'Changes to how invoices are issued'],
    body: [
      '<p>インボイス制度に対応した書式になります。</p>',
      '<p>Invoices now follow the new qualified invoice format.</p>',
    ],
  },
  {
    category: 2,
    subject: ['名古屋で導入事例セミナーを開催', 'Case study seminar in Nagoya'],
    body: ['<p>製造業のお客様の事例を紹介します。</p>', '<p>Stories from our customers in manufacturing.</p>'],
  },
  {
    category: 3,
    subject: ['パートナープログラムを開始しました', 'Launching our partner program'],
    body: ['<p>制作会社さま向けの特典をご用意しました。</p>', '<p>Benefits for web agencies that build with us.</p>'],
  },
  {
    category: 1,
    subject: ['二要素認証に対応しました', 'Two-factor authentication is here'],
    body: ['<p>管理画面のログインがより安全になりました。</p>', '<p>Signing in to the admin screens is now safer.</p>'],
  },
  {
    category: 4,
    subject: ['ウェビナー「フォームと会員管理」', 'Webinar: forms and member management'],
    body: ['<p>フォーム作成から会員登録までを実演します。</p>', '<p>A live demo from form building to sign-up.</p>'],
  },
  {
    category: 1,
    subject: ['ドキュメントを英語化しました', 'Our documentation is now in English'],
    body: ['<p>すべてのガイドが英語で読めます。</p>', '<p>Every guide can now be read in English.</p>'],
  },
  {
    category: 3,
    subject: ['シリーズB資金調達のお知らせ', 'We closed our Series B round'],
    body: ['<p>開発体制とサポートを拡充します。</p>', '<p>We will grow our engineering and support teams.</p>'],
  },
  {
    category: 2,
    subject: ['札幌でユーザー交流会を開催', 'User meetup in Sapporo'],
    body: ['<p>軽食とお飲み物をご用意しています。</p>', '<p>Snacks and drinks provided.</p>'],
  },
  {
    category: 1,
    subject: ['11月のリリースノート', 'Release notes for November'],
    body: ['<p>コンテンツ一覧の絞り込みが速くなりました。</p>', '<p>Filtering content lists is faster now.</p>'],
  },
  {
    category: 3,
    subject: ['【下書き】2024年のロードマップ', '[Draft] Our 2024 roadmap'],
    body: ['<p>公開前の下書きです。</p>', '<p>A draft, not yet published.</p>'],
  },
];

const BLOG: readonly { subject: Bilingual; body: Bilingual }[] = [
  {
    subject: ['エンジニアの一日', 'A day in the life of our engineers'],
    body: ['<p>朝会から始まる一日を紹介します。</p>', '<p>From the morning stand-up onwards.</p>'],
  },
  {
    subject: ['社内ハッカソンを開催しました', 'Our internal hackathon'],
    body: ['<p>24時間で12のプロダクトが生まれました。</p>', '<p>Twelve products in 24 hours.</p>'],
  },
];

/** 09:00 on 2023-10-DD in Asia/Tokyo, as Unix seconds. */
const octoberMorning = (day: number): number => Date.UTC(2023, 9, day, 0, 0, 0) / 1000;
const ymd = (day: number): string => `2023-10-${String(day).padStart(2, '0')}`;
const names = (pair: Bilingual): string => JSON.stringify({ ja: pair[0], en: pair[1] });

export async function contentSample(ctx: SiteContext): Promise<void> {
  const put = (
    tx: SqlRunner,
    table: string,
    columns: readonly string[],
    rows: readonly (readonly SqlValue[])[],
  ): Promise<void> => insertRows(tx, ctx.tenant, table, columns, rows);
  await ctx.db.transaction(async (tx) => {
    await put(
      tx,
      'topics_groups',
      ['id', 'names', 'descriptions'],
      [
        [1, names(['ニュース', 'News']), names(['会社からのお知らせ', 'News from the company'])],
        [2, names(['ブログ', 'Blog']), names(['スタッフブログ', 'Our staff blog'])],
      ],
    );
    await put(
      tx,
      'topics_categories',
      ['id', 'group_id', 'parent_id', 'slug', 'names', 'order_no', 'open_flg'],
      [
        [1, 1, null, 'announcements', names(['お知らせ', 'Announcements']), 1, 1],
        [2, 1, null, 'events', names(['イベント', 'Events']), 2, 1],
        [3, 1, null, 'press', names(['プレスリリース', 'Press releases']), 3, 1],
        [4, 1, 2, 'webinars', names(['ウェビナー', 'Webinars']), 4, 1],
        [5, 1, null, 'archive', names(['アーカイブ', 'Archive']), 5, 0],
      ],
    );
    const news = NEWS.map((n, i) => {
      const id = i + 1;
      const closed = id === 26;
      const day = closed ? 31 : id;
      return {
        id,
        group: 1,
        slug: closed ? 'roadmap-2024' : `news-${id}`,
        day,
        open: closed ? 0 : 1,
        category: n.category,
        subject: n.subject,
        body: n.body,
      };
    });
    const blog = BLOG.map((b, i) => ({
      id: 27 + i,
      group: 2,
      slug: `blog-${i + 1}`,
      day: 20 + i,
      open: 1,
      category: null,
      subject: b.subject,
      body: b.body,
    }));
    const all = [...news, ...blog];
    await put(
      tx,
      'topics',
      [
        'id',
        'group_id',
        'slug',
        'ymd',
        'open_flg',
        'open_from',
        'open_until',
        'inst_at',
        'update_at',
        'category_id',
        'order_no',
      ],
      all.map((c) => [
        c.id,
        c.group,
        c.slug,
        ymd(c.day),
        c.open,
        octoberMorning(c.day),
        null,
        octoberMorning(c.day) - 86400,
        octoberMorning(c.day) + 3600,
        c.category,
        0,
      ]),
    );
    await put(
      tx,
      'topic_texts',
      ['topic_id', 'lang', 'subject', 'contents'],
      all.flatMap((c) => [
        [c.id, 'ja', c.subject[0], c.body[0]],
        [c.id, 'en', c.subject[1], c.body[1]],
      ]),
    );
    await put(
      tx,
      'topics_ext_columns',
      ['id', 'group_id', 'slug', 'type', 'repeat_cnt', 'order_no'],
      [
        [1, 1, 'author', 'text', 1, 1],
        [2, 1, 'view_count', 'counter', 1, 2],
        [3, 1, 'related_links', 'text', 3, 3],
        [4, 1, 'reactions', 'counter', 3, 4],
        [5, 1, 'event_date', 'date', 1, 5],
      ],
    );
    const authors = ['Hanako Sato', 'Kenji Tanaka', 'Yui Suzuki', 'Daniel Brooks'];
    await put(
      tx,
      'topic_ext_values',
      ['topic_id', 'column_id', 'idx', 'value'],
      [
        ...news.map((c) => [c.id, 1, 0, authors[c.id % authors.length]!]),
        [1, 3, 0, 'https://example.com/docs/getting-started'],
        [1, 3, 1, 'https://example.com/blog/release-notes'],
        [3, 3, 0, 'https://example.com/events/tokyo-meetup'],
        ...news
          .filter((c) => c.category === 2 || c.category === 4)
          .map((c) => [c.id, 5, 0, `2023-11-${String(c.id).padStart(2, '0')}`]),
      ],
    );
    await put(
      tx,
      'topic_counters',
      ['topic_id', 'column_id', 'idx', 'value'],
      [
        ...news.map((c) => [c.id, 2, 0, 100 + c.id * 7]),
        ...news.flatMap((c) => [
          [c.id, 4, 0, c.id % 9],
          [c.id, 4, 1, c.id % 4],
          [c.id, 4, 2, 1],
        ]),
      ],
    );
    await put(
      tx,
      'csv_tables',
      ['id', 'names', 'columns'],
      [
        [1, names(['都道府県', 'Prefectures']), JSON.stringify(['code', 'name', 'region'])],
        [2, names(['拠点', 'Offices']), JSON.stringify(['office_id', 'city', 'prefecture_code', 'phone'])],
      ],
    );
    await put(tx, 'csv_rows', ['table_id', 'lang', 'row_no', 'cells'], [...PREFECTURES, ...OFFICES]);
    await put(
      tx,
      'child_sites',
      ['site_key', 'names', 'url', 'lang', 'timezone', 'open_flg', 'inst_at'],
      [
        [
          'child',
          names(['サポートサイト', 'Support site']),
          'http://child.localhost:8080',
          'ja',
          'Asia/Tokyo',
          1,
          octoberMorning(1),
        ],
      ],
    );
  });
}

/** Rows of a CSV table in both languages: [table, lang, row_no, cells]. */
function csvRows(
  table: number,
  rows: readonly (readonly [ja: readonly string[], en: readonly string[]])[],
): SqlValue[][] {
  return rows.flatMap(([ja, en], i) => [
    [table, 'ja', i + 1, JSON.stringify(ja)],
    [table, 'en', i + 1, JSON.stringify(en)],
  ]);
}

const PREFECTURES = csvRows(1, [
  [
    ['01', '北海道', '北海道'],
    ['01', 'Hokkaido', 'Hokkaido'],
  ],
  [
    ['04', '宮城県', '東北'],
    ['04', 'Miyagi', 'Tohoku'],
  ],
  [
    ['13', '東京都', '関東'],
    ['13', 'Tokyo', 'Kanto'],
  ],
  [
    ['14', '神奈川県', '関東'],
    ['14', 'Kanagawa', 'Kanto'],
  ],
  [
    ['23', '愛知県', '中部'],
    ['23', 'Aichi', 'Chubu'],
  ],
  [
    ['27', '大阪府', '近畿'],
    ['27', 'Osaka', 'Kinki'],
  ],
  [
    ['34', '広島県', '中国'],
    ['34', 'Hiroshima', 'Chugoku'],
  ],
  [
    ['40', '福岡県', '九州'],
    ['40', 'Fukuoka', 'Kyushu'],
  ],
]);

const OFFICES = csvRows(2, [
  [
    ['1', '渋谷', '13', '03-1234-5678'],
    ['1', 'Shibuya', '13', '+81-3-1234-5678'],
  ],
  [
    ['2', '品川', '13', '03-2345-6789'],
    ['2', 'Shinagawa', '13', '+81-3-2345-6789'],
  ],
  [
    ['3', '大阪', '27', '06-3456-7890'],
    ['3', 'Osaka', '27', '+81-6-3456-7890'],
  ],
  [
    ['4', '福岡', '40', '092-456-7890'],
    ['4', 'Fukuoka', '40', '+81-92-456-7890'],
  ],
]);
