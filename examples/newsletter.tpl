{* An example page: loops, conditions, captures, includes and counters. *}
{capture name=title}{$site.name} news{/capture}
<h1>{$smarty.capture.title}</h1>
{if $articles}
<ul>
{foreach from=$articles item=article name=list}
  {include file="article.tpl" number=$smarty.foreach.list.iteration}
{/foreach}
</ul>
<p>{$smarty.foreach.list.total} articles{if $site.featured}, featured: {$articles[0].title}{/if}</p>
{else}
<p>No news today.</p>
{/if}
