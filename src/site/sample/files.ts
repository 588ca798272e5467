/**
 * The files of a new site besides its data: the custom functions behind the `news` and `me`
 * endpoints and a page template. Families that add plugins may extend these examples.
 */
export const SAMPLE_FILES: Readonly<Record<string, string>> = {
  'functions/news.tpl': `{* GET /rcms-api/1/news: the newest open contents of group 1 *}
{assign_array var=items values=""}
{return value=$items}
`,
  'functions/me.tpl': `{* GET /rcms-api/1/me: who the request runs as (its session, or the member an internal request acts as) *}
{return value=$smarty.session}
`,
  'templates/layout-header.tpl': `<header><h1>{$smarty.const.SITE_KEY|escape}</h1></header>
`,
};
