/**
 * A site's stores as the harness needs them for the plugins that keep rows (members, sessions,
 * batches, backups), in memory: the cases that attack those plugins (BR-04, BR-15, BR-16, CPU-07)
 * check what the bridge and the plugins refuse, and read here what was stored anyway. Member 1 is
 * the super user, members 2-8 exist, every other id does not. The stores' own caps (a site's
 * atomic per-tenant counts, the batch runner's dedupe) are tested on a real site (test/site/).
 */
import { checkBackupBounds, type BackupRecord, type BackupsAdapter } from '../../host-api/adapters/backups.js';
import type { BatchStart, BatchesAdapter } from '../../host-api/adapters/batches.js';
import type { MembersAdapter } from '../../host-api/adapters/members.js';
import type { SessionAdapter } from '../../host-api/adapters/session.js';
import type { HostAdapters } from '../../host-api/host.js';

export interface SiteStores {
  /** The stores' adapters for one tenant (a render's). */
  readonly adapters: (tenant: string) => Pick<HostAdapters, 'members' | 'sessions' | 'batches' | 'backups'>;
  /** Sessions started or issued, as `tenant:member`. */
  readonly sessions: string[];
  readonly batches: BatchStart[];
  readonly backups: BackupRecord[];
}

export function siteStores(now: () => number = () => Math.floor(Date.now() / 1000)): SiteStores {
  const sessions: string[] = [];
  const batches: BatchStart[] = [];
  const backups: BackupRecord[] = [];
  const members: MembersAdapter = {
    isSuperUser: async (id) => id === 1,
    exists: async (id) => id >= 1 && id <= 8,
  };
  const queue: BatchesAdapter = {
    enqueue: async (start) => {
      batches.push(start);
      return batches.length;
    },
  };
  const store: BackupsAdapter = {
    // The bounds are checked as the backup is added, in one step (a shared store's duty, D339).
    create: async (memo, bounds) => {
      if (bounds) checkBackupBounds(backups.length, backups.at(-1)?.created, now(), bounds);
      const r: BackupRecord = { id: `b${backups.length + 1}`, type: 'full', memo, created: now(), size: 1024 };
      backups.push(r);
      return r;
    },
    list: async () => [...backups],
    delete: async (id) => {
      const i = backups.findIndex((b) => b.id === id);
      if (i < 0) return false;
      backups.splice(i, 1);
      return true;
    },
  };
  /** The sessions adapter of one tenant: it records whose sessions it started. */
  const sessionsOf = (tenant: string): SessionAdapter => ({
    current: async () => null,
    start: async (_request, memberId) => void sessions.push(`${tenant}:${memberId}`),
    end: async () => {},
    issue: async (memberId, expires) => {
      sessions.push(`${tenant}:${memberId}`);
      return { sessionId: `s${sessions.length}`, accessToken: `t${sessions.length}`, expiresAt: now() + expires };
    },
  });
  return {
    adapters: (tenant) => ({ members, sessions: sessionsOf(tenant), batches: queue, backups: store }),
    sessions,
    batches,
    backups,
  };
}
