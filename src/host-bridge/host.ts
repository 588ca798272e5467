/**
 * What an embedder implements: the host adapters privileged plugins use, and the identity of
 * each render. Identity, tenant and policy come from here, never from template attributes.
 */
import type { EgressRequest, EgressResponse } from './egress/guard.js';
import type { TenantFiles } from './files/tenant-files.js';

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
  /** Hosts this secret may be sent to (api headers, mTLS); empty or absent: nowhere over HTTP. */
  hosts?: readonly string[];
}

export interface InternalApiRequest {
  endpoint: string;
  method: 'GET' | 'POST';
  query: string;
  headers: [string, string][];
  /** Member to act as: null for the caller's own identity. */
  actAs: number | null;
  direct: boolean;
  useCurrentSession: boolean;
}

export interface OutgoingMail {
  to: string[];
  cc: string[];
  bcc: string[];
  from: string;
  fromName: string;
  subject: string;
  body: string;
}

export interface HostAdapters {
  secrets?: { get(tenant: string, name: string): Promise<SecretRecord | null> };
  members?: {
    isSuperUser(tenant: string, memberId: number): Promise<boolean>;
  };
  internalApi?: {
    /** The method the endpoint is defined with (direct= is only allowed for GET). */
    endpointMethod(tenant: string, endpoint: string): Promise<'GET' | 'POST' | null>;
    request(tenant: string, req: InternalApiRequest): Promise<{ status: number; body: string }>;
  };
  http?: { fetch(req: EgressRequest): Promise<EgressResponse> };
  /** The tenant's file storage (virtual roots under one real folder per tenant). */
  files?: (tenant: string) => TenantFiles;
  mail?: {
    /** Domains the tenant may send from. */
    verifiedDomains(tenant: string): Promise<readonly string[]>;
    send(tenant: string, mail: OutgoingMail): Promise<void>;
  };
  crypto?: {
    /** The site key rcms_encrypt derives its keys from; it never enters the isolate. */
    siteKey(tenant: string): Promise<Uint8Array>;
  };
}
