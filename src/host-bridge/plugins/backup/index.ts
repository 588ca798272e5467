import type { HostPlugin } from '../../plugin-contract.js';
import { backup } from './backup.js';
import { backupDelete } from './backup_delete.js';

/** Host implementations of the backup plugins, by name. */
export const plugins: HostPlugin[] = [backup, backupDelete];
