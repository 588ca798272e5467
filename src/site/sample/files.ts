/**
 * The files of a new site besides its data: the custom functions behind the `news` and `me`
 * endpoints and a page template. Families that add plugins may extend these examples.
 */
export const SAMPLE_FILES: Readonly<Record<string, string>> = {
  'functions/news.tpl': `{* GET /rcms-api/1/news: the newest open contents of group 1, as the content API lists them
   (list, pageInfo, errors, messages). Query: cnt (default 10, at most 100), pageID, contents_type. *}
{assign_array var=group values="1" keys="topics_group_id"}
{api_method var=news model="Topics" method="list" method_params=$group request_params=$smarty.get}
{return value=$news}
`,
  'functions/me.tpl': `{* GET /rcms-api/1/me: who the request runs as (its session, or the member an internal request acts as) *}
{return value=$smarty.session}
`,
  'mail/welcome.tpl': `{* {sendmail mail_template="welcome" name=...}: the first line is the subject, the rest the body *}
Subject: ようこそ、{$name}さん / Welcome, {$name}

{$name}さん

{$smarty.const.SITE_KEY} へのご登録ありがとうございます。
Thank you for joining {$smarty.const.SITE_KEY}.
`,
  'batches/notify.tpl': `{* Batch "notify" (site.json batches, id 1): started by {batch name="notify" ext_data=...};
   runs in the batch context with the data as $ext_data. Its log lines show in \`smartcage batch history\`. *}
{logger msg1="notify" msg2=$ext_data}
notified {$ext_data.to|default:"nobody"}
`,
  'templates/layout-header.tpl': `<header><h1>{$smarty.const.SITE_KEY|escape}</h1></header>
`,
  'files/user/sample-page.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sample page</title>
<style>body { font: 48px sans-serif; margin: 40px; } p { font-size: 32px; }</style></head>
<body><h1>Sample page</h1><p>Captured by generate_pdf.</p></body></html>
`,
};
