/**
 * A request's URL with repeated slashes in its path collapsed (`//api//x?q` → `/api/x?q`), the query as it was.
 * Used as Fastify's `rewriteUrl`, so the router, the static files and the not-found answer all read one spelling
 * (the static files would otherwise refuse `//api/x` with 403 instead of letting it reach the JSON 404).
 */
export function collapseSlashes(url: string): string {
  const queryAt = url.search(/[?#]/);
  const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
  if (!pathname.includes('//')) return url;
  return pathname.replace(/\/{2,}/g, '/') + (queryAt === -1 ? '' : url.slice(queryAt));
}

/**
 * The path of a request's URL as the router matches it: without the query, percent-escapes decoded, repeated
 * slashes collapsed. `/%61pi/x` and `//api/x` reach the same routes as `/api/x`, so whatever judges a request by
 * its path (the not-found answer) must read this, never the raw URL.
 */
export function routerPath(url: string): string {
  const raw = url.split(/[?#]/, 1)[0] ?? '';
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // A malformed escape never reaches a route (400 before routing); judge the spelling as it is.
    decoded = raw;
  }
  return collapseSlashes(decoded);
}
