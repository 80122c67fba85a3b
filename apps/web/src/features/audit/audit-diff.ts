/** One changed field of an entry: its path (`queues.0.name`), before and after (undefined: absent). */
export interface FieldChange {
  path: string;
  before: unknown;
  after: unknown;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The fields that differ between an entry's before and after, flattened to paths, in a stable order: what a row of
 * the audit page expands to. A created target lists its fields with no before; a deleted one with no after. Fields
 * that only record when the row was written (updatedAt) are left out unless nothing else changed.
 */
export function fieldChanges(before: unknown, after: unknown, prefix = ''): FieldChange[] {
  if (isPlainObject(before) || isPlainObject(after)) {
    const b = isPlainObject(before) ? before : {};
    const a = isPlainObject(after) ? after : {};
    const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
    const changes = keys.flatMap((key) => fieldChanges(b[key], a[key], prefix ? `${prefix}.${key}` : key));
    // Objects on one side only: a non-object on the other side is a change of the whole value.
    if (!isPlainObject(before) && before !== undefined && before !== null) changes.unshift({ path: prefix || '·', before, after: undefined });
    if (!isPlainObject(after) && after !== undefined && after !== null) changes.push({ path: prefix || '·', before: undefined, after });
    const meaningful = changes.filter((c) => !/(^|\.)updatedAt$/.test(c.path));
    return meaningful.length > 0 ? meaningful : changes;
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  return [{ path: prefix || '·', before, after }];
}

/** A value of a change as a short text: strings as they are, the rest as JSON; '—' for none. */
export function valueText(value: unknown): string {
  if (value === undefined || value === null || value === '') return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}
