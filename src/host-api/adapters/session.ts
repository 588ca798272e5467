/**
 * Sessions of a tenant's members, as the session plugins use them ({login}, {logout},
 * {assign_api_credential} with member_id). A session is found by the request's session cookie;
 * the adapter keeps the sessions and that cookie, the plugins keep the rules (who may be logged
 * in, overwrite, never a super user). Every call is for the adapter's tenant, the render identity's.
 */
export interface SessionAdapter {
  /**
   * The member of the current session of the request `requestId`: the one its session cookie
   * names, or the one {login} started in this request since. Null without a session, or for one
   * that expired, ended, or belongs to another tenant.
   */
  current(requestId: string): Promise<number | null>;
  /**
   * Starts a session of `memberId` for the request: stored, and its cookie set on the response
   * (the next requests of the browser are that member's). A current session of the request ends.
   * The member is checked by the plugin (exists, not a super user).
   */
  start(requestId: string, memberId: number): Promise<void>;
  /** Ends the request's current session, if any: removed from the store, its cookie cleared. */
  end(requestId: string): Promise<void>;
  /**
   * A session of `memberId` that no request holds ({assign_api_credential}): its id, which a
   * client sends as the session cookie, and an access token for the X-RCMS-API-ACCESS-TOKEN
   * header; both end at `expiresAt` (Unix seconds), `expiresSeconds` from now.
   */
  issue(
    memberId: number,
    expiresSeconds: number,
  ): Promise<{ sessionId: string; accessToken: string; expiresAt: number }>;
}
