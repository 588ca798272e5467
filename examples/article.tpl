<li class="{cycle values='odd,even'}">{$number}. {$article.title}{if $article.tags} [{foreach from=$article.tags item=tag name=t}{$tag}{if !$smarty.foreach.t.last}, {/if}{/foreach}]{/if}</li>
