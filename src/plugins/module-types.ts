/** The kinds of item comments, favorites and tag relations are about, as the platform names them. */
export const MODULE_TYPES = ['topics', 'comment', 'member', 'tag', 'csvtable', 'ec_product'] as const;
