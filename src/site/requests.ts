/**
 * The requests of a site in flight, by RenderIdentity.requestId: each one's cookie jar (what the
 * browser sent, as {cookie}, {login} and {logout} changed it since, and the Set-Cookie lines of
 * its response) and, for requests the site made itself ({api_internal}), which endpoints it is
 * already serving and how deep it nests.
 *
 * Who serves a request (`smartcage serve`, `smartcage render`) begins it with the cookies it came
 * with and ends it when the response is out. A request id never begun (a render an embedder
 * started with a request id of its own) gets an empty jar on first use; at most IMPLICIT_KEPT of
 * those are kept, oldest dropped first, since nobody ends them.
 */

export interface OutgoingCookie {
  value: string;
  /** Seconds; null: a session cookie; 0: clears the cookie. */
  maxAge: number | null;
  /** Hidden from the page's scripts (the session cookie). */
  httpOnly: boolean;
}

/** A jar: the cookies as the request now sees them (decoded values) and those its response sets. */
export interface CookieJar {
  readonly cookies: Map<string, string>;
  readonly outgoing: Map<string, OutgoingCookie>;
}

export interface RequestState {
  readonly jar: CookieJar;
  /** Endpoints (`<api_id>/<path>`) this request and the ones it was made from serve. */
  readonly serving: readonly string[];
  /** 0 for a request from outside; one more per internal request. */
  readonly depth: number;
}

export const IMPLICIT_KEPT = 256;

export function newJar(cookies: Iterable<[string, string]> = []): CookieJar {
  return { cookies: new Map(cookies), outgoing: new Map() };
}

export class SiteRequests {
  private readonly begun = new Map<string, RequestState>();
  private readonly implicit = new Map<string, RequestState>();

  begin(requestId: string, state: Partial<RequestState> = {}): RequestState {
    if (this.begun.has(requestId)) throw new Error(`request ${requestId} has begun already`);
    const s: RequestState = { jar: state.jar ?? newJar(), serving: state.serving ?? [], depth: state.depth ?? 0 };
    this.begun.set(requestId, s);
    return s;
  }

  /** The request's state; for an id never begun, an implicit one (a request from outside, no cookies). */
  get(requestId: string): RequestState {
    const s = this.begun.get(requestId) ?? this.implicit.get(requestId);
    if (s) return s;
    const made: RequestState = { jar: newJar(), serving: [], depth: 0 };
    this.implicit.set(requestId, made);
    if (this.implicit.size > IMPLICIT_KEPT) this.implicit.delete(this.implicit.keys().next().value!);
    return made;
  }

  /** Ends a request: its state goes; returned for its Set-Cookie lines. */
  end(requestId: string): RequestState | undefined {
    const s = this.begun.get(requestId) ?? this.implicit.get(requestId);
    this.begun.delete(requestId);
    this.implicit.delete(requestId);
    return s;
  }

  /** Requests begun and not ended yet (tests check that none is left behind). */
  get open(): number {
    return this.begun.size;
  }
}
