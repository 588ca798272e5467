/**
 * Backups ({backup}, {backup_delete}): full backups of the tenant's site, kept by the host. The
 * plugins decide who may back up, how often, how many are kept and which to delete; the adapter
 * makes, lists and deletes the tenant's backups only, and enforces the size of one backup itself
 * (a BridgeError E_SIZE_LIMIT, nothing kept).
 */
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

export interface BackupsAdapter {
  /** Makes a full backup of the tenant now; its record. */
  create(memo: string): Promise<BackupRecord>;
  /** The tenant's backups, oldest first. */
  list(): Promise<BackupRecord[]>;
  /** Deletes one of the tenant's backups; false when it has none with that id. */
  delete(id: string): Promise<boolean>;
}
