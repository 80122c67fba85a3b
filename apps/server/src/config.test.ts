import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

const secrets = { jwtSecret: 'a'.repeat(32), refreshSecret: 'b'.repeat(32) };
const load = (env: NodeJS.ProcessEnv) => loadConfig(env, secrets);

describe('loadConfig: the integrations’ environment variables are checked at start', () => {
  it('takes the defaults when they are unset', () => {
    const config = load({});
    expect(config).toMatchObject({
      outreachPauseMs: 5000,
      providerTimeoutMs: 20_000,
      typebotTimeoutMs: 15_000,
      scheduleConnectionWaitMs: 60_000,
      vonageRestUrl: 'https://rest.nexmo.com',
      vonageApiUrl: 'https://api.nexmo.com',
      instagramGraphUrl: 'https://graph.facebook.com/v21.0',
      whatsappGraphUrl: 'https://graph.facebook.com/v21.0',
      shutdownTimeoutMs: 10_000,
      metricsEnabled: false,
    });
    expect(config.metricsToken).toBeUndefined();
  });

  it('listens on 127.0.0.1 on the embedded database and on 0.0.0.0 with PostgreSQL, unless HOST says otherwise (issue 33 item 24)', () => {
    expect(load({}).host).toBe('127.0.0.1');
    expect(load({ HOST: '' }).host).toBe('127.0.0.1');
    expect(load({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(load({ DATABASE_URL: 'postgres://db/desk' }).host).toBe('0.0.0.0');
    expect(load({ DATABASE_URL: 'postgres://db/desk', HOST: '10.0.0.5' }).host).toBe('10.0.0.5');
  });

  it('takes the port and the sign-up limit as whole numbers, 8080 and 20 when unset', () => {
    expect(load({ PORT: ' 8181 ', SIGNUP_LIMIT_PER_HOUR: '0' })).toMatchObject({ port: 8181, signupLimitPerHour: 0 });
    expect(load({})).toMatchObject({ port: 8080, signupLimitPerHour: 20 });
  });

  it('takes whole milliseconds and http(s) base URLs, without their trailing slashes', () => {
    const config = load({ OUTREACH_PAUSE_MS: '1000', PROVIDER_TIMEOUT_MS: ' 250 ', VONAGE_REST_URL: 'http://127.0.0.1:9001/', WHATSAPP_GRAPH_URL: 'http://127.0.0.1:9001/v21.0//' });
    expect(config).toMatchObject({ outreachPauseMs: 1000, providerTimeoutMs: 250, vonageRestUrl: 'http://127.0.0.1:9001', whatsappGraphUrl: 'http://127.0.0.1:9001/v21.0' });
  });

  it.each([
    ['OUTREACH_PAUSE_MS', 'abc', /OUTREACH_PAUSE_MS must be a whole number of milliseconds/],
    ['PROVIDER_TIMEOUT_MS', '-5', /PROVIDER_TIMEOUT_MS must be a whole number/],
    ['TYPEBOT_TIMEOUT_MS', '1.5', /TYPEBOT_TIMEOUT_MS must be a whole number/],
    ['SCHEDULE_CONNECTION_WAIT_MS', '99999999', /SCHEDULE_CONNECTION_WAIT_MS must be a whole number/],
    ['VONAGE_API_URL', 'ftp://example.com', /VONAGE_API_URL must be an http\(s\) URL/],
    ['INSTAGRAM_GRAPH_URL', 'not a url', /INSTAGRAM_GRAPH_URL must be an http\(s\) URL/],
    ['PORT', 'eighty', /PORT must be a whole number from 0 to 65535/],
    ['PORT', '70000', /PORT must be a whole number from 0 to 65535/],
    ['SIGNUP_LIMIT_PER_HOUR', '-1', /SIGNUP_LIMIT_PER_HOUR must be a whole number/],
    ['SHUTDOWN_TIMEOUT_MS', '10s', /SHUTDOWN_TIMEOUT_MS must be a whole number of milliseconds/],
    ['METRICS_ENABLED', 'yes', /METRICS_ENABLED must be true or false/],
    ['METRICS_ENABLED', 'true', /METRICS_ENABLED=true needs METRICS_TOKEN/],
  ])('refuses %s=%s with a clear message', (name, value, message) => {
    expect(() => load({ [name]: value })).toThrow(message);
  });
});

describe('loadConfig: metrics and shutdown', () => {
  const token = 'a-metrics-token-of-32-characters';

  it('turns the metrics on with METRICS_ENABLED=true and a token, or with a token alone', () => {
    expect(load({ METRICS_ENABLED: 'true', METRICS_TOKEN: token })).toMatchObject({ metricsEnabled: true, metricsToken: token });
    expect(load({ METRICS_TOKEN: token })).toMatchObject({ metricsEnabled: true, metricsToken: token });
  });

  it('keeps them off with METRICS_ENABLED=false, whatever the token', () => {
    const config = load({ METRICS_ENABLED: 'false', METRICS_TOKEN: token });
    expect(config.metricsEnabled).toBe(false);
    expect(config.metricsToken).toBeUndefined();
  });

  it('refuses a token shorter than 16 characters', () => {
    expect(() => load({ METRICS_ENABLED: 'true', METRICS_TOKEN: 'short-token' })).toThrow(/METRICS_TOKEN must be at least 16 characters/);
    expect(() => load({ METRICS_TOKEN: 'fifteen-chars!!' })).toThrow(/at least 16 characters/);
  });

  it('takes SHUTDOWN_TIMEOUT_MS in whole milliseconds', () => {
    expect(load({ SHUTDOWN_TIMEOUT_MS: '2500' }).shutdownTimeoutMs).toBe(2500);
  });

  it('closes idle tickets every 5 minutes by default, on AUTO_CLOSE_CRON, or never with AUTO_CLOSE_CRON=off', () => {
    expect(load({}).autoCloseCron).toBe('*/5 * * * *');
    expect(load({ AUTO_CLOSE_CRON: '0 * * * *' }).autoCloseCron).toBe('0 * * * *');
    expect(load({ AUTO_CLOSE_CRON: 'off' }).autoCloseCron).toBeNull();
    expect(load({ AUTO_CLOSE_CRON: ' OFF ' }).autoCloseCron).toBeNull();
  });

  it('takes GUIDE_URL as an http(s) URL with its {lang}, none when unset, and refuses anything else (decision 0036)', () => {
    expect(load({}).guideUrl).toBeUndefined();
    expect(load({ GUIDE_URL: ' ' }).guideUrl).toBeUndefined();
    expect(load({ GUIDE_URL: 'https://git.example.com/desk/blob/main/docs/guide/{lang}/README.md' }).guideUrl).toBe(
      'https://git.example.com/desk/blob/main/docs/guide/{lang}/README.md',
    );
    expect(() => load({ GUIDE_URL: 'javascript:alert(1)' })).toThrow(/GUIDE_URL must be an http\(s\) URL/);
    expect(() => load({ GUIDE_URL: 'docs/guide' })).toThrow(/GUIDE_URL must be an http\(s\) URL/);
  });

  it('serves the guide of the repository (docs/guide) unless GUIDE_DIR names another folder', () => {
    expect(load({}).guideDir).toBe(path.resolve(import.meta.dirname, '../../../docs/guide'));
    expect(load({ GUIDE_DIR: ' ' }).guideDir).toBe(path.resolve(import.meta.dirname, '../../../docs/guide'));
    expect(load({ GUIDE_DIR: '/srv/desk-guide' }).guideDir).toBe('/srv/desk-guide');
  });
});

describe('loadConfig: secrets', () => {
  it('takes an empty JWT_SECRET as unset (docker-compose passes unset variables as empty): the generated one is used', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'wadesk-config-'));
    try {
      const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: '', JWT_REFRESH_SECRET: '' });
      expect(config.jwtSecret.length).toBeGreaterThanOrEqual(32);
      expect(config.refreshSecret.length).toBeGreaterThanOrEqual(32);
      expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: '' }).jwtSecret).toBe(config.jwtSecret);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
