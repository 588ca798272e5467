/**
 * Members family (HostAdapters.members): a tenant's members, their groups with viewing
 * permissions, and the member custom searches. An adapter answers data for its own tenant and
 * nothing else; which member a render may see, and which fields of it, the
 * plugins decide (src/host-plugins/members/, docs/site.md "Members, tags and community").
 */

/** One member as the adapter answers it. It holds no password, hash or token: no plugin needs one. */
export interface MemberRecord {
  memberId: number;
  /** Family name. */
  name1: string;
  /** Given name. */
  name2: string;
  nickname: string;
  email: string;
  loginId: string;
  /** Whether the member's profile is open (the platform's open_flg). */
  open: boolean;
  /** The groups the member belongs to, ascending. */
  groupIds: readonly number[];
  /** 'YYYY-MM-DD HH:MM:SS' in the site's time zone. */
  created: string;
  updated: string;
}

export interface MemberGroupRecord {
  groupId: number;
  /** The group's name per language code (`ja`, `en`); a language without a name is absent. */
  names: Readonly<Record<string, string>>;
  /** Viewing permission: the groups whose members may view the members of this group. */
  viewerGroupIds: readonly number[];
}

/** A saved member filter (MemberCustomSearch). */
export interface MemberCustomSearchRecord {
  id: number;
  name: string;
  /** The conditions as stored: JSON text the plugin reads (docs/site.md, refresh_cs). */
  conditions: string;
}

/**
 * HostAdapters.members. Only isSuperUser is required (api_internal's member_id check); a
 * plugin that needs an absent method is E_HOST_CAPABILITY naming it (`members.member`).
 */
export interface MembersAdapter {
  isSuperUser(memberId: number): Promise<boolean>;
  /**
   * Whether `memberId` is a member of the tenant ({login} and {assign_api_credential} with
   * member_id). Absent: those refuse member_id (E_HOST_CAPABILITY), as they cannot check it.
   */
  exists?(memberId: number): Promise<boolean>;
  /** The tenant's member `memberId`; null when the tenant has no such member. */
  member?(memberId: number): Promise<MemberRecord | null>;
  /** The tenant's groups among `ids`, ascending; an id the tenant does not have is absent. */
  groups?(ids: readonly number[]): Promise<MemberGroupRecord[]>;
  /** Every custom search of the tenant, ids ascending. */
  customSearches?(): Promise<MemberCustomSearchRecord[]>;
  /**
   * Replaces the cached results of the tenant's custom searches for one member: afterwards the
   * member is a result of exactly the searches `ids` (custom searches of this tenant). All of
   * it or nothing: a failure leaves the member's previous results as they were.
   */
  setCustomSearchResults?(memberId: number, ids: readonly number[]): Promise<void>;
}
