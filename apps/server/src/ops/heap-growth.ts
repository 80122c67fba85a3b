import v8 from 'node:v8';

/**
 * How far V8 lets the heap grow past what the last full collection found alive, in percent. V8 chooses up to 4× on
 * its own when memory looks plentiful, and under inbound at 1,000 messages/s the server's heap held twice its live
 * objects in garbage waiting for the next full collection: 249–269 MB of RSS against the 200 MB of issue 11. At 1.5×
 * it stayed at 161–169 MB for 3–15 % more CPU a message (docs/benchmarks.md). It bounds nothing: a large import
 * still gets the heap it needs, through more frequent full collections, never an out-of-memory crash as a cap on
 * the old generation (`--max-old-space-size`) would risk.
 */
export const HEAP_GROWING_PERCENT = 50;

/**
 * Sets V8's heap growing factor (read by V8 at every full collection, so setting it at start-up takes effect) unless
 * the process was started with its own `--heap-growing-percent`. Returns the percent in force, 0 for V8's own choice.
 */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): number {
  const given = execArgv.find((arg) => arg.startsWith('--heap-growing-percent') || arg.startsWith('--heap_growing_percent'));
  if (given) return Number(given.split('=')[1] ?? 0);
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return HEAP_GROWING_PERCENT;
}
