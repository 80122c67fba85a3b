/// <reference lib="dom" />
/**
 * Browser benchmark of the attendant screen: a list of 5,000 tickets and a chat of 10,000 messages.
 *
 *   npm run build -w packages/contracts && (cd apps/web && npx vite build --outDir /tmp/web-tickets --emptyOutDir) \
 *     && WEB_DIST=/tmp/web-tickets npx tsx bench/tickets-ui.bench.ts
 *
 * Seeds an in-memory PGlite with SQL, boots the real app on a loopback port with the built web app, opens it in
 * Chromium (Playwright) and measures frames while scrolling programmatically: first the ticket list (paging in
 * all 5,000 rows, 40 per request), then the chat (paging in every older page by scrolling to the top, 20 per
 * request, then scrolling through the whole conversation).
 * Sizes: BENCH_TICKETS (default 5000), BENCH_CHAT_MESSAGES (default 10000); BENCH_SKIP_CHAT=1 measures the list only.
 */
import type { AddressInfo } from 'node:net';
import { chromium, type Page } from '@playwright/test';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { migrateDatabase, openDatabase } from '../apps/server/src/db/client.js';
import { seedConnectionQueuesAndContacts } from './seed-base.js';

const TICKETS = Number(process.env.BENCH_TICKETS ?? 5000);
const CHAT_MESSAGES = Number(process.env.BENCH_CHAT_MESSAGES ?? 10000);
const WEB_DIST = process.env.WEB_DIST ?? '/tmp/web-tickets';

interface FrameStats {
  frames: number;
  seconds: number;
  fps: number;
  avgMs: number;
  p95Ms: number;
  maxMs: number;
  longFrames: number;
}

/** Scrolls an element step by step, one step per animation frame, and times every frame. */
async function scrollFrames(page: Page, selector: string, direction: 'down' | 'up', step: number, maxSteps: number): Promise<FrameStats> {
  return page.evaluate(
    async ({ selector, direction, step, maxSteps }) => {
      const el = document.querySelector(selector) as HTMLElement;
      const times: number[] = [];
      let last = performance.now();
      const start = last;
      for (let i = 0; i < maxSteps; i += 1) {
        el.scrollTop += direction === 'down' ? step : -step;
        await new Promise((r) => requestAnimationFrame(r));
        const now = performance.now();
        times.push(now - last);
        last = now;
        if (direction === 'down' && el.scrollTop + el.clientHeight >= el.scrollHeight - 1) break;
        if (direction === 'up' && el.scrollTop <= 0) break;
      }
      const sorted = [...times].sort((a, b) => a - b);
      const total = (last - start) / 1000;
      return {
        frames: times.length,
        seconds: Math.round(total * 10) / 10,
        fps: Math.round(times.length / total),
        avgMs: Math.round((times.reduce((a, b) => a + b, 0) / times.length) * 10) / 10,
        p95Ms: Math.round(sorted[Math.floor(sorted.length * 0.95)] * 10) / 10,
        maxMs: Math.round(sorted[sorted.length - 1] * 10) / 10,
        longFrames: times.filter((t) => t > 50).length,
      };
    },
    { selector, direction, step, maxSteps },
  );
}

