/**
 * The package entry `smartcage`: the engine. The security harness is `smartcage/security`
 * (src/security/entry.ts) and the JSON-schema forms `smartcage/forms` (src/forms/entry.ts), so
 * nothing here loads ajv, DOM code or the harness's fake hosts (test/package checks it).
 */
// First: on a Node older than 24, one line saying so, before isolated-vm loads (node-version.ts).
import './node-version.js';
export { compile, ENGINE_VERSION } from './compiler/index.js';
export type { CompileOptions, CompileResult, Manifest } from './compiler/index.js';
export { createEngine } from './engine.js';
export type {
  Engine,
  EngineOptions,
  EngineStats,
  RenderOptions,
  RenderResult,
  SourceLookup,
  TenantSettings,
} from './engine.js';
// diagnostics_channel events for observers (docs/observability.md): the names to subscribe to and their payloads.
export { RENDER_CHANNEL, HOST_CALL_CHANNEL, TEMPLATE_LOG_CHANNEL } from './diagnostics.js';
export type { RenderEvent, HostCallEvent, TemplateLogEvent } from './diagnostics.js';
export { TemplateError, formatDiagnostic } from './errors.js';
export { ROW_BUDGETS } from './host-api/row-budgets.js';
export type { RowBudget, StoreCap, AtCap } from './host-api/row-budgets.js';
export type { Diagnostic } from './errors.js';
export type {
  HostAdapters,
  HostOption,
  HostResolver,
  RenderIdentity,
  SecretRecord,
  SessionAdapter,
  InternalApiRequest,
  ApiTokenRequest,
  MailAdapter,
  MailAsker,
  OutgoingMail,
} from './host-api/host.js';
export type {
  ChildSite,
  ChildSitesAdapter,
  ContentAdapter,
  ContentReads,
  ContentReadsNow,
  CounterTarget,
  CounterWrite,
  CsvTable,
  ExtColumn,
  ExtColumnType,
  ExtValue,
  MastersAdapter,
  OpenFilter,
  OpenPage,
  Topic,
  TopicState,
  TopicText,
  TopicsCategory,
  TopicsGroup,
} from './host-api/adapters/content.js';
export type { HostErrorReport } from './bridge/bridge.js';
// Reads written once, answered now (an adapter's now face, the synchronous slice) or later (D268).
export { laterFace, notNow, nowFace, runLater, runNow, wait, waitAll } from './host-api/now-or-later.js';
export type { NowOrLater, Steps } from './host-api/now-or-later.js';
export { verifyCredentialJwt } from './host-plugins/session/assign_api_credential.js';
export type {
  MembersAdapter,
  MemberRecord,
  MemberGroupRecord,
  MemberCustomSearchRecord,
} from './host-api/adapters/members.js';
export type { TagsAdapter, TagsReads, TagsReadsNow, TagRecord, TagCategoryRecord } from './host-api/adapters/tags.js';
export type { BatchesAdapter, BatchStart } from './host-api/adapters/batches.js';
export type {
  BrowserAdapter,
  CaptureJob,
  CaptureFormat,
  OcrAdapter,
  OcrRequest,
  DocumentTextsAdapter,
  DocumentTextKey,
} from './host-api/adapters/documents.js';
export { ChromiumBrowser } from './host-adapters/documents/chromium.js';
export type { ChromiumOptions } from './host-adapters/documents/chromium.js';
export { TesseractOcr } from './host-adapters/documents/tesseract.js';
export type { TesseractOptions } from './host-adapters/documents/tesseract.js';
export { VisionOcr } from './host-adapters/documents/vision.js';
export type { VisionOptions } from './host-adapters/documents/vision.js';
export type {
  CdnAdapter,
  ConfiguredEndpoint,
  DeployAdapter,
  SpiderAdapter,
  SpiderHistory,
  SpiderPage,
  SpiderRunResult,
  SpiderSettings,
} from './host-api/adapters/webops.js';
export type {
  SiteSyncAdapter,
  SiteSyncRun,
  SiteSyncResult,
  HostSite,
  SyncType,
} from './host-api/adapters/site-sync.js';
export type { BackupsAdapter, BackupRecord, BackupBounds } from './host-api/adapters/backups.js';
export { checkBackupBounds } from './host-api/adapters/backups.js';
export type {
  AnalyticsSettings,
  ChatSettings,
  CloudSettings,
  IntegrationAdapter,
  SocialSettings,
} from './host-api/adapters/integrations.js';
export type { CommentsAdapter, CommentRecord, FavoritesAdapter, FavoriteQuery } from './host-api/adapters/community.js';
export { DEFAULT_LIMITS } from './sandbox/limits.js';
export { SITE_DEFAULTS } from './site-defaults.js';
export type { SandboxLimits } from './sandbox/limits.js';
export { EgressGuard } from './host-adapters/egress/guard.js';
export { TenantFiles } from './host-adapters/files/tenant-files.js';
export { S3Files } from './host-adapters/files/s3/s3-files.js';
export type { S3FilesOptions, AppendMode } from './host-adapters/files/s3/s3-files.js';
export type {
  SharedLocks,
  SharedUsage,
  LockRefusal,
  ReserveResult,
} from './host-adapters/files/shared-coordination.js';
export type { Usage, QuotaLimits } from './host-adapters/files/quota.js';
export { KNOWN_ROOTS, parseVirtualPath } from './host-adapters/files/virtual-path.js';
export type { FileStore, FileStat, ListEntry, ListOptions } from './host-adapters/files/file-store.js';
export type { VirtualPath } from './host-adapters/files/virtual-path.js';
export type { HmacStorageUrls, PresignedStorageUrls } from './host-api/host.js';
export type { EgressRequest, EgressResponse } from './host-adapters/egress/guard.js';
export {
  smtpMailAdapter,
  smtpSender,
  SmtpConfigError,
  SmtpPartialError,
  SendWindow,
} from './host-adapters/mail/index.js';
export type {
  SmtpOptions,
  SmtpMailAdapterOptions,
  SmtpSender,
  SmtpDelivery,
  SmtpMail,
  MailExtras,
} from './host-adapters/mail/index.js';
// An embedder's own plugins (docs/plugins-for-embedders.md): the definition, the error with one
// of our codes a plugin throws, the values it takes and answers, and its examples as tests.
export { definePlugin, runPluginExamples } from './engine-plugins.js';
export type { ExampleRun } from './engine-plugins.js';
export { PluginAnswerError } from './bridge/embedder-plugins.js';
export type {
  PluginDefinition,
  TagDefinition,
  ModifierDefinition,
  TagResult,
  PluginCall,
  PluginExample,
} from './bridge/embedder-plugins.js';
export type { RenderClock } from './host-plugins/plugin-contract.js';
export type { AttrSpec, AttrType, ModifierParam } from './plugins/types.js';
export { BridgeError } from './host-api/errors.js';
export { currentRenderSignal } from './host-api/render-signal.js';
export type { ErrorCode } from './protocol/error-codes.js';
export { PhpArray, PhpFloat, PhpObject, fromJS, toJS } from './value/value.js';
// A render's output is text whose raw bytes (invalid UTF-8 a template made) stand as U+DC80..U+DCFF: these bytes.
export { toBytes } from './value/bytes.js';
export type { Value, Key } from './value/value.js';
