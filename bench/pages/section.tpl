<table class="grid">
{section name=r loop=$rows}
<tr class="{if $smarty.section.r.index % 2 == 0}even{else}odd{/if}{if $smarty.section.r.first} first{/if}{if $smarty.section.r.last} last{/if}"><th>{$rows[r].label}</th>
{section name=c loop=$rows[r].cells}
<td{if $rows[r].cells[c] > 80} class="hot"{elseif $rows[r].cells[c] < 20} class="cold"{/if}>{if $rows[r].cells[c] == 0}-{elseif $rows[r].cells[c] == 100}max{else}{$rows[r].cells[c]}{/if}</td>
{/section}
</tr>
{/section}
</table>
