/**
 * Resets an admin's password from the machine the desk runs on:
 *
 *   npm run admin:reset -- --email admin@admin.com [--password 'new password']
 *   node apps/server/dist/admin-reset.js --email … (in the Docker image: docker compose exec app node apps/server/dist/admin-reset.js --email …)
 *
 * Without --password a new one is generated and printed. It uses the server's own settings (DATABASE_URL, DATA_DIR).
 * On the embedded database stop the server first: the embedded database has one user at a time.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from './config.js';
import { embeddedDataDir, openDatabase } from './db/client.js';
import { resetAdminPassword } from './ops/admin-reset.js';

const USAGE = 'usage: npm run admin:reset -- --email <admin e-mail> [--password <new password>]';

/** Whether a server answers on this machine at the configured port (it would hold the embedded database). */
async function serverRunning(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<number> {
  let values: { email?: string; password?: string };
  try {
    ({ values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' } } }));
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (!values.email) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  if (!config.databaseUrl && !existsSync(embeddedDataDir(config.dataDir))) {
    console.error(`There is no desk database under ${config.dataDir} (DATA_DIR): run this where npm start runs, with the same DATA_DIR or DATABASE_URL.`);
    return 1;
  }
  if (!config.databaseUrl && (await serverRunning(config.port))) {
    console.error(`The desk is running on port ${config.port}: stop it first (Ctrl+C), then run this again; the embedded database has one user at a time.`);
    return 1;
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: embeddedDataDir(config.dataDir), sharedBuffers: config.pgliteSharedBuffers });
  try {
    const reset = await resetAdminPassword(database.db, values.email, values.password);
    console.log(
      reset.generated
        ? `Password of ${reset.email} reset.\n  new password: ${reset.password}\nChange it after signing in. Every sign-in of this admin has ended.`
        : `Password of ${reset.email} set. Every sign-in of this admin has ended.`,
    );
    return 0;
  } catch (err) {
    console.error((err as Error).message);
    return 1;
  } finally {
    await database.close();
  }
}

process.exitCode = await main();
