/**
 * {api files=...}: files of the tenant's store sent as the request body. POST and PATCH send a
 * multipart/form-data body (encoded by undici's FormData, not by hand); PUT sends the first file
 * alone as the raw body and ignores the rest (spec, api rule 1). Sizes are checked from the
 * store's stat before a byte is read; the store's own read cap applies as well.
 */
import { FormData, Response } from 'undici';
import type { BridgeCall } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { checkPluginPath } from '../../host-adapters/files/plugin-roots.js';
import type { VirtualPath } from '../../host-adapters/files/virtual-path.js';
import { missingAdapter } from '../../host-api/capabilities.js';
import { PhpArray, PhpObject, type Key, type Value } from '../../value/value.js';

/** Entries of one `files` list (a PUT reads only the first). */
export const MAX_UPLOAD_FILES = 20;
/** Bytes of all the files of one request together (the egress guard's request cap by default). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** One part of the body: where it is read from and how it is named. */
interface Part {
  path: VirtualPath;
  field: string;
  contentType: string;
}

const FIELD = /^[A-Za-z0-9_.[\]-]{1,64}$/;
const CONTENT_TYPE = /^[A-Za-z0-9!#$&^_.+-]{1,64}\/[A-Za-z0-9!#$&^_.+-]{1,64}$/;

/**
 * A `files` entry: a path relative to the temporary area (`report.csv` is /files/temp/report.csv)
 * or a virtual path under it (`/files/temp/report.csv`, what dl_flg, write_file and save_file
 * give back), as a string or as `{path, name?, content_type?}`. The form field is `name`, else a
 * string key of the list, else `file`.
 */
function partOf(key: Key, entry: Value): Part {
  const obj = entry instanceof PhpArray || entry instanceof PhpObject ? entry : null;
  const raw = obj ? obj.get('path') : entry;
  if (typeof raw !== 'string' || raw === '')
    throw new BridgeError('E_BAD_ATTRIBUTE', '{api} files= takes paths, or arrays with a key path');
  const path = checkPluginPath('api', 'files', raw.startsWith('/') ? raw : `/files/temp/${raw}`);
  const name = obj?.get('name');
  const field = typeof name === 'string' ? name : typeof key === 'string' ? key : 'file';
  if (!FIELD.test(field))
    throw new BridgeError(
      'E_BAD_ATTRIBUTE',
      `{api} files=: the form field name ${JSON.stringify(field.slice(0, 64))} is not allowed`,
    );
  const type = obj?.get('content_type');
  const contentType = typeof type === 'string' && type !== '' ? type : 'application/octet-stream';
  if (!CONTENT_TYPE.test(contentType))
    throw new BridgeError('E_BAD_ATTRIBUTE', '{api} files=: content_type must be a plain type/subtype');
  return { path, field, contentType };
}

/** The body (and its Content-Type) that `files` makes for `method`; undefined when no files are given. */
export async function uploadBody(
  files: Value,
  method: string,
  call: BridgeCall,
): Promise<{ body: Buffer; contentType: string } | undefined> {
  if (!(files instanceof PhpArray) || files.size === 0) return undefined;
  if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH')
    throw new BridgeError('E_BAD_COMBINATION', `{api} files are sent with POST, PUT or PATCH, not ${method}`);
  const entries = method === 'PUT' ? files.entries().slice(0, 1) : files.entries();
  if (entries.length > MAX_UPLOAD_FILES)
    throw new BridgeError('E_SIZE_LIMIT', `{api} sends at most ${MAX_UPLOAD_FILES} files in one request`);
  const parts = entries.map(([k, v]) => partOf(k, v));
  if (!call.host.files) throw missingAdapter('{api} files=', 'files');
  const store = call.host.files;
  let total = 0;
  for (const p of parts) {
    const st = await store.stat(p.path);
    if (st.isDir) throw new BridgeError('E_BAD_ATTRIBUTE', `{api} files=: ${p.path.text} is a folder`);
    total += st.size;
    if (total > MAX_UPLOAD_BYTES)
      throw new BridgeError('E_SIZE_LIMIT', `{api} files= add up to more than ${MAX_UPLOAD_BYTES} bytes`);
  }
  // A file may grow between stat and read: the bytes read are counted again.
  let read = 0;
  const readPart = async (p: Part): Promise<Uint8Array> => {
    const data = await store.read(p.path);
    read += data.length;
    if (read > MAX_UPLOAD_BYTES)
      throw new BridgeError('E_SIZE_LIMIT', `{api} files= add up to more than ${MAX_UPLOAD_BYTES} bytes`);
    return data;
  };
  if (method === 'PUT') {
    const only = parts[0]!;
    return { body: Buffer.from(await readPart(only)), contentType: only.contentType };
  }
  const form = new FormData();
  for (const p of parts) {
    const data = await readPart(p);
    form.append(p.field, new Blob([new Uint8Array(data)], { type: p.contentType }), p.path.segments.at(-1) ?? 'file');
  }
  const encoded = new Response(form);
  return {
    body: Buffer.from(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type') ?? 'multipart/form-data',
  };
}
