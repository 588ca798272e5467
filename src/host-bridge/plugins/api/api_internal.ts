import type { HostPlugin } from '../../plugin-contract.js';
import { requestInternal } from './internal-request.js';

export const apiInternal: HostPlugin = { name: 'api_internal', run: (attrs, call) => requestInternal('api_internal', attrs, call) };
