import { useState } from 'react';

/**
 * False until `open` is first true, then true for good: a dialog or menu is mounted the first time it opens (not
 * with the screen, where its hooks and queries would run for nothing), and stays mounted so it can animate closing.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}
