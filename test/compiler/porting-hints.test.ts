/** Porting hints (src/compiler/porting-hints.ts): which tags get one, and which do not. */
import { describe, expect, it } from 'vitest';
import { portingHint } from '../../src/compiler/porting-hints.js';
import { compile } from '../../src/compiler/index.js';

describe('portingHint', () => {
  it.each([
    ['{extends file="layout.tpl"}', '{include file=...}'],
    ["{extends 'layout.tpl'}", '{extends} is Smarty 3 template inheritance'],
    ['{block name=x}', '{capture name=...}'],
    ['{/block}', 'template inheritance'],
    ['{foreach $list as $row}', '{foreach from=$list item=row}'],
    ['{foreach $user.roles as $k => $v}', '{foreach from=$user.roles key=k item=v}'],
    ['{$row@last}', '$smarty.foreach.f.last'],
    ['{$a.b = 1}', '{assign var=a.b value=...}'],
    ['{$n += 2}', '{assign var=n value=...}'],
    ['{$i++}', '{assign var=i value=$i+1}'],
    ['{for $i=0 to 9}', '{section'],
    ['{include file="x.tpl" scope=parent}', 'scope= is Smarty 3'],
    ["{include 'x.tpl'}", "write the attribute, {include file='...'}"],
    ['{capture "x"}', "{capture name='...'}"],
    ['{$x nocache}', 'nocache is Smarty 3 caching'],
    ['{if $a is not in $list}', 'in_array'],
    ['{else if $x}', "Smarty 3's {elseif}"],
    ['{html_options options=$list selected=$id}', 'write the <option> tags in {foreach'],
    ['{html_checkboxes name=x options=$o}', 'write the <input> tags'],
    ['{html_select_date}', 'date_format'],
    ['{mailto address="me@example.com"}', 'mailto:{$address|escape}'],
    ['{textformat wrap=40}', 'wordwrap and indent modifiers'],
    ['{/textformat}', 'wordwrap and indent modifiers'],
    ['{eval var=$x}', 'compiled before they run'],
    ['{fetch file="http://x"}', '{api} for HTTP'],
    ['{config_load file="a.conf"}', 'config files are not in the dialect'],
    ['{#title#}', 'config variables ({#name#}) come from {config_load}'],
    ['{insert name="banner"}', 'use {include} or {function}'],
    ['{$url|rawurlencode}', "|escape:'url' encodes the same way"],
  ])('%s', (tag, hint) => {
    expect(portingHint(tag)).toContain(hint);
  });

  it.each([
    '{foreach from=$list item=row}',
    '{$x == 1}',
    '{$x|default:"a=b"}',
    '{assign var=x value=1}',
    '{$x|@count}',
    '{include file="x.tpl"}',
    '{if $a eq 1}',
    '{$row.first}',
    '{cycle values="a,b"}',
    '{math equation="x+1" x=1}',
  ])('none for what the dialect has: %s', (tag) => {
    expect(portingHint(tag)).toBeNull();
  });

  it('a suggestion that ends in a question mark is not followed by a full stop', () => {
    const [d] = compile('{fetch file="x"}').diagnostics;
    expect(d!.message).toContain('did you mean "batch"? {fetch} is not in the dialect');
    expect(d!.message).not.toContain('?.');
  });

  it("joins the compiler's diagnostic at the tag, which keeps its code", () => {
    const [d] = compile('a\n  {foreach $list as $row}{$row}{/foreach}').diagnostics;
    expect(d).toMatchObject({ code: 'E_SYNTAX', line: 2, column: 3 });
    expect(d!.message).toBe(
      'unrecognized tag: {foreach $list as $row}. {foreach $list as ...} is Smarty 3 syntax: write {foreach from=$list item=row}',
    );
  });
});
