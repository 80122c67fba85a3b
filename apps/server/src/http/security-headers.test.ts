import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerSecurityHeaders } from './security-headers.js';

async function appWith(options: Parameters<typeof registerSecurityHeaders>[1]) {
  const app = Fastify();
  await registerSecurityHeaders(app, options);
  app.get('/thing', async () => ({ ok: true }));
  await app.ready();
  return app;
}

describe('security headers', () => {
  it('behind HTTPS adds HSTS and upgrades insecure requests, on every answer including a 404', async () => {
    const app = await appWith({ secure: true });
    for (const url of ['/thing', '/nowhere']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.headers['strict-transport-security'], url).toBe('max-age=15552000');
      expect(String(res.headers['content-security-policy']), url).toContain('upgrade-insecure-requests');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['cross-origin-resource-policy'], url).toBe('same-origin');
    }
    await app.close();
  });

  it('reads the frame origins at each answer, so a changed chatbot URL applies at once', async () => {
    let origins: string[] = [];
    const app = await appWith({ secure: false, frameOrigins: () => origins });
    const frameSrc = async () => /frame-src ([^;]*)/.exec(String((await app.inject({ method: 'GET', url: '/thing' })).headers['content-security-policy']))?.[1];
    expect(await frameSrc()).toBe("'self' 'self'");
    origins = ['https://bot.example.com'];
    expect(await frameSrc()).toBe("'self' https://bot.example.com");
    await app.close();
  });

  it('lets a front end of the same site show the media when CORS origins are set', async () => {
    const app = await appWith({ secure: false, sameSiteResources: true });
    const res = await app.inject({ method: 'GET', url: '/thing' });
    expect(res.headers['cross-origin-resource-policy']).toBe('same-site');
    expect(res.headers['strict-transport-security']).toBeUndefined();
    await app.close();
  });
});
