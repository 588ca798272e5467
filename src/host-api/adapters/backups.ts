/**
 * Backups ({backup}, {backup_delete}): full backups of the tenant's site, kept by the host. The
 * plugins decide who may back up, how often, how many are kept and which to delete; the adapter
 * makes, lists and deletes the tenant's backups only, and enforces the size of one backup itself
 * (a BridgeError E_SIZE_LIMIT, nothing kept). The plugin's bounds reach `create` too: a store
 * that several processes share checks them there, in one step with claiming the new backup
 * (decisions.md D339), since two renders on two nodes each pass a check made before.
 */
import { BridgeError } from '../errors.js';

export interface BackupRecord {
  /** The backup's id ({backup_delete} backup_id). */
  id: string;
  /** `full`: the database rows and the files of the tenant. */
  type: 'full';
  memo: string;
  /** Unix seconds. */
  created: number;
  /** Bytes of the archive. */
  size: number;
}

/** How many backups a tenant keeps and how often it may make one ({backup}). */
export interface BackupBounds {
  maxKept: number;
  intervalSeconds: number;
}

/**
 * Refuses a new backup when `kept` are held (E_QUOTA) or the newest was made less than the
 * interval before `now` (E_RATE_LIMIT), Unix seconds: the plugin's check, and a store's under its lock.
 */
export function checkBackupBounds(kept: number, newest: number | undefined, now: number, b: BackupBounds): void {
  if (kept >= b.maxKept)
    throw new BridgeError(
      'E_QUOTA',
      `the site keeps at most ${b.maxKept} backups; delete one with {backup_delete} first`,
    );
  if (newest !== undefined && now - newest < b.intervalSeconds)
    throw new BridgeError(
      'E_RATE_LIMIT',
      `one backup per ${b.intervalSeconds / 60} minutes: the last one is ${now - newest} s old`,
    );
}

export interface BackupsAdapter {
  /**
   * Makes a full backup of the tenant now; its record. With `bounds` (a template's {backup}), a
   * store shared by several processes checks them (checkBackupBounds) atomically with claiming
   * the new backup, counting the backups still being made; the operator's own calls give none.
   */
  create(memo: string, bounds?: BackupBounds): Promise<BackupRecord>;
  /** The tenant's backups, oldest first. */
  list(): Promise<BackupRecord[]>;
  /** Deletes one of the tenant's backups; false when it has none with that id. */
  delete(id: string): Promise<boolean>;
}
