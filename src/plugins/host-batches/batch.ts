import { defineFunction } from '../types.js';
import { ROW_BUDGETS } from '../budgets.js';

export default defineFunction({
  kind: 'function',
  name: 'batch',
  host: 'batches',
  budget: ROW_BUDGETS.batches,
  summary:
    "Queues a run of one of the site's batches with ext_data; `smartcage batch run` runs it in the batch context (no member, no request, no cookies), where the template reads the data as `$ext_data`. " +
    'One of batch_id and name is required (both, or module with batch_id: E_BAD_COMBINATION); a batch the site does not have is E_NOT_FOUND. ' +
    'The same batch with the same ext_data queued twice in one render is one run, and so is every start with the same idempotency_key. ext_data is at most 64 KiB as JSON and may hold no secret; a batch run may queue batches 5 levels deep, and a site holds at most 1000 waiting runs (E_QUOTA).',
  attrs: {
    batch_id: { type: 'int', min: 1, doc: "The batch's registered id (site.json `batches[].id`)." },
    name: {
      type: 'string',
      doc: "The batch's slug (site.json `batches[].slug`), or with module= the name of a module's default batch.",
    },
    module: { type: 'string', doc: 'A module whose default batch `name` names (`topics` with `sync_counter`).' },
    ext_data: {
      type: 'mixed',
      doc: 'An array handed to the batch as `$ext_data` (key order kept); default an empty array.',
    },
    idempotency_key: {
      type: 'string',
      doc:
        'A key of the caller (1 to 200 characters, e.g. a form token): every {batch} of the site with this key queues one run, and the later ones answer its id, for 7 days after it ended. ' +
        'A client that retries a request whose answer it lost so never queues the work twice.',
    },
    var: { type: 'varname', doc: "Receives the queued run's id." },
  },
  examples: [
    {
      template:
        '{batch name="notify" idempotency_key="order-1001" var=id}{batch name="notify" idempotency_key="order-1001" var=again}{$id} {$again}',
      output: '1 1',
    },
    {
      template:
        '{assign_array var=d keys="to,count" values="ops@example.com,3"}{batch name="notify" ext_data=$d var=id}{batch name="notify" ext_data=$d var=again}{if $id == $again}one run{/if}',
      output: 'one run',
    },
  ],
});
