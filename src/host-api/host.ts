/**
 * What an embedder implements: the host adapters privileged plugins use, and the identity of
 * each render. Identity, tenant and policy come from here, never from template attributes.
 */
import type { EgressRequest, EgressResponse } from '../host-adapters/egress/guard.js';
import type { FileStore } from '../host-adapters/files/file-store.js';
import type { VirtualPath } from '../host-adapters/files/virtual-path.js';
import type { ChildSitesAdapter, ContentAdapter, MastersAdapter } from './adapters/content.js';
import type { SessionAdapter } from './adapters/session.js';
import type { BatchesAdapter } from './adapters/batches.js';
import type { BrowserAdapter, DocumentTextsAdapter, OcrAdapter } from './adapters/documents.js';
import type { CdnAdapter, DeployAdapter, SpiderAdapter } from './adapters/webops.js';
import type { SiteSyncAdapter } from './adapters/site-sync.js';
import type { BackupsAdapter } from './adapters/backups.js';
import type {
  AnalyticsSettings,
  ChatSettings,
  CloudSettings,
  IntegrationAdapter,
  SocialSettings,
} from './adapters/integrations.js';

export type { SessionAdapter };
import type { MembersAdapter } from './adapters/members.js';
import type { TagsAdapter } from './adapters/tags.js';
import type { CommentsAdapter, FavoritesAdapter } from './adapters/community.js';

/** Who a render runs for. Set by the embedder per render; templates cannot change it. */
export interface RenderIdentity {
  tenant: string;
  /** The logged-in member of the request, if any. */
  memberId: number | null;
  /** Whether that member is a super user (may pass member_id from a variable). */
  superUser: boolean;
  /** Where the template runs: some plugins are limited to batches or the admin test screen. */
  context: 'web' | 'batch' | 'admin-test';
  /** Identifies the request, for {assign_globals} (shared by the custom processes of one request). */
  requestId: string;
}

export interface SecretRecord {
  value: string;
  /**
   * Origins this secret may be sent to (api headers and body, mTLS): `api.example.com` or
   * `https://api.example.com` for https only, `http://api.example.com` to allow plain http too.
   * Empty or absent: nowhere over HTTP.
   */
  hosts?: readonly string[];
}

export interface InternalApiRequest {
  endpoint: string;
  /**
   * The calling render's request (RenderIdentity.requestId): use_current_session takes over its
   * session, and an adapter that runs the endpoint in this process knows what it is already serving
   * (so that it can refuse a recursion into it) and how deep requests nest.
   */
  requestId: string;
  method: 'GET' | 'POST';
  query: string;
  headers: [string, string][];
  /** Member to act as: null for the caller's own identity. */
  actAs: number | null;
  direct: boolean;
  useCurrentSession: boolean;
  /**
   * Which API (api family): the site's public API ({api_internal}, the default when absent) or
   * its management API ({api_mng}). The adapter scopes both to its tenant.
   */
  kind?: 'api' | 'management';
}

/** What {api_token} asks for (api family). The adapter answers null for an API that is missing, another tenant's, or of another type. */
export interface ApiTokenRequest {
  apiId: number;
  type: 'static' | 'dynamic';
  /** dynamic: the member of the current session (null without one); static: always null. */
  memberId: number | null;
  /** Requested lifetime in seconds (already bounded by the plugin); null: the adapter's default. */
  expiresSeconds: number | null;
  memo: string;
}

/**
 * One mail of {sendmail}, checked by the plugin: canonical addresses (mail/address.ts), `from`
 * in one of the tenant's verified domains, no CR/LF/NUL in any header-bound value, sizes and
 * counts within the caps. Bcc addresses are envelope recipients only, never a header.
 */
export interface OutgoingMail {
  to: string[];
  cc: string[];
  bcc: string[];
  from: string;
  fromName: string;
  subject: string;
  body: string;
  /** sg_custom_args (mail family): provider arguments, at most 5, reserved keys refused; empty when not given. */
  customArgs?: Record<string, string>;
}

/** Who sends a mail with member recipients: the render's identity without the tenant, which the adapter already is. */
export type MailAsker = Omit<RenderIdentity, 'tenant'>;

