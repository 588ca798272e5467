/**
 * The caps of {zip}, {unzip} and {gzip} (docs/limits.md, "Archives"). Each is checked before the
 * work it bounds, on what the archive declares and again on what it really holds, so host memory
 * is bounded by these numbers and never by an archive: at most one compressed input and one
 * uncompressed entry are held at a time.
 */

/** Compressed bytes one call reads: the zip {unzip} opens, all sources of one {zip}, the source of {gzip}. */
export const MAX_ARCHIVE_INPUT_BYTES = 64 * 1024 * 1024;

/** Entries of an archive {unzip} opens (declared count and entries read), and `entries` of one {zip}. */
export const MAX_ARCHIVE_ENTRIES = 10_000;

/** Uncompressed bytes of one entry, declared and inflated (inflating stops at the cap). */
export const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

/** Uncompressed bytes of all entries of one {unzip}, declared and inflated. */
export const MAX_UNZIP_TOTAL_BYTES = 256 * 1024 * 1024;

/** Uncompressed to compressed size of one entry, checked for entries above MAX_RATIO_EXEMPT_BYTES. */
export const MAX_COMPRESSION_RATIO = 200;

/** Entries of at most this size are never refused for their ratio (a short run of one byte compresses 1000:1). */
export const MAX_RATIO_EXEMPT_BYTES = 1024 * 1024;

/** Bytes of an entry's stored name, checked before it is decoded. */
export const MAX_ENTRY_NAME_BYTES = 1024;
