import type { HostPlugin } from '../../plugin-contract.js';
import { readFile } from './read_file.js';
import { readDir } from './read_dir.js';
import { writeFile } from './write_file.js';
import { putFile } from './put_file.js';
import { saveFile } from './save_file.js';
import { removeFile } from './remove_file.js';
import { removeDir } from './remove_dir.js';
import { renameFile } from './rename_file.js';
import { storageUrl } from './storage_url.js';
import { copyS3TempFile } from './copy_s3_temp_file.js';
import { getFile } from './get_file.js';

/** Host implementations of the files plugins, by name. */
export const plugins: HostPlugin[] = [readFile, readDir, writeFile, putFile, saveFile, removeFile, removeDir, renameFile, storageUrl, copyS3TempFile, getFile];
