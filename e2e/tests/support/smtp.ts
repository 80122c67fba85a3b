import type { AddressInfo } from 'node:net';
import { test } from '@playwright/test';
import type { SMTPServer } from 'smtp-server';

/** Runs an SMTP server on loopback for the spec's tests; the port it listens on, once they start. */
export function serveSmtp(smtp: SMTPServer): { port: () => number } {
  let port = 0;
  test.beforeAll(async () => {
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });
  test.afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(resolve));
  });
  return { port: () => port };
}
