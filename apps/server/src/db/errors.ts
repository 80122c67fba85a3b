function pgCode(err: unknown): string | undefined {
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return e?.code ?? e?.cause?.code;
}

/** A unique constraint refused the write (23505). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  if (pgCode(err) !== '23505') return false;
  if (!constraint) return true;
  const e = err as { constraint?: string; cause?: { constraint?: string }; message?: string };
  const name = e.constraint ?? e.cause?.constraint ?? '';
  return name === constraint || (e.message ?? '').includes(constraint);
}

/** A foreign key refused the write (23503). */
export function isForeignKeyViolation(err: unknown): boolean {
  return pgCode(err) === '23503';
}
