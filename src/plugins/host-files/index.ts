import type { Plugin } from '../types.js';
import readFile from './read_file.js';
import readDir from './read_dir.js';
import writeFile from './write_file.js';
import putFile from './put_file.js';
import saveFile from './save_file.js';
import removeFile from './remove_file.js';
import removeDir from './remove_dir.js';
import renameFile from './rename_file.js';
import storageUrl from './storage_url.js';
import copyS3TempFile from './copy_s3_temp_file.js';
import getFile from './get_file.js';

/** Declarations of the privileged files plugins (implementations: src/host-bridge/plugins/files/). */
export const plugins: Plugin[] = [readFile, readDir, writeFile, putFile, saveFile, removeFile, removeDir, renameFile, storageUrl, copyS3TempFile, getFile];