async function main(): Promise<void> {
  const handle = await openDatabase({});
  await migrateDatabase(handle);
  const { db } = handle;
  const seeded = Date.now();
  await seedConnectionQueuesAndContacts(db, TICKETS);
  await db.execute(sql`
    insert into tickets (status, contact_id, whatsapp_id, queue_id, last_message, unread_messages, updated_at)
    select 'open', g, 1, case when g % 3 = 0 then null else 1 + g % 2 end, 'mensagem *' || g || '*', g % 4, now() - (g || ' seconds')::interval
    from generate_series(1, ${TICKETS}) g`);
  await db.execute(sql`
    insert into messages (channel_message_id, whatsapp_id, ticket_id, contact_id, body, from_me, ack, created_at)
    select 'B1-' || m, 1, 1, 1,
           case when m % 7 = 0 then 'Uma mensagem mais longa, com *negrito* e ~riscado~, que ocupa algumas linhas no balão para que as alturas variem ao rolar a conversa. ' || m
                else 'mensagem ' || m end,
           m % 2 = 0, 3, now() - ((${CHAT_MESSAGES} - m) || ' minutes')::interval
    from generate_series(1, ${CHAT_MESSAGES}) m`);
  await db.execute(sql`analyze`);
  console.log(`seeded ${TICKETS} tickets and ${CHAT_MESSAGES} messages in ticket #1 in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);

  const config = loadConfig(
    { ADMIN_EMAIL: 'bench@bench.local', ADMIN_PASSWORD: 'bench-pass', SIMULATOR: 'on', LOG_LEVEL: 'warn' },
    { jwtSecret: 'bench-jwt-secret', refreshSecret: 'bench-refresh-secret', dataDir: '/tmp/wadesk-bench-ui', webDist: WEB_DIST },
  );
  const app = await buildApp(config, { database: handle, logger: false });
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
    await page.addInitScript(() => localStorage.setItem('notificationsAsked', 'true'));
    await page.goto(`${base}/login`);
    await page.getByLabel(/e-?mail/i).fill('bench@bench.local');
    await page.getByLabel(/password/i).first().fill('bench-pass');
    await page.getByRole('button', { name: /enter|sign in|log ?in/i }).click();
    await page.waitForURL('**/tickets**');

    // Ticket list: first page, then page in everything while scrolling.
    const listStart = Date.now();
    await page.locator('[data-testid^="ticket-row-"]').first().waitFor();
    const firstPaint = Date.now() - listStart;
    const list = '[data-testid="tickets-list"]';
    const listLoadStart = Date.now();
    let rounds = 0;
    while ((await page.locator(list).evaluate((el) => el.scrollHeight)) < TICKETS * 84 - 10 && rounds < 400) {
      await page.locator(list).evaluate((el) => {
        el.scrollTop = el.scrollHeight;
      });
      await page.waitForTimeout(60);
      rounds += 1;
    }
    const listLoaded = (Date.now() - listLoadStart) / 1000;
    await page.locator(list).evaluate((el) => {
      el.scrollTop = 0;
    });
    const listRows = await page.locator('[data-testid^="ticket-row-"]').count();
    const listStats = await scrollFrames(page, list, 'down', 120, 5000);
    console.log(`list: first page ${firstPaint} ms; all ${TICKETS} rows paged in ${listLoaded.toFixed(1)} s; DOM rows ${listRows}`);
    console.log('list scroll', listStats);

    if (process.env.BENCH_SKIP_CHAT) return;
    // Chat: open ticket #1, page in every older message by scrolling to the top.
    const chatStart = Date.now();
    await page.goto(`${base}/tickets/1`);
    await page.locator('[data-testid="message"]').first().waitFor();
    const chatFirst = Date.now() - chatStart;
    const chat = '[data-testid="messages-list"]';
    const pagesStart = Date.now();
    let pages = 1;
    const expectedPages = Math.ceil(CHAT_MESSAGES / 20);
    let jumps = 0;
    while (pages < expectedPages) {
      const anchorBefore = await page.evaluate(() => document.querySelector('[data-testid="message"]')?.getAttribute('data-message-id'));
      await page.locator(chat).evaluate((el) => {
        el.scrollTop = 0;
      });
      const response = await page.waitForResponse((r) => r.url().includes('/api/messages/1?pageNumber='), { timeout: 5000 }).catch(() => null);
      if (!response) break;
      await page.waitForTimeout(50);
      // After a page is prepended, the view must still show what it showed (no jump to the new top).
      const top = await page.locator(chat).evaluate((el) => el.scrollTop);
      if (top < 50) jumps += 1;
      pages += 1;
      if (anchorBefore === undefined) break;
    }
    const pagedSeconds = (Date.now() - pagesStart) / 1000;
    const chatNodes = await page.locator('[data-testid="message"]').count();
    await page.locator(chat).evaluate((el) => {
      el.scrollTop = 0;
    });
    await page.waitForTimeout(300);
    const chatDown = await scrollFrames(page, chat, 'down', 150, 20000);
    const chatUp = await scrollFrames(page, chat, 'up', 150, 3000);
    const heapMb = await page.evaluate(() => Math.round(((performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0) / 1048576));
    console.log(`chat: first page ${chatFirst} ms; ${pages} pages (${pages * 20} messages) paged in ${pagedSeconds.toFixed(1)} s; view jumped to top ${jumps} times; DOM bubbles ${chatNodes}; JS heap ${heapMb} MB`);
    console.log('chat scroll down', chatDown);
    console.log('chat scroll up', chatUp);
  } finally {
    await browser.close();
    await app.close();
    await handle.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
