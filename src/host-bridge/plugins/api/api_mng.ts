import type { HostPlugin } from '../../plugin-contract.js';
import { requestInternal } from './internal-request.js';

export const apiMng: HostPlugin = { name: 'api_mng', run: (attrs, call) => requestInternal('api_mng', attrs, call) };
