import type { HostPlugin } from '../../plugin-contract.js';
import { api } from './api.js';
import { apiInternal, apiMng } from './internal.js';
import { apiToken } from './token.js';
import { cookie } from './cookie.js';

/** Host implementations of the api plugins, by name. */
export const plugins: HostPlugin[] = [api, apiInternal, apiMng, apiToken, cookie];
