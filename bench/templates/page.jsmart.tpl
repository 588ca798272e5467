<!DOCTYPE html>
<html><head><title>{$page.title|escape}</title></head>
<body>
<h1>{$page.title|escape}</h1>
<ul class="items">
{foreach from=$items item=item name=items}
<li class="{if $item.featured}featured{else}plain{/if}" id="item-{$item.id}"><span class="n">{$smarty.foreach.items.iteration}</span> <h2>{$item.title|escape}</h2> <p>{$item.body|truncate:80:"...":true|escape}</p> <time>{$item.date|date_format:"%Y-%m-%d"}</time> <span class="tags">{$item.tags|join:", "|escape}</span></li>
{/foreach}
</ul>
<p class="total">Total: {$items|count} items</p>
</body>
</html>