import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/** `search` with %, _ and \ escaped, to stand literally in a LIKE pattern. */
function escapeLike(search: string): string {
  return search.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A LIKE pattern matching text that contains `search`, with %, _ and \ taken literally. */
export function containsPattern(search: string): string {
  return `%${escapeLike(search)}%`;
}

/** A LIKE pattern matching text that starts with `search`, with %, _ and \ taken literally. */
export function startsWithPattern(search: string): string {
  return `${escapeLike(search)}%`;
}

/**
 * `column` contains `search` ignoring case and accents ('joao' finds João): the same expression as the
 * trigram indexes, `f_unaccent(lower(column))`, so they serve it; the pattern is folded once, at planning.
 */
export function foldedContains(column: SQLWrapper, search: string): SQL {
  return sql`f_unaccent(lower(${column})) like ${foldedPattern(search)}`;
}

/** The LIKE pattern of `search`, folded like f_unaccent(lower(...)), for a column that is already folded (contacts.name_folded). */
export function foldedPattern(search: string): SQL {
  return sql`f_unaccent(lower(${containsPattern(search)}))`;
}
