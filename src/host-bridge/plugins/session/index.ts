import type { HostPlugin } from '../../plugin-contract.js';
import { login } from './login.js';
import { logout } from './logout.js';
import { assignApiCredential } from './assign_api_credential.js';

/** Host implementations of the session plugins, by name. */
export const plugins: HostPlugin[] = [login, logout, assignApiCredential];
