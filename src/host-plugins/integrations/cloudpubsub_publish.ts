/**
 * {cloudpubsub_publish}: one message to a topic of a publish/subscribe REST API
 * (`POST {pubsubBase}/v1/projects/{project}/topics/{topic}:publish`), with an access token of the
 * service account (scope pubsub). `project` defaults to the key's project_id. A string message is
 * sent as its bytes; any other value as JSON (docs/decisions.md D113). var receives the message
 * ID, or false when the token endpoint or the API refuses or fails.
 */
import { implement } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import type { Value } from '../../value/value.js';
import { wireBytes } from '../wire-bytes.js';
import { jsonEncode } from '../../php/json/encode.js';
import { JSON_UNESCAPED_SLASHES, JSON_UNESCAPED_UNICODE } from '../../php/json/flags.js';
import { ServiceFailure, orFalse, record, requestJson, settingsUrl } from './common.js';
import { cloudAccount } from './cloud.js';
import { serviceToken } from './service-account.js';
import declaration from '../../plugins/host-integrations/cloudpubsub_publish.js';

const PLUGIN = 'cloudpubsub_publish';
const PUBSUB_SCOPE = 'https://www.googleapis.com/auth/pubsub';
/** Bytes of one message's data (before base64). */
export const MAX_PUBSUB_MESSAGE_BYTES = 1024 * 1024;
/** Project IDs and topic names as the API defines them; checked so neither can change the path. */
const PROJECT = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/;
const TOPIC = /^(?!goog)[A-Za-z][A-Za-z0-9\-_.~+%]{2,254}$/;

function messageBytes(message: Value): Uint8Array {
  if (typeof message === 'string') return wireBytes(message);
  const json = jsonEncode(message ?? null, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES);
  if (json === false) throw new BridgeError('E_BAD_ATTRIBUTE', `{${PLUGIN}} message= cannot be encoded as JSON`);
  return wireBytes(json);
}

export const cloudpubsubPublish = implement(declaration, (attrs, call) =>
  orFalse(PLUGIN, attrs.var, async () => {
    const topic = String(attrs.topic);
    if (!TOPIC.test(topic))
      throw new BridgeError(
        'E_BAD_ATTRIBUTE',
        `{${PLUGIN}} topic= is not a topic name (3-255 letters, digits and - _ . ~ + %, starting with a letter, not with "goog")`,
      );
    const data = messageBytes(attrs.message);
    if (data.length > MAX_PUBSUB_MESSAGE_BYTES)
      throw new BridgeError('E_SIZE_LIMIT', `{${PLUGIN}} message= is larger than ${MAX_PUBSUB_MESSAGE_BYTES} bytes`);
    const { settings, sa } = await cloudAccount(call, PLUGIN, attrs.sa_secret_name);
    const project = typeof attrs.project === 'string' && attrs.project !== '' ? attrs.project : sa.projectId;
    if (project === null)
      throw new BridgeError(
        'E_BAD_ATTRIBUTE',
        `{${PLUGIN}} needs project= (the service account "${sa.name}" names no project_id)`,
      );
    if (!PROJECT.test(project))
      throw new BridgeError(
        'E_BAD_ATTRIBUTE',
        `{${PLUGIN}} project= is not a project ID (6-30 lowercase letters, digits and hyphens)`,
      );
    const token = await serviceToken(call, PLUGIN, sa, settings.tokenUrl, { scope: PUBSUB_SCOPE });
    const url = settingsUrl(PLUGIN, settings.pubsubBase, `/v1/projects/${project}/topics/${topic}:publish`);
    const { status, json } = await requestJson(call, PLUGIN, {
      method: 'POST',
      url,
      headers: [
        ['Authorization', `Bearer ${token}`],
        ['Content-Type', 'application/json'],
      ],
      body: JSON.stringify({ messages: [{ data: Buffer.from(data).toString('base64') }] }),
    });
    const ids = record(json)?.messageIds;
    const id = Array.isArray(ids) && ids.length === 1 && typeof ids[0] === 'string' ? ids[0] : null;
    if (status !== 200 || id === null)
      throw new ServiceFailure(`the topic ${topic} did not take the message (HTTP ${status})`);
    return { assign: [[String(attrs.var), id]] };
  }),
);
