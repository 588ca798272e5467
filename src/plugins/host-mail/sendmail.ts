import { defineFunction } from '../types.js';
import { ROW_BUDGETS } from '../budgets.js';

export default defineFunction({
  kind: 'function',
  name: 'sendmail',
  host: 'mail',
  budget: ROW_BUDGETS.mails,
  extraAttrs: true,
  // A mail with no recipient written can never be sent: refused when the template compiles.
  requiresOneOf: ['to', 'to_member_id', 'cc', 'cc_member_id', 'bcc', 'bcc_member_id'],
  summary:
    'Sends a mail; `var` receives true when the host accepted it for delivery and false when delivery failed. ' +
    'Addresses follow a strict grammar (plain `local@domain`, no display names or comments; at most 100 recipients per call, to+cc+bcc and member ids together); ' +
    "`from` must be in one of the site's verified domains; a line break or control character in any header value (to, cc, bcc, from, from_nm, subject) is refused with E_MAIL_REJECTED. " +
    'At most 20 mails per render (its row budget, E_BUDGET), and the host keeps a per-site hourly window (E_RATE_LIMIT). ' +
    "With `mail_template` the host renders the stored message template with the further attributes as variables; `subject` / `contents` given in the tag win over the template's.",
  attrs: {
    var: { type: 'varname', doc: 'Receives true (sent) or false (delivery failed).' },
    to: { type: 'string', doc: 'Comma-separated addresses.' },
    to_member_id: {
      type: 'string',
      doc: 'Comma-separated member ids (the host resolves them to the members this render may mail).',
    },
    cc: { type: 'string', doc: 'Comma-separated addresses.' },
    cc_member_id: { type: 'string', doc: 'Comma-separated member ids.' },
    bcc: { type: 'string', doc: 'Comma-separated addresses (envelope only, never a header).' },
    bcc_member_id: { type: 'string', doc: 'Comma-separated member ids.' },
    subject: { type: 'string', doc: 'At most 1000 characters; non-ASCII is sent as RFC 2047 encoded-words.' },
    contents: { type: 'string', doc: 'Plain-text body (UTF-8), at most 512 KB.' },
    from: {
      type: 'string',
      doc: "Sender address; its domain must be one of the site's verified domains. Default: the host's sender.",
    },
    from_nm: { type: 'string', doc: 'Sender display name (at most 200 characters).' },
    mail_template: { type: 'string', doc: 'Identifier of a stored message template.' },
    sg_custom_args: {
      type: 'array',
      doc: 'Provider arguments: at most 5 entries; keys site_id, region, magazine_id, magazine_send_mail_list_id are reserved.',
    },
  },
  examples: [
    {
      template:
        '{sendmail var=ok to="user@example.com" from="info@example.com" from_nm="Shop" subject="Your order" contents="Thank you."}{if $ok}sent{else}not sent{/if}',
      output: 'sent',
    },
    {
      template:
        '{sendmail var=ok to="nobody@undeliverable.example" from="info@example.com" subject="x" contents="y"}{if $ok}sent{else}not sent{/if}',
      output: 'not sent',
    },
    {
      template: '{sendmail var=ok to_member_id="1" mail_template="welcome" name="Hanako"}{if $ok}sent{/if}',
      output: 'sent',
    },
  ],
});
