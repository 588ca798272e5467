{* The news page of the sample site: `smartcage site init demo`, then
   `smartcage render examples/news-page.tpl --site demo`. Everything on it comes from the site's
   database through the content plugins: the newest open contents of group 1 (News) with their
   category, the categories, one content in full with its view counter, the offices from master
   table 2 and the link to the child site. (Each line of tags ends in a comment that runs to the
   next line, so the page starts with its doctype.) *}{*
*}{assign_array var=list_params values="1" keys="topics_group_id"}{*
*}{assign_array var=page_params values="5" keys="cnt"}{*
*}{if $smarty.get.pageID}{assign_array var=page_params values=$smarty.get.pageID keys="pageID"}{/if}{*
*}{api_method var=news model="Topics" method="list" method_params=$list_params request_params=$page_params}{*
*}{assign_topics_category_list var=categories topics_group_id=1}{*
*}{assign_topics_detail var=topic topics_id=1}{*
*}{assign_csv_table var=offices csvtable_id=2}{*
*}{child_site site_key="child" var=support}{*
*}<!DOCTYPE html>
<html lang="ja">
<head>
  <meta charset="utf-8">
  <title>ニュース | {$smarty.const.SITE_KEY|escape}</title>
</head>
<body>
{include file="layout-header.tpl"}
<nav class="categories">
  <ul>
{foreach from=$categories item=category}
    <li{if $category.category_parent_id} class="child"{/if}><a href="/news/?contents_type={$category.topics_category_id}">{$category.category_nm|escape}</a></li>
{/foreach}
  </ul>
</nav>
<main>
  <section class="news-list">
    <h2>新着ニュース</h2>
    <ul>
{foreach from=$news.list item=item}
      <li><time datetime="{$item.ymd}">{$item.ymd|date_format:"Y年n月j日"}</time> <span class="category">{$item.contents_type_nm|escape}</span> <a href="/news/{$item.topics_id}/">{$item.subject|escape}</a></li>
{/foreach}
    </ul>
    <p class="pager">{$news.pageInfo.pageNo} / {$news.pageInfo.totalPageCnt} ページ（全{$news.pageInfo.totalCnt}件）</p>
  </section>
{if $topic}
  <article>
    <h2>{$topic.subject|escape}</h2>
    <p class="meta">{$topic.ymd|date_format:"Y年n月j日"} · {$topic.contents_type_nm|escape} · {$topic.author|escape}</p>
    {$topic.contents}
{if $topic.related_links}
    <ul class="links">
{foreach from=$topic.related_links item=link}
      <li><a href="{$link|escape}">{$link|escape}</a></li>
{/foreach}
    </ul>
{/if}
{assign_relation_tag_list module="topics" module_id=$topic.topics_id var=tags}{*
*}{if $tags}
    <p class="tags">{foreach from=$tags item=tag name=tags}<a href="/tags/{$tag.id}/">#{$tag.tag_nm|escape}</a>{if !$smarty.foreach.tags.last} {/if}{/foreach}</p>
{/if}
{* A page view is a web request: counted in the pending store, then synced into the content. A
   render with no request (`smartcage render ... --site demo`, a preview) counts none. *}{*
*}{if $smarty.server.REQUEST_METHOD}{*
*}{increment_counter var=views value=1 topics_group_id=1 slug=$topic.topics_id ext_slug="view_count"}{*
*}{sync_counter ids=$topic.topics_id}{assign_topics_detail var=synced topics_id=1}{*
*}    <p class="views">閲覧数: {$topic.view_count} → {$views}（同期後 {$synced.view_count}）</p>
{else}    <p class="views">閲覧数: {$topic.view_count}</p>
{/if}
  </article>
{/if}
</main>
<footer>
  <ul class="offices">
{foreach from=$offices item=office}
    <li>{$office.1|escape} {$office.3|escape}</li>
{/foreach}
  </ul>
{if $support}
  <p><a href="{$support.url|escape}">{$support.site_nm|escape}</a></p>
{/if}
</footer>
</body>
</html>
