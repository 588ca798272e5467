import type { Plugin } from '../types.js';
import backup from './backup.js';
import backupDelete from './backup_delete.js';

/** Declarations of the backup plugins (implementations: src/host-bridge/plugins/backup/). */
export const plugins: Plugin[] = [backup, backupDelete];
