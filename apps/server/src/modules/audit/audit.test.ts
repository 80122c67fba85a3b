import type { AuditAction, AuditEntryDto, AuditListResponse, MessageDto, SettingDto } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectedSimulator, inbound, phoneNumbers, queryRows } from '../../test/desk-factories.js';
import { ADMIN, useTestApp } from '../../test/test-app.js';
import { audit } from './audit.js';
import { AuditRepository } from './audit.repository.js';
import { AuditService } from './audit.service.js';

const t = useTestApp({
  admin: true,
  user: true,
  config: { vonageRestUrl: 'http://127.0.0.1:9', providerTimeoutMs: 200, outreachPauseMs: 0, mediaFetchAllowPrivate: true },
});
const nextNumber = phoneNumbers(37_000, 7);
const ADMIN_IP = '203.0.113.7';
let connectionId = 0;
let apiToken = '';
let seq = 0;

afterEach(() => {
  vi.restoreAllMocks();
});

beforeAll(async () => {
  connectionId = (await connectedSimulator(t)).id;
  const settings = await t.call<SettingDto[]>('GET', '/api/settings', { token: t.admin });
  expect(settings.status).toBe(200);
  // The admin reads a mask; the service reads the value.
  apiToken = await t.app.services.settings.value('userApiToken');
});

/** The newest entries of an action (the admin's view). */
async function entriesOf(action: AuditAction, extra = ''): Promise<AuditEntryDto[]> {
  const res = await t.call<AuditListResponse>('GET', `/api/audit?action=${action}${extra}`, { token: t.admin });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.entries;
}

async function countOf(action: AuditAction): Promise<number> {
  const [row] = await queryRows<{ n: number }>(t, sql`select count(*)::int as n from audit_log where action = ${action}`);
  return Number(row!.n);
}

function uniq(prefix: string): string {
  seq += 1;
  return `${prefix} ${seq} ${Date.now() % 100_000}`;
}

async function adminId(): Promise<number> {
  const [row] = await queryRows<{ id: number }>(t, sql`select id from users where email = ${ADMIN.email}`);
  return Number(row!.id);
}

/** The database's message when the statement is refused (drizzle wraps it as the cause), or 'accepted'. */
async function refusal(statement: Promise<unknown>): Promise<string> {
  return statement.then(
    () => 'accepted',
    (err: { message?: string; cause?: { message?: string } }) => `${err.cause?.message ?? ''} ${err.message ?? ''}`,
  );
}

interface Case {
  action: AuditAction;
  /** The test's name when one action has several cases. */
  label?: string;
  /** Makes the change (as the admin from ADMIN_IP unless said otherwise); answers what the entry must hold. */
  run: () => Promise<Partial<AuditEntryDto>>;
}

const as = { token: '', ip: ADMIN_IP };

