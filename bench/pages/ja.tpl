<!DOCTYPE html>
<html lang="ja"><head><title>{$site.title|escape}</title></head>
<body>
<h1>{$site.title|escape}</h1>
{foreach from=$articles item=a}
<article id="a{$a.id}"><h2>{$a.title|escape}</h2>
<p class="lead">{$a.body|mb_truncate:40:"…"|escape}</p>
<p class="short">{$a.body|mb_strimwidth:0:30:"..."|escape}</p>
<span class="len">{$a.body|mb_strlen}文字</span> <span class="by">{$a.author|mb_substr:0:1}さん</span> <time>{$a.date|date_format:"%Y年%m月%d日"}</time></article>
{/foreach}
</body>
</html>
