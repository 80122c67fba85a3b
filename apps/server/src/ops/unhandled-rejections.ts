/**
 * What the process does with a promise rejection nobody handled (decision 0027): it logs it with its stack and keeps
 * serving. Node's default ends the process, and one forgotten `await` in a library (pg-boss 10's worker, issue 31)
 * then took the whole desk down with a database blip, and it stayed down. What such a rejection leaves behind is one
 * failed operation, not a broken process: the database and channel state is recovered by the code that owns it, and
 * `/api/health` and `/api/ready` keep telling the truth about the database. Uncaught exceptions (a throw outside any
 * promise) still end the process: its state may be half-changed, and a supervisor restarts it.
 */
export interface RejectionLog {
  error(obj: object, msg?: string): void;
}

let count = 0;
let installed = false;
let log: RejectionLog = { error: (obj, msg) => console.error(msg, obj) };

/** Rejections kept past since the process started (`wadesk_unhandled_rejections_total`). */
export function unhandledRejections(): number {
  return count;
}

/** Called with each rejection nobody handled: logs it. */
export function onUnhandledRejection(reason: unknown): void {
  count += 1;
  log.error(
    { err: reason instanceof Error ? reason : new Error(`non-error rejection: ${String(reason)}`) },
    'unhandled promise rejection: logged, and the process keeps serving (decision 0027)',
  );
}

/** Installs the handler once per process; later calls only change the log it writes to (the app's, once built). */
export function keepServingOnUnhandledRejections(to?: RejectionLog): void {
  if (to) log = to;
  if (installed) return;
  installed = true;
  process.on('unhandledRejection', onUnhandledRejection);
}
