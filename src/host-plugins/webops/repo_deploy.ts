/**
 * {repo_deploy result_var=ok}: a POST without body to the site's build hook (spec, api rule 5:
 * "a POST without body to a hosting service's build-hook URL triggers a build"), with the hook's
 * token secret as a bearer token. true for a 2xx answer; false, with a warning, for no hook, a
 * failed request or another status. Refusals (a token secret the hook's origin may not receive,
 * a URL the guard refuses) are errors: they are the site's configuration, not the build's outcome.
 */
import { implement, type HostResult } from '../plugin-contract.js';
import { send } from './common.js';
import declaration from '../../plugins/host-webops/repo_deploy.js';

export const repoDeploy = implement(declaration, async (attrs, call, deploy) => {
  const outcome = (ok: boolean, message: string): HostResult => ({
    ...(typeof attrs.result_var === 'string' ? { assign: [[attrs.result_var, ok]] } : {}),
    log: [{ level: ok ? 'info' : 'warning', message: `{repo_deploy} ${message}` }],
  });
  const hook = await deploy.hook();
  if (!hook) return outcome(false, 'no build hook is configured (site.json deploy.hook_url)');
  const sent = await send(call, 'repo_deploy', hook, 'POST');
  if ('failed' in sent) return outcome(false, `the build hook failed: ${sent.failed}`);
  const { status } = sent.res;
  return status >= 200 && status < 300
    ? outcome(true, `build started (${status})`)
    : outcome(false, `the build hook answered ${status}`);
});
