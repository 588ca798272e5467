import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'secret',
  host: 'secrets',
  summary:
    "Reads the tenant's secret `key` into `var`, as a handle: the value itself never enters the sandbox. Pass the handle to an attribute that takes secrets (an `api` header to one of the hosts the secret allows, `rcms_encrypt key`); printed, it shows `[secret:NAME:...]`.",
  attrs: {
    var: { type: 'varname', required: true },
    key: { type: 'string', required: true, doc: "The secret's name." },
  },
  examples: [{ template: '{secret var=s key="EXAMPLE_TOKEN"}{$s|truncate:21:""}', output: '[secret:EXAMPLE_TOKEN' }],
});
