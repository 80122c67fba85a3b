import { pathToFileURL } from 'node:url';

/**
 * Runs `main` when the module at `moduleUrl` is the script node was started with (`npx tsx bench/live.ts`), not when
 * `npm run bench` imports it; an error ends the process with code 1.
 */
export function runWhenMain(moduleUrl: string, main: () => Promise<void>): void {
  if (moduleUrl !== pathToFileURL(process.argv[1] ?? '').href) return;
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}

/** Prints each missed target and makes the run's exit code say that one was missed (issue 35 item 4). */
export function failOnMissed(missed: readonly string[]): void {
  for (const line of missed) console.error(`missed: ${line}`);
  if (missed.length > 0) process.exitCode = 1;
}
