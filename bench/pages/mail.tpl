{$order.customer}様

{$shop.name}をご利用いただき、ありがとうございます。
ご注文日時: {$order.date|date_format:"%Y年%m月%d日 %H時%M分"}
ご注文番号: {$order.number}

{foreach from=$order.lines item=line}
- {$line.name} ({$line.sku}) x {$line.qty}: {$line.price|number_format}円 / 小計 {$line.subtotal|number_format}円
{/foreach}

合計: {$order.total|number_format}円
お届け予定: {$order.delivery|date_format:"%m月%d日 (%H:%M)"}

{$order.note|wordwrap:60:"\n":true}

{$shop.footer|nl2br}