/**
 * Mail family ({sendmail}). `send` rejects with a BridgeError (src/host-api/errors.ts) for a
 * refusal by the host's policy (E_RATE_LIMIT for the per-tenant window, ...), which ends the
 * render; any other rejection is a failed delivery, which sets var=false (spec "Errors").
 * The optional members are added by the mail family; without them the attributes that need
 * them are E_HOST_CAPABILITY.
 */
export interface MailAdapter {
  /** Domains the tenant may send from (exact domain match, case-insensitive). */
  verifiedDomains(): Promise<readonly string[]>;
  send(mail: OutgoingMail): Promise<void>;
  /** Sender when `from` is not given (must be in a verified domain); absent: noreply@ the first verified domain. */
  defaultSender?(): Promise<{ address: string; name?: string } | null>;
  /**
   * to_member_id / cc_member_id / bcc_member_id: addresses of the tenant's members the render's
   * `asker` (its member, super user or not) may mail; a member that is missing or may not be
   * mailed is absent from the map.
   */
  memberAddresses?(asker: MailAsker, ids: readonly number[]): Promise<ReadonlyMap<number, string>>;
  /**
   * mail_template: renders the tenant's stored message template `name` with the extra
   * attributes of the call as variables (plain data); null when there is no such template.
   */
  renderTemplate?(name: string, vars: Record<string, unknown>): Promise<{ subject: string; body: string } | null>;
}

/** See HostAdapters.geo. */
export interface GeoAdapter {
  countryOf(ip: string): Promise<string | null>;
}

/**
 * The adapters of one tenant's host: what a render's privileged plugins call. No method takes the
 * tenant: an adapter is already the tenant's (the render identity's, never one a template named).
 * An engine takes them as `host` (EngineOptions.host, TenantSettings.host): one object for every
 * render, or a HostResolver that gives each render its tenant's (docs/decisions.md D210).
 */
