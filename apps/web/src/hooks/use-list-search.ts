import { useState } from 'react';
import { useDebouncedValue } from './use-debounced-value';

/** Search text as the server takes it: trimmed and lowercased; none while shorter than `minLength`. */
export function normalizeSearch(text: string, minLength = 0): string {
  const s = text.trim().toLowerCase();
  return s.length >= minLength ? s : '';
}

/**
 * A list page's search box: `value` and `onChange` for the field, and `param`, what to ask the server for once the
 * typing has stopped for 500 ms (§9), normalized (§5: contacts and users search from 3 characters on).
 */
export function useListSearch(minLength = 0) {
  const [value, onChange] = useState('');
  const param = normalizeSearch(useDebouncedValue(value, 500), minLength);
  return { value, onChange, param };
}
