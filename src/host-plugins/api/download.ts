/**
 * {api dl_flg=true}: the response body saved in the tenant's temporary area under a name the host
 * chooses (/files/temp/<uuid>[.<extension of the URL path>]), through the FileStore, so that it
 * runs on every storage. The body is the one the egress guard already capped; the store applies
 * its quota. A body that holds a secret value issued in this render is not saved: a file outlives
 * the render, and the bridge's redaction, which keeps secrets out of the render's answers, would
 * not see it when a later render reads the file.
 */
import { randomUUID } from 'node:crypto';
import type { BridgeCall } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { GENERATED_PATH_ROOT } from '../../host-adapters/files/plugin-roots.js';
import { parseVirtualPath } from '../../host-adapters/files/virtual-path.js';
import { missingAdapter } from '../../host-api/capabilities.js';
import { fromBytes } from '../../value/bytes.js';

const EXTENSION = /\.([A-Za-z0-9]{1,16})$/;

/** Saves `body` and answers its virtual path. */
export async function saveDownload(body: Uint8Array, url: string, call: BridgeCall): Promise<string> {
  if (!call.host.files) throw missingAdapter('{api} dl_flg', 'files');
  const text = fromBytes(body);
  if (call.secrets.redact(text) !== text)
    throw new BridgeError(
      'E_SECRET_DENIED',
      '{api} dl_flg: the response holds a secret value of this render; it is not saved',
    );
  const ext = EXTENSION.exec(new URL(url).pathname)?.[1];
  const path = parseVirtualPath(`${GENERATED_PATH_ROOT}/${randomUUID()}${ext ? `.${ext.toLowerCase()}` : ''}`);
  await call.host.files.writeAtomic(path, body);
  return path.text;
}
