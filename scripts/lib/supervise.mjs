import { spawn } from 'node:child_process';

/** Signals passed on to the server. */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];
/** The copies of one signal reach us within this time (the terminal's and npm's): passed on once. */
const SAME_SIGNAL_MS = 1000;

/**
 * Runs the server (`node <entry> ...args`) and ends the way it ends. The server runs in its own process group, so a
 * terminal's Ctrl+C reaches it through this process only: one Ctrl+C arrives here twice (from the terminal and from
 * npm, which forwards it too) and is passed on once, and the server shuts down gracefully; a second Ctrl+C, a moment
 * later, is passed on and ends the server at once (docs/operations.md).
 */
export function superviseServer(entry, args = []) {
  const server = spawn(process.execPath, [entry, ...args], { stdio: 'inherit', detached: true });
  let last = { signal: '', at: 0 };
  const forward = (signal) => {
    const now = Date.now();
    const copy = signal === last.signal && now - last.at < SAME_SIGNAL_MS;
    last = { signal, at: now };
    if (copy || server.exitCode !== null || server.signalCode !== null) return;
    server.kill(signal);
  };
  // If this process goes without a signal (an error), the server does not outlive it.
  const orphaned = () => {
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
  };
  for (const signal of SIGNALS) process.on(signal, forward);
  process.on('exit', orphaned);
  server.on('error', (err) => {
    console.error(err);
    process.exit(1);
  });
  server.on('exit', (code, signal) => {
    for (const s of SIGNALS) process.off(s, forward);
    process.off('exit', orphaned);
    if (signal) process.kill(process.pid, signal); // end the way the server ended
    else process.exit(code ?? 1);
  });
  return server;
}
