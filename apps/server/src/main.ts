import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { limitHeapGrowth } from './ops/heap-growth.js';
import { keepServingOnUnhandledRejections } from './ops/unhandled-rejections.js';

async function main(): Promise<void> {
  limitHeapGrowth();
  keepServingOnUnhandledRejections();
  const config = loadConfig();
  const app = await buildApp(config);
  keepServingOnUnhandledRejections(app.http.log);
  await app.http.listen({ port: config.port, host: config.host });
  app.http.log.info(
    `serving on http://localhost:${config.port} (${app.database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'})`,
  );
  let stopping = false;
  // Graceful: stop taking work, let what is in flight finish (SHUTDOWN_TIMEOUT_MS), hand the connections back,
  // exit 0. A second signal, or a close that hangs well past the timeout, ends the process at once (exit 1).
  const stop = (signal: string) => {
    if (stopping) {
      app.http.log.warn(`${signal} again: exiting without waiting`);
      process.exit(1);
    }
    stopping = true;
    app.http.log.info({ timeoutMs: config.shutdownTimeoutMs }, `${signal}: shutting down`);
    const hardStop = setTimeout(() => {
      app.http.log.error('shutdown took too long: exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs + 10_000);
    hardStop.unref();
    app.close({ timeoutMs: config.shutdownTimeoutMs }).then(
      () => {
        app.http.log.info('shut down');
        process.exit(0);
      },
      (err: unknown) => {
        app.http.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