const cases: Case[] = [
  {
    action: 'settings.update',
    run: async () => {
      const res = await t.call('PUT', '/api/settings/typebotName', { ...as, body: { value: 'Bot audit' } });
      expect(res.status).toBe(200);
      return { targetType: 'setting', targetId: 'typebotName', after: { value: 'Bot audit' } };
    },
  },
  {
    action: 'tool_access.update',
    run: async () => {
      const res = await t.call('PUT', '/api/settings/attendantTools', { ...as, body: { value: 'bulk,groups' } });
      expect(res.status).toBe(200);
      return { targetId: 'attendantTools', after: { value: 'bulk,groups' } };
    },
  },
  {
    action: 'api_token.regenerate',
    run: async () => {
      const res = await t.call('POST', '/api/settings/userApiToken/regenerate', { ...as });
      expect(res.status).toBe(200);
      apiToken = await t.app.services.settings.value('userApiToken');
      return { targetId: 'userApiToken', after: { value: '***' } };
    },
  },
  {
    action: 'user.create',
    run: async () => {
      const email = `${uniq('audit').replace(/\s/g, '-')}@test.local`;
      const res = await t.call('POST', '/api/users', { ...as, body: { name: 'Audited', email, password: 'secret-pass-1', profile: 'user', queueIds: [] } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return { targetType: 'user', targetId: String(res.body.id), after: expect.objectContaining({ email, name: 'Audited' }) };
    },
  },
  {
    action: 'user.update',
    run: async () => {
      const { user } = await t.createUser();
      const res = await t.call('PUT', `/api/users/${user.id}`, { ...as, body: { name: 'Renamed', password: 'another-pass-2' } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { targetId: String(user.id), before: expect.objectContaining({ name: user.name }), after: expect.objectContaining({ name: 'Renamed', password: '***' }) };
    },
  },
  {
    action: 'user.delete',
    run: async () => {
      const { user } = await t.createUser();
      expect((await t.call('DELETE', `/api/users/${user.id}`, { ...as })).status).toBe(200);
      return { targetId: String(user.id), before: expect.objectContaining({ email: user.email }) };
    },
  },
  {
    action: 'queue.create',
    run: async () => {
      const name = uniq('Queue');
      const res = await t.call('POST', '/api/queue', { ...as, body: { name, color: `#${(0x200000 + seq * 4099).toString(16).slice(-6)}`, greetingMessage: '' } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return { targetType: 'queue', targetId: String(res.body.id), after: expect.objectContaining({ name }) };
    },
  },
  {
    action: 'queue.update',
    run: async () => {
      const created = await t.call('POST', '/api/queue', { ...as, body: { name: uniq('Q'), color: `#${(0x300000 + seq * 4099).toString(16).slice(-6)}`, greetingMessage: '' } });
      const res = await t.call('PUT', `/api/queue/${created.body.id}`, { ...as, body: { greetingMessage: 'Olá' } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { targetId: String(created.body.id), before: expect.objectContaining({ greetingMessage: '' }), after: expect.objectContaining({ greetingMessage: 'Olá' }) };
    },
  },
  {
    action: 'queue.delete',
    run: async () => {
      const created = await t.call('POST', '/api/queue', { ...as, body: { name: uniq('Q'), color: `#${(0x400000 + seq * 4099).toString(16).slice(-6)}`, greetingMessage: '' } });
      expect((await t.call('DELETE', `/api/queue/${created.body.id}`, { ...as })).status).toBe(200);
      return { targetId: String(created.body.id), before: expect.objectContaining({ name: created.body.name }) };
    },
  },
  {
    action: 'connection.create',
    run: async () => {
      const name = uniq('Conn');
      const res = await t.call('POST', '/api/whatsapp', { ...as, body: { name, channel: 'simulator' } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return { targetType: 'connection', targetId: String(res.body.id), after: expect.objectContaining({ name }) };
    },
  },
  {
    action: 'connection.update',
    run: async () => {
      const res = await t.call('PUT', `/api/whatsapp/${connectionId}`, { ...as, body: { farewellMessage: 'Até logo' } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { targetId: String(connectionId), after: expect.objectContaining({ farewellMessage: 'Até logo' }) };
    },
  },
  {
    action: 'connection.delete',
    run: async () => {
      const created = await t.call('POST', '/api/whatsapp', { ...as, body: { name: uniq('Gone'), channel: 'simulator' } });
      expect((await t.call('DELETE', `/api/whatsapp/${created.body.id}`, { ...as })).status).toBe(200);
      return { targetId: String(created.body.id), before: expect.objectContaining({ name: created.body.name }) };
    },
  },
  {
    action: 'connection.session',
    run: async () => {
      const created = await t.call('POST', '/api/whatsapp', { ...as, body: { name: uniq('Session'), channel: 'simulator' } });
      const res = await t.call('DELETE', `/api/whatsappsession/${created.body.id}`, { ...as });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { targetId: String(created.body.id), after: { action: 'disconnect' } };
    },
  },
  {
    action: 'label.create',
    run: async () => {
      const name = uniq('L').slice(0, 30);
      const res = await t.call('POST', '/api/labels', { ...as, body: { name, color: '#1273DE' } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return { targetType: 'label', targetId: String(res.body.id), after: expect.objectContaining({ name }) };
    },
  },
  {
    action: 'label.update',
    run: async () => {
      const created = await t.call('POST', '/api/labels', { ...as, body: { name: uniq('Lu').slice(0, 30), color: '#1273DE' } });
      const res = await t.call('PUT', `/api/labels/${created.body.id}`, { ...as, body: { color: '#B80000' } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { targetId: String(created.body.id), before: expect.objectContaining({ color: '#1273DE' }), after: expect.objectContaining({ color: '#B80000' }) };
    },
  },
  {
    action: 'label.delete',
    run: async () => {
      const created = await t.call('POST', '/api/labels', { ...as, body: { name: uniq('Ld').slice(0, 30), color: '#1273DE' } });
      expect((await t.call('DELETE', `/api/labels/${created.body.id}`, { ...as })).status).toBe(200);
      return { targetId: String(created.body.id), before: expect.objectContaining({ name: created.body.name }) };
    },
  },
  {
    action: 'webhook.create',
    run: async () => {
      const res = await t.call('POST', '/api/webhooks', { ...as, body: { url: 'http://127.0.0.1:9/audit-hook', events: ['ticket.created'] } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return { targetType: 'webhook', targetId: String(res.body.id), after: expect.objectContaining({ url: 'http://127.0.0.1:9/audit-hook' }) };
    },
  },
  {
    action: 'webhook.delete',
    run: async () => {
      const created = await t.call('POST', '/api/webhooks', { ...as, body: { url: 'http://127.0.0.1:9/gone-hook', events: ['ticket.created'] } });
      expect((await t.call('DELETE', `/api/webhooks/${created.body.id}`, { ...as })).status).toBe(200);
      return { targetId: String(created.body.id), before: expect.objectContaining({ url: 'http://127.0.0.1:9/gone-hook' }) };
    },
  },
  {
    action: 'quick_answer.update',
    run: async () => {
      const created = await t.call('POST', '/api/quickAnswers', { ...as, body: { shortcut: uniq('/qu').replace(/\s/g, ''), message: 'The first text here' } });
      const res = await t.call('PUT', `/api/quickAnswers/${created.body.id}`, { ...as, body: { shortcut: created.body.shortcut, message: 'The second text here' } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { targetId: String(created.body.id), before: expect.objectContaining({ message: 'The first text here' }), after: expect.objectContaining({ message: 'The second text here' }) };
    },
  },
  {
    action: 'quick_answer.create',
    run: async () => {
      const res = await t.call('POST', '/api/quickAnswers', { ...as, body: { shortcut: uniq('/qa').replace(/\s/g, ''), message: 'A quick answer text' } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return { targetType: 'quickAnswer', targetId: String(res.body.id) };
    },
  },
  {
    action: 'quick_answer.delete',
    run: async () => {
      const created = await t.call('POST', '/api/quickAnswers', { ...as, body: { shortcut: uniq('/qd').replace(/\s/g, ''), message: 'To be deleted soon' } });
      expect((await t.call('DELETE', `/api/quickAnswers/${created.body.id}`, { ...as })).status).toBe(200);
      return { targetId: String(created.body.id), before: expect.objectContaining({ message: 'To be deleted soon' }) };
    },
  },
  {
    action: 'ticket.delete',
    run: async () => {
      const ticket = await inbound(t, connectionId, { from: nextNumber(), body: 'apague' });
      expect((await t.call('DELETE', `/api/tickets/${ticket.id}`, { ...as })).status).toBe(200);
      return { targetType: 'ticket', targetId: String(ticket.id), before: expect.objectContaining({ id: ticket.id }) };
    },
  },
  {
    action: 'ticket.close_all',
    run: async () => {
      await inbound(t, connectionId, { from: nextNumber(), body: 'feche' });
      const res = await t.call<{ closed: number }>('POST', '/api/ticketsClosed', { ...as, body: { showAll: true, isGroup: false } });
      expect(res.status).toBe(200);
      return { after: expect.objectContaining({ closed: res.body.closed }) };
    },
  },
  {
    action: 'message.delete',
    run: async () => {
      const ticket = await inbound(t, connectionId, { from: nextNumber(), body: 'oi' });
      const sent = await t.call<MessageDto>('POST', `/api/messages/${ticket.id}`, { ...as, body: { body: 'mensagem errada' } });
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      const res = await t.call('DELETE', `/api/messages/${sent.body.id}`, { ...as });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { targetType: 'message', targetId: String(sent.body.id), before: expect.objectContaining({ body: 'mensagem errada', ticketId: ticket.id }) };
    },
  },
  {
    action: 'contact.delete',
    run: async () => {
      const created = await t.call('POST', '/api/contacts', { ...as, body: { name: 'Apagado', number: nextNumber() } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect((await t.call('DELETE', `/api/contacts/${created.body.id}`, { ...as })).status).toBe(200);
      return { targetType: 'contact', targetId: String(created.body.id), before: expect.objectContaining({ name: 'Apagado' }) };
    },
  },
  {
    action: 'contact.import',
    run: async () => {
      const number = nextNumber();
      const res = await t.app.http.inject({
        method: 'POST',
        url: '/api/contacts/import/csv',
        headers: { authorization: `Bearer ${as.token}`, 'content-type': 'text/csv' },
        payload: `name,number\nImportado,${number}\n`,
        remoteAddress: ADMIN_IP,
      });
      expect(res.statusCode, res.body).toBe(200);
      return { after: expect.objectContaining({ source: 'csv', created: 1, numbers: [number] }) };
    },
  },
  {
    action: 'contact.import',
    label: "contact.import (the phone's contacts)",
    run: async () => {
      const res = await t.call('POST', '/api/contacts/import', { ...as });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { targetType: 'contact', after: expect.objectContaining({ source: 'device', created: expect.any(Number) }) };
    },
  },
  {
    action: 'contact.export',
    run: async () => {
      const res = await t.app.http.inject({ method: 'GET', url: '/api/contacts/export.csv', headers: { authorization: `Bearer ${as.token}` }, remoteAddress: ADMIN_IP });
      expect(res.statusCode).toBe(200);
      return { targetType: 'contact', after: expect.objectContaining({ rows: expect.any(Number) }) };
    },
  },
  {
    action: 'campaign.create',
    run: async () => {
      const res = await t.call('POST', '/api/campaigns', { ...as, body: { whatsappId: connectionId, kind: 'text', message: 'Promo', numbers: `${nextNumber()}\n${nextNumber()}`, minInterval: 60, maxInterval: 60 } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return { targetType: 'campaign', targetId: String(res.body.id), after: expect.objectContaining({ message: 'Promo', recipients: 2 }) };
    },
  },
  {
    action: 'campaign.pause',
    run: async () => {
      const created = await t.call('POST', '/api/campaigns', { ...as, body: { whatsappId: connectionId, kind: 'text', message: 'Hold', numbers: nextNumber(), minInterval: 60, maxInterval: 60 } });
      const res = await t.call('POST', `/api/campaigns/${created.body.id}/pause`, { ...as });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { targetId: String(created.body.id), after: { status: 'paused' } };
    },
  },
  {
    action: 'campaign.start',
    run: async () => {
      const created = await t.call('POST', '/api/campaigns', { ...as, body: { whatsappId: connectionId, kind: 'text', message: 'Go on', numbers: nextNumber(), minInterval: 60, maxInterval: 60 } });
      await t.call('POST', `/api/campaigns/${created.body.id}/pause`, { ...as });
      const res = await t.call('POST', `/api/campaigns/${created.body.id}/resume`, { ...as });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { targetId: String(created.body.id), before: { status: 'paused' }, after: { status: 'running' } };
    },
  },
  {
    action: 'campaign.cancel',
    run: async () => {
      const created = await t.call('POST', '/api/campaigns', { ...as, body: { whatsappId: connectionId, kind: 'text', message: 'Stop', numbers: nextNumber(), minInterval: 60, maxInterval: 60 } });
      const res = await t.call('POST', `/api/campaigns/${created.body.id}/cancel`, { ...as });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { targetId: String(created.body.id), after: { status: 'cancelled' } };
    },
  },
  {
    action: 'campaign.export',
    run: async () => {
      const created = await t.call('POST', '/api/campaigns', { ...as, body: { whatsappId: connectionId, kind: 'text', message: 'Out', numbers: `${nextNumber()}\n${nextNumber()}`, minInterval: 60, maxInterval: 60 } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const res = await t.app.http.inject({ method: 'GET', url: `/api/campaigns/${created.body.id}/recipients.csv`, headers: { authorization: `Bearer ${as.token}` }, remoteAddress: ADMIN_IP });
      expect(res.statusCode, res.body).toBe(200);
      return { targetType: 'campaign', targetId: String(created.body.id), after: { rows: 2 } };
    },
  },
  {
    action: 'history.import',
    run: async () => {
      const contactNumber = nextNumber();
      const res = await t.call<{ historyImport: { id: number } }>('POST', '/api/history/imports', { ...as, body: { whatsappId: connectionId, limit: 20, contactNumber } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return { targetType: 'historyImport', targetId: String(res.body.historyImport.id), after: { whatsappId: connectionId, contactNumber, limit: 20 } };
    },
  },
  {
    action: 'group_action.create',
    run: async () => {
      const res = await t.call('POST', '/api/groups/actions', { ...as, body: { whatsappId: connectionId, action: 'create', title: 'Audit group', participants: nextNumber() } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return { targetType: 'groupAction', after: expect.objectContaining({ kind: 'create', title: 'Audit group', participants: 1 }) };
    },
  },
  {
    action: 'outreach.batch',
    run: async () => {
      await t.call('PUT', '/api/settings/vonageApiKey', { ...as, body: { value: 'key' } });
      await t.call('PUT', '/api/settings/vonageApiSecret', { ...as, body: { value: 'vonage-secret-value' } });
      const res = await t.call('POST', '/api/outreach', { ...as, body: { channel: 'sms', from: 'WaDesk', text: 'Aviso', recipients: nextNumber() } });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      return { targetType: 'outreachBatch', after: expect.objectContaining({ channel: 'sms', recipients: 1 }) };
    },
  },
];

describe('the audit log records each kind of change (issue 37 §2)', () => {
  beforeAll(() => {
    as.token = t.admin;
  });

  it.each(cases.map((c) => [c.label ?? c.action, c] as const))('%s leaves its entry: who, from where, what, before → after', async (_name, c) => {
    const expected = await c.run();
    const [entry] = await entriesOf(c.action);
    expect(entry).toMatchObject({ action: c.action, actorKind: 'user', userId: await adminId(), userName: expect.any(String), ip: ADMIN_IP, ...expected });
  });

  it('records a sign-in, and a failed one as anonymous with the e-mail tried (never the password)', async () => {
    const ok = await t.call('POST', '/api/auth/login', { ip: '198.51.100.20', body: { email: ADMIN.email, password: ADMIN.password } });
    expect(ok.status).toBe(200);
    expect((await entriesOf('auth.login'))[0]).toMatchObject({ actorKind: 'user', userId: await adminId(), ip: '198.51.100.20', after: { method: 'password' } });

    const bad = await t.call('POST', '/api/auth/login', { ip: '198.51.100.21', body: { email: 'nobody@test.local', password: 'wrong-password-9' } });
    expect(bad.status).toBe(401);
    const [failed] = await entriesOf('auth.login_failed');
    expect(failed).toMatchObject({ actorKind: 'anonymous', userId: null, userName: 'nobody@test.local', ip: '198.51.100.21' });
    expect(JSON.stringify(failed)).not.toContain('wrong-password-9');
  });

  it('with two-factor sign-in: a wrong code is a failed sign-in, a recovery code a sign-in by the second factor', async () => {
    const created = await t.createUser();
    const setup = await t.call('POST', '/api/auth/mfa/setup', { token: created.token });
    expect(setup.status).toBe(200);
    const secret = new URL(setup.body.uri as string).searchParams.get('secret')!;
    const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
    const enable = await t.call('POST', '/api/auth/mfa/enable', { token: created.token, body: { code } });
    expect(enable.status, JSON.stringify(enable.body)).toBe(200);
    expect((await entriesOf('mfa.enable'))[0]).toMatchObject({ actorKind: 'user', userId: created.user.id });

    const password = await t.call('POST', '/api/auth/login', { ip: '198.51.100.30', body: { email: created.user.email, password: created.password } });
    expect(password.body.error).toBe('ERR_MFA_REQUIRED');
    // The code just used to turn it on is refused (replay): a failed sign-in.
    const wrong = await t.call('POST', '/api/auth/mfa', { ip: '198.51.100.30', body: { mfaToken: password.body.mfaToken, code } });
    expect(wrong.status).toBe(401);
    expect((await entriesOf('auth.login_failed'))[0]).toMatchObject({ actorKind: 'anonymous', userName: created.user.email, ip: '198.51.100.30', after: { reason: 'mfa-code' } });
    const recovered = await t.call('POST', '/api/auth/mfa', { ip: '198.51.100.30', body: { mfaToken: password.body.mfaToken, code: (enable.body.recoveryCodes as string[])[0] } });
    expect(recovered.status, JSON.stringify(recovered.body)).toBe(200);
    expect((await entriesOf('auth.login'))[0]).toMatchObject({ actorKind: 'user', userId: created.user.id, after: { method: 'mfa' } });
    expect((await entriesOf('mfa.recovery_code_used'))[0]).toMatchObject({ targetId: String(created.user.id) });
  });

  it('records every call made with the API token as the token, and what it did', async () => {
    const res = await t.call('POST', '/api/zdg', { ip: '192.0.2.5', body: { number: nextNumber(), message: 'Pelo token', token: apiToken } });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect((await entriesOf('api_token.use'))[0]).toMatchObject({ actorKind: 'token', userId: null, ip: '192.0.2.5', targetId: 'POST /api/zdg' });
    // An admin's own session on the send API is not a use of the token.
    const before = await countOf('api_token.use');
    expect((await t.call('POST', '/api/zdg', { token: t.admin, body: { number: nextNumber(), message: 'Admin' } })).status).toBe(202);
    expect(await countOf('api_token.use')).toBe(before);
  });

  it('masks secrets: a secret setting, the API token, a password are *** in before and after', async () => {
    const res = await t.call('PUT', '/api/settings/emailPass', { token: t.admin, body: { value: 'smtp-password-xyz' } });
    expect(res.status).toBe(200);
    const [entry] = await entriesOf('settings.update', '');
    expect(entry).toMatchObject({ targetId: 'emailPass', after: { value: '***' } });
    const all = await queryRows<{ text: string }>(t, sql`select coalesce(before::text, '') || coalesce(after::text, '') as text from audit_log`);
    for (const secret of ['smtp-password-xyz', 'another-pass-2', 'secret-pass-1', apiToken]) {
      expect(all.some((row) => row.text.includes(secret)), secret).toBe(false);
    }
  });

  it('records an entry by the desk itself (no request) as system', async () => {
    await t.app.database.db.transaction((tx) => audit.record(tx, { action: 'audit.retention', after: { deleted: 0 } }));
    expect((await entriesOf('audit.retention'))[0]).toMatchObject({ actorKind: 'system', userId: null, ip: null });
  });
});

describe('an entry is part of the change it records', () => {
  it('a refused change leaves no entry', async () => {
    const name = uniq('Twice');
    const first = await t.call('POST', '/api/queue', { token: t.admin, body: { name, color: '#0A0B0C', greetingMessage: '' } });
    expect(first.status).toBe(201);
    const before = await countOf('queue.create');
    const again = await t.call('POST', '/api/queue', { token: t.admin, body: { name, color: '#0A0B0D', greetingMessage: '' } });
    expect(again.status).toBe(409);
    const badSetting = await t.call('PUT', '/api/settings/auditRetentionDays', { token: t.admin, body: { value: '0' } });
    expect(badSetting.status).toBe(400);
    expect(await countOf('queue.create')).toBe(before);
    expect((await entriesOf('settings.update')).some((e) => e.targetId === 'auditRetentionDays')).toBe(false);
  });

  it('a change whose entry cannot be written is undone (same transaction)', async () => {
    vi.spyOn(AuditRepository.prototype, 'insert').mockRejectedValueOnce(new Error('audit log unavailable'));
    const res = await t.call('PUT', '/api/settings/typebotName', { token: t.admin, body: { value: 'never stored' } });
    expect(res.status).toBe(500);
    expect(await t.app.services.settings.value('typebotName')).not.toBe('never stored');

    vi.spyOn(AuditRepository.prototype, 'insert').mockRejectedValueOnce(new Error('audit log unavailable'));
    const contact = await t.call('POST', '/api/contacts', { token: t.admin, body: { name: 'Kept', number: nextNumber() } });
    const deleted = await t.call('DELETE', `/api/contacts/${contact.body.id}`, { token: t.admin });
    expect(deleted.status).toBe(500);
    expect((await t.call('GET', `/api/contacts/${contact.body.id}`, { token: t.admin })).status).toBe(200);
  });
});

describe('append-only', () => {
  it('the database refuses UPDATE, DELETE and TRUNCATE of entries', async () => {
    const db = t.app.database.db;
    expect(await refusal(db.execute(sql`update audit_log set action = 'user.create'`))).toMatch(/append-only/);
    expect(await refusal(db.execute(sql`delete from audit_log`))).toMatch(/append-only/);
    expect(await refusal(db.execute(sql`truncate audit_log`))).toMatch(/append-only/);
    expect(await countOf('auth.login')).toBeGreaterThan(0);
  });

  it('no route changes or deletes an entry: the audit routes are two GETs, for admins', () => {
    const routes = t.app.http.routeTable.filter((r) => r.url.startsWith('/api/audit'));
    expect(new Set(routes.map((r) => r.url))).toEqual(new Set(['/api/audit', '/api/audit/export']));
    expect(routes.every((r) => (r.method === 'GET' || r.method === 'HEAD') && r.access === 'admin')).toBe(true);
  });
});

describe('GET /api/audit and /api/audit/export', () => {
  it('are for admins: an attendant gets 403, nobody signed in 401', async () => {
    for (const url of ['/api/audit', '/api/audit/export']) {
      expect((await t.call('GET', url, { token: t.user })).status).toBe(403);
      expect((await t.call('GET', url)).status).toBe(401);
    }
  });

  it('answers newest first, 50 a page with hasMore, filtered by action, user and period', async () => {
    const repo = new AuditRepository(t.app.database.db);
    const base = Date.UTC(2001, 0, 1);
    for (let i = 0; i < 55; i += 1) {
      await repo.insert({ actorKind: 'user', userId: 999_001, userName: 'Paged', ip: null, action: 'quick_answer.update', targetType: 'quickAnswer', targetId: String(i), before: null, after: null, at: new Date(base + i * 60_000) });
    }
    const from = new Date(base).toISOString();
    const to = new Date(base + 55 * 60_000).toISOString();
    const page1 = await t.call<AuditListResponse>('GET', `/api/audit?userId=999001&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`, { token: t.admin });
    expect(page1.status).toBe(200);
    expect(page1.body.entries).toHaveLength(50);
    expect(page1.body.hasMore).toBe(true);
    expect(page1.body.entries[0]!.targetId).toBe('54');
    const page2 = await t.call<AuditListResponse>('GET', `/api/audit?userId=999001&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&pageNumber=2`, { token: t.admin });
    expect(page2.body).toMatchObject({ hasMore: false });
    expect(page2.body.entries.map((e) => e.targetId)).toEqual(['4', '3', '2', '1', '0']);
    const narrow = await t.call<AuditListResponse>('GET', `/api/audit?userId=999001&from=${encodeURIComponent(new Date(base + 10 * 60_000).toISOString())}&to=${encodeURIComponent(new Date(base + 12 * 60_000).toISOString())}`, { token: t.admin });
    expect(narrow.body.entries.map((e) => e.targetId)).toEqual(['11', '10']);
    const wrong = await t.call('GET', '/api/audit?action=nothing.done', { token: t.admin });
    expect(wrong.status).toBe(400);
  });

  it('exports the filtered entries as CSV, and records the export', async () => {
    const before = await countOf('audit.export');
    const res = await t.app.http.inject({ method: 'GET', url: '/api/audit/export?userId=999001', headers: { authorization: `Bearer ${t.admin}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('at,actorKind,userId,userName,ip,action,targetType,targetId,before,after');
    expect(lines).toHaveLength(56);
    expect(lines[1]).toContain('quick_answer.update');
    expect(await countOf('audit.export')).toBe(before + 1);
    expect((await entriesOf('audit.export'))[0]).toMatchObject({ actorKind: 'user', after: expect.objectContaining({ userId: 999001 }) });
  });
});

describe('retention (auditRetentionDays)', () => {
  it('deletes only the entries older than the setting, as the desk, and keeps a record of it', async () => {
    const now = new Date('2030-06-15T12:00:00Z');
    const repo = new AuditRepository(t.app.database.db);
    const old = { actorKind: 'system' as const, userId: 999_002, userName: null, ip: null, action: 'settings.update' as const, targetType: null, targetId: null, before: null, after: null };
    await repo.insert({ ...old, targetId: 'old', at: new Date(now.getTime() - 31 * 86_400_000) });
    await repo.insert({ ...old, targetId: 'recent', at: new Date(now.getTime() - 29 * 86_400_000) });
    expect((await t.call('PUT', '/api/settings/auditRetentionDays', { token: t.admin, body: { value: '30' } })).status).toBe(200);
    const service = new AuditService(t.app.database.db, t.app.services.settings, () => now);
    const deleted = await service.applyRetention();
    // Everything else in this file is older than 2030-05-16 minus nothing: it was written "now" (before 2030), so it goes too.
    expect(deleted).toBeGreaterThanOrEqual(1);
    const left = await queryRows<{ target_id: string }>(t, sql`select target_id from audit_log where user_id = 999002`);
    expect(left.map((r) => r.target_id)).toEqual(['recent']);
    expect((await entriesOf('audit.retention'))[0]).toMatchObject({ actorKind: 'system', after: expect.objectContaining({ days: 30, deleted }) });
    // Outside the retention's transaction the trigger still refuses.
    expect(await refusal(t.app.database.db.execute(sql`delete from audit_log where user_id = 999002`))).toMatch(/append-only/);
  });

  it('runs as a daily pg-boss job', async () => {
    expect(await t.app.services.jobs.scheduled()).toContain('audit.retention');
  });
});