export interface HostAdapters {
  secrets?: { get(name: string): Promise<SecretRecord | null> };
  /**
   * Members family ({assign_member_detail}, {assign_group_nm}, {refresh_cs}; api_internal's
   * member_id check): the tenant's members, groups with viewing permissions and custom searches.
   * See MembersAdapter: only isSuperUser is required; a plugin that needs an absent method is
   * E_HOST_CAPABILITY. Absent: those plugins are E_HOST_CAPABILITY and member_id is refused.
   */
  members?: MembersAdapter;
  /**
   * Tags family ({assign_tag_category_list}, {assign_tag_list}, {assign_relation_tag_list}): the
   * tenant's tag categories, tags and tag relations (TagsAdapter). Absent: E_HOST_CAPABILITY.
   */
  tags?: TagsAdapter;
  /** {assign_new_comment_list}: the tenant's open comments, newest first (CommentsAdapter). Absent: E_HOST_CAPABILITY. */
  comments?: CommentsAdapter;
  /**
   * {assign_favorite_cnt}, {assign_my_favorite_cnt}: counts of the tenant's favorites
   * (FavoritesAdapter); cookie-managed ones also need `cookies`. Absent: E_HOST_CAPABILITY.
   */
  favorites?: FavoritesAdapter;
  /**
   * Session family ({login}, {logout}, {assign_api_credential}): the sessions of the tenant's
   * members, found by the request's session cookie. See SessionAdapter. Absent: those plugins
   * are E_HOST_CAPABILITY.
   */
  sessions?: SessionAdapter;
  internalApi?: {
    /** The method the endpoint is defined with (direct= is only allowed for GET). */
    endpointMethod(endpoint: string): Promise<'GET' | 'POST' | null>;
    request(req: InternalApiRequest): Promise<{ status: number; body: string }>;
  };
  /**
   * Outbound HTTP ({api}). The default is the EgressGuard. An adapter of the embedder's own must
   * enforce the same rules, among them: a request with `secretHeaders` or `secretBody` never
   * follows a redirect to another origin (it answers the 3xx as the response).
   */
  http?: { fetch(req: EgressRequest): Promise<EgressResponse> };
  /**
   * Api family ({api_token}): issues tokens of the tenant's own APIs. Absent: {api_token} is
   * E_HOST_CAPABILITY.
   */
  apiTokens?: {
    issue(req: ApiTokenRequest): Promise<{ token: string; expiresAt: number } | null>;
  };
  /**
   * Api family ({cookie}): the cookie jar of the current request (tenant + requestId). `get`
   * returns the raw value the browser sent, or what this request set since; `set` adds a
   * Set-Cookie to the response (expiresDays null: a session cookie). The plugin owns the value's
   * grammar and caps (one JSON cookie rcms_api_local); the adapter only stores and encodes it.
   * Absent: {cookie} is E_HOST_CAPABILITY.
   */
  cookies?: {
    get(requestId: string, name: string): Promise<string | null>;
    set(requestId: string, name: string, value: string, expiresDays: number | null): Promise<void>;
  };
  /**
   * Files plugins: the tenant's storage (the render identity's, never one a template named).
   * TenantFiles (src/host-adapters/files/tenant-files.ts) is the one over a local folder; another
   * storage implements FileStore, whose comment says what it is given (virtual paths, already
   * canonical and checked against the plugin's root rule) and what it must guarantee: the tenant's
   * files only, never a root written or removed, every quota and size cap enforced by the store
   * itself (the plugins enforce none), FileError codes and messages naming virtual paths only.
   * Absent: the files plugins are E_HOST_CAPABILITY.
   */
  files?: FileStore;
  /**
   * Files plugins (storage_url): how the tenant's signed read links are made, one of two ways.
   * HMAC links to the embedder's own file server (`baseUrl` + `signingKey`; the key never enters
   * the isolate; see src/host-plugins/files/storage-url.ts for the URL shape and
   * `verifyStorageUrl` for the serving side), or links the storage itself signs (`presign`: an
   * S3 presigned GET URL, S3Files.presignGet). The plugin checks the path, the expiry and that the
   * file exists before asking. Absent: {storage_url} is E_HOST_CAPABILITY.
   */
  storageUrls?: HmacStorageUrls | PresignedStorageUrls;
  /** Mail family ({sendmail}): see MailAdapter. */
  mail?: MailAdapter;
  /**
   * The getCountryFromIP modifier: the country of a public IP address (ISO 3166-1 alpha-2), or
   * null when unknown. It is only asked about valid global addresses (the modifier answers ''
   * itself for invalid, private, loopback and reserved ones), IPv4-mapped IPv6 given as IPv4.
   * src/host-adapters/geo/ip-ranges.ts implements it over a free IP-ranges CSV. Absent: the
   * modifier is E_HOST_CAPABILITY.
   */
  geo?: GeoAdapter;
  crypto?: {
    /** The site key rcms_encrypt derives its keys from; it never enters the isolate. */
    siteKey(): Promise<Uint8Array>;
  };
  /**
   * Content family (assign_topics_detail, assign_topics_category_list, the counters, api_method):
   * content groups, contents, extended columns, categories and counters of the tenant; see
   * ContentAdapter (src/host-api/adapters/content.ts). Absent: those plugins are E_HOST_CAPABILITY.
   */
  content?: ContentAdapter;
  /** Content family (assign_csv_table): the tenant's master CSV tables per language. Absent: E_HOST_CAPABILITY. */
  masters?: MastersAdapter;
  /** Content family (child_site): the child sites of the tenant, and only those. Absent: E_HOST_CAPABILITY. */
  childSites?: ChildSitesAdapter;
  /**
   * Batches ({batch}; the callback_batch of gzip, zip, unzip and generate_pdf): queues runs of the
   * tenant's batches; see BatchesAdapter (src/host-api/adapters/batches.ts). Absent: {batch} is
   * E_HOST_CAPABILITY, and so is a callback_batch attribute.
   */
  batches?: BatchesAdapter;
  /**
   * Documents family ({generate_pdf}): a headless browser that captures one page as PDF or image
   * for the tenant, every request of the page answered through the fetch it is handed (the egress
   * guard); see BrowserAdapter (src/host-api/adapters/documents.ts) and ChromiumBrowser.
   * The engine closes it when it closes. Absent: {generate_pdf} is E_HOST_CAPABILITY.
   */
  browser?: BrowserAdapter;
  /**
   * Documents family ({detect_document_text}): reads the text of a PDF or TIFF per page; see
   * OcrAdapter. TesseractOcr runs Debian's tesseract and pdftoppm, VisionOcr calls a
   * Vision-API-compatible service through the egress guard. Absent: E_HOST_CAPABILITY.
   */
  ocr?: OcrAdapter;
  /**
   * Documents family: where {detect_document_text} keeps the texts it read, per tenant, until the
   * file changes (DocumentTextsAdapter). Absent: nothing is cached.
   */
  documentTexts?: DocumentTextsAdapter;
  /**
   * {purge_cdn_cache}: the tenant's configured purge endpoint (CdnAdapter), used when the template
   * names no api_endpoint. Absent: api_endpoint is required. The request goes through `http`.
   */
  cdn?: CdnAdapter;
  /** {repo_deploy}: the tenant's build hook (DeployAdapter); the POST goes through `http`. Absent: E_HOST_CAPABILITY. */
  deploy?: DeployAdapter;
  /**
   * {kick_spider}: the tenant's spider settings and run history (SpiderAdapter); the crawl goes
   * through `http`. Absent: E_HOST_CAPABILITY.
   */
  spider?: SpiderAdapter;
  /**
   * Site sync ({site_sync}): the sites of the tenant's host and a sync between two of them; see
   * SiteSyncAdapter (src/host-api/adapters/site-sync.ts). Absent: {site_sync} is E_HOST_CAPABILITY.
   */
  siteSync?: SiteSyncAdapter;
  /**
   * Backups ({backup}, {backup_delete}): full backups of the tenant's site, made, listed and
   * deleted for the tenant only; see BackupsAdapter (src/host-api/adapters/backups.ts). Absent:
   * those plugins are E_HOST_CAPABILITY.
   */
  backups?: BackupsAdapter;
  /**
   * Integrations ({chat_get_message}, {chat_post_message}, {chat_team_info}): the tenant's
   * Slack-compatible Web API and the name of its bot-token secret (ChatSettings,
   * src/host-api/adapters/integrations.ts). Absent, or null for the tenant: E_HOST_CAPABILITY.
   */
  chat?: IntegrationAdapter<ChatSettings>;
  /** Integrations ({social_post_message}): the X-API-v2-compatible service and the user-token secret (SocialSettings). Absent or null: E_HOST_CAPABILITY. */
  social?: IntegrationAdapter<SocialSettings>;
  /**
   * Integrations ({cloudfn_token}, {cloudpubsub_publish}): the token endpoint service-account
   * assertions are exchanged at, the publish/subscribe API and the default service-account
   * secret (CloudSettings). Absent or null: E_HOST_CAPABILITY.
   */
  cloud?: IntegrationAdapter<CloudSettings>;
  /**
   * Integrations ({webanalytics}): the GA4-Data-API-compatible service, the property and the
   * service-account secret (AnalyticsSettings). Setting counters also needs content.setCounters.
   * Absent or null: E_HOST_CAPABILITY.
   */
  analytics?: IntegrationAdapter<AnalyticsSettings>;
}

/**
 * The adapters of the render `identity` runs for: called by the bridge once per render, before its
 * first host call (a render that calls no host never asks), and kept for that render only. It
 * answers for `identity.tenant` and no other; it may throw (an unknown tenant), which fails that
 * host call E_HOST_FAILED (EngineOptions.onHostError gets the error) and every later one of the render.
 */
export type HostResolver = (identity: RenderIdentity) => HostAdapters;

/** What EngineOptions.host and TenantSettings.host take: the adapters of every render, or a resolver per render. */
export type HostOption = HostAdapters | HostResolver;

/** storage_url links signed here with HMAC-SHA256, served by the embedder's file server. */
export interface HmacStorageUrls {
  /** Public base URL of the tenant's file host, e.g. `https://files.example.com` (no trailing slash). */
  baseUrl(): string;
  /** HMAC-SHA256 key for the tenant's links (at least 16 bytes). */
  signingKey(): Promise<Uint8Array>;
}

/** storage_url links the storage signs itself (object storage's presigned URLs). */
export interface PresignedStorageUrls {
  /** A URL that reads `path` until `expires` (Unix seconds; at most 7 days ahead, the plugin checked). */
  presign(path: VirtualPath, expires: number): Promise<string>;
}
