/**
 * Row budgets: every kind of stored thing a template can create, with how many one render may
 * create and how many one tenant (or one member) may hold (issue 33, finding 3; D160). One
 * anonymous request that looped {assign_api_credential} made 1,000 sessions of 30 days; one render
 * made 3,569 storage entries before its wall timeout.
 *
 * Declared here once, named by each plugin's declaration (`budget`), so `smartcage plugins`,
 * docs/reference.md and docs/limits.md list them from the same data. Who counts:
 *  - per render: the bridge, in the render's host-side state (BridgeCall.counters), before the
 *    plugin runs: every call of a plugin with a budget counts one against its kind, shared by the
 *    plugins of that kind (E_BUDGET past it);
 *  - per tenant and per member: the host's store, as one query in the same transaction as the
 *    write, so several processes sharing one database count together (the local site:
 *    src/site/adapters/). An embedder's own adapters enforce them the same way.
 */

/** What a store does when a cap is reached. */
export type AtCap =
  /** The new row is not made: E_BUDGET. */
  | 'refuse'
  /** The oldest row (of the member, of the tenant) goes, then the new one is made. */
  | 'evict-oldest';

export interface StoreCap {
  max: number;
  atCap: AtCap;
}

export interface RowBudget {
  /** What is created, for messages and the docs ("sessions", "batch runs queued"...). */
  rows: string;
  /** Calls, in one render, of the plugins that create this kind of row. */
  perRender: number;
  /** Rows one tenant holds at most (live ones: expired sessions and finished batch runs do not count). */
  perTenant?: StoreCap;
  /** Rows one member holds at most. */
  perMember?: StoreCap;
  /** Where a cap is counted elsewhere, or what else bounds it (a rate per hour, the storage quota). */
  note?: string;
}

export const ROW_BUDGETS = {
  sessions: {
    rows: 'sessions (login, API credentials of a member)',
    perRender: 10,
    perMember: { max: 50, atCap: 'evict-oldest' },
    perTenant: { max: 10_000, atCap: 'refuse' },
    note: "a member's oldest session goes at its cap (as a login on a new device would); at the tenant cap new sessions are refused, since evicting other members' sessions would let one loop log everyone out",
  },
  apiTokens: {
    rows: 'API access tokens',
    perRender: 10,
    perTenant: { max: 1_000, atCap: 'refuse' },
  },
  batches: {
    rows: 'batch runs queued',
    perRender: 100,
    perTenant: { max: 1_000, atCap: 'refuse' },
    note: 'runs waiting or running (finished runs do not count); the site refuses with E_QUOTA (MAX_PENDING_RUNS)',
  },
  mails: {
    rows: 'mails in the outbox',
    perRender: 20,
    note: 'per tenant: site.json mail.max_per_hour and max_recipients_per_hour (E_RATE_LIMIT); per render also at most 200 recipients',
  },
  storage: {
    rows: 'files and folders written',
    perRender: 500,
    note: 'per tenant: the storage quota (bytes, and 100,000 entries: E_QUOTA)',
  },
} as const satisfies Record<string, RowBudget>;
