/**
 * Comments and favorites (HostAdapters.comments, HostAdapters.favorites): what members (and
 * visitors) said about and marked on an item of the site. Items are named as the platform names
 * them: a module type (`topics`, `comment`, `member`, `tag`, `csvtable`, `ec_product`) and the
 * item's id. The adapters answer data for their own tenant only; whose favorites a
 * render may count is the plugins' rule (src/host-plugins/community/).
 */

export interface CommentRecord {
  commentId: number;
  moduleType: string;
  moduleId: number;
  /** The member who wrote it; null for a visitor. */
  memberId: number | null;
  /** The name shown with the comment. */
  name: string;
  /** The comment's text. */
  note: string;
  /** 'YYYY-MM-DD HH:MM:SS' in the site's time zone. */
  created: string;
}

export interface CommentsAdapter {
  /**
   * The newest open comments (a closed one is never answered) on the item, or on every item of
   * the module type when `moduleId` is null: newest first (then the higher id first), at most `limit`.
   */
  newest(query: { moduleType: string; moduleId: number | null; limit: number }): Promise<CommentRecord[]>;
}

export interface FavoriteQuery {
  moduleType: string;
  /** One item; null: every item of the module type. */
  moduleId: number | null;
  /** The kind of mark (0: like). */
  actionType: number;
  /** Only marks made at or after this Unix time; null: all. */
  since: number | null;
  /** Whose marks: one member's, those kept under one cookie id (visitors), or everybody's when absent. */
  by?: { memberId: number } | { cookieId: string };
}

export interface FavoritesAdapter {
  /** How many marks match. */
  count(query: FavoriteQuery): Promise<number>;
  /** How many marks each item has: [moduleId, count] pairs, the most marked first (then the lower id), at most `limit`. */
  countPerItem?(query: FavoriteQuery, limit: number): Promise<[number, number][]>;
}
