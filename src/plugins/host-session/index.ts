import type { Plugin } from '../types.js';
import login from './login.js';
import logout from './logout.js';
import assignApiCredential from './assign_api_credential.js';

/** Declarations of the session plugins (implementations: src/host-bridge/plugins/session/). */
export const plugins: Plugin[] = [login, logout, assignApiCredential];
