import type { Plugin } from '../types.js';
import api from './api.js';
import apiInternal from './api_internal.js';
import apiMng from './api_mng.js';
import apiToken from './api_token.js';
import cookie from './cookie.js';

/** Declarations of the privileged api plugins (implementations: src/host-bridge/plugins/api/). */
export const plugins: Plugin[] = [api, apiInternal, apiMng, apiToken, cookie];
