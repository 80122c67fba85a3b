import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

/**
 * The width of an element, followed as it changes (the chat narrows when the contact panel opens): a ref to put
 * on the element and its width in px (0 until it is laid out). Measured before the first paint, so what depends
 * on it does not flicker.
 */
export function useElementWidth<T extends HTMLElement>(): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    setWidth(el.getBoundingClientRect().width);
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(entry.contentRect.width);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}
