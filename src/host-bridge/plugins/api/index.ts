import type { HostPlugin } from '../../plugin-contract.js';
import { api } from './api.js';
import { apiInternal } from './api_internal.js';
import { apiMng } from './api_mng.js';
import { apiToken } from './api_token.js';
import { cookie } from './cookie.js';

/** Host implementations of the api plugins, by name. */
export const plugins: HostPlugin[] = [api, apiInternal, apiMng, apiToken, cookie];
