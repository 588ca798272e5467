/**
 * Adapters of the operations a site runs over HTTP ({purge_cdn_cache}, {repo_deploy},
 * {kick_spider}): the site's settings and the spider's records, always for the adapter's tenant. The requests
 * themselves go through HostAdapters.http and the rules live in the plugins
 * (src/host-plugins/webops/); these only answer and store data.
 */

/** An endpoint the site configured, and the secret (by name) whose value is sent to it as a bearer token. */
export interface ConfiguredEndpoint {
  url: string;
  /** Secret name; its `hosts` must list the URL's origin. Absent: no token. */
  tokenSecret?: string;
}

/** {purge_cdn_cache}: where the tenant's CDN takes purges when the template names no api_endpoint; null: nowhere configured. */
export interface CdnAdapter {
  purgeEndpoint(): Promise<ConfiguredEndpoint | null>;
}

/** {repo_deploy}: the tenant's build hook; null: none configured (the plugin answers false). */
export interface DeployAdapter {
  hook(): Promise<ConfiguredEndpoint | null>;
}

/** One spider settings row of the tenant. */
export interface SpiderSettings {
  id: number;
  status: 'Enabled' | 'Disabled';
  startUrls: string[];
  /** Origins (`https://docs.example.com`) links may lead to besides those of the start URLs. */
  allowedOrigins: string[];
  maxPages: number;
  maxDepth: number;
}

/** One run of a spider, as {kick_spider spider_history_id=...} re-executes it. */
export interface SpiderHistory {
  id: number;
  settingsId: number;
  /** The target_urls the run was given; null: it crawled the start URLs. */
  targetUrls: string[] | null;
}

/** One page a run fetched (or tried to). */
export interface SpiderPage {
  url: string;
  depth: number;
  /** HTTP status; 0 when there was no response. */
  status: number;
  bytes: number;
  contentType: string;
  title: string;
  /** The error code of a page that could not be fetched (E_SSRF_DENIED, E_HTTP_TIMEOUT...), else ''. */
  error: string;
}

export interface SpiderRunResult {
  /** `done`: the queue ran dry; `stopped`: a bound ended it (stopReason says which); `failed`: the host broke. */
  status: 'done' | 'stopped' | 'failed';
  stopReason: string;
  pages: SpiderPage[];
}

/**
 * {kick_spider}: the tenant's spider settings and run history. `startRun` records a run as
 * running and answers its new history id (tenant-scoped, increasing); `finishRun` stores its
 * pages and outcome in one transaction.
 */
export interface SpiderAdapter {
  settings(id: number): Promise<SpiderSettings | null>;
  history(id: number): Promise<SpiderHistory | null>;
  startRun(run: { settingsId: number; targetUrls: string[] | null; rerunOf: number | null }): Promise<number>;
  finishRun(historyId: number, result: SpiderRunResult): Promise<void>;
}
