import { beforeAll, describe, expect, it } from 'vitest';
import { fakeBaileys } from '../../test/fakes/baileys-app.js';
import { eventually } from '../../test/session-helpers.js';
import { useTestApp } from '../../test/test-app.js';

/** Incoming calls on WhatsApp (issue 15): the real app with the Baileys driver on the fake socket. */
const baileys = fakeBaileys();
const t = useTestApp({ admin: true, channels: { drivers: baileys.drivers } });
const socket = baileys.socket;

beforeAll(async () => {
  await baileys.connect(t);
});

describe('calls on WhatsApp (Baileys driver, fake socket)', () => {
  it('rejects the call with rejectCall and sends callRejectMessage to the caller when acceptCalls is off', async () => {
    expect((await t.call('PUT', '/api/settings/acceptCalls', { token: t.admin, body: { value: 'disabled' } })).status).toBe(200);
    expect((await t.call('PUT', '/api/settings/callRejectMessage', { token: t.admin, body: { value: 'Não atendemos ligações.' } })).status).toBe(200);
    socket().ev.emit('call', [
      { chatId: '5511977776666@s.whatsapp.net', from: '5511977776666@s.whatsapp.net', id: 'CALLX', date: new Date(), status: 'offer', offline: false },
    ]);
    await eventually(async () => socket().rejectCall.mock.calls.length === 1, 5000, 'rejectCall');
    expect(socket().rejectCall).toHaveBeenCalledWith('CALLX', '5511977776666@s.whatsapp.net');
    const sent = await eventually(async () => socket().sent.find((s) => s.jid === '5511977776666@s.whatsapp.net'), 5000, 'the reject message');
    expect(sent.content).toEqual({ text: 'Não atendemos ligações.' });
  });

  it('lets the call ring when acceptCalls is on', async () => {
    expect((await t.call('PUT', '/api/settings/acceptCalls', { token: t.admin, body: { value: 'enabled' } })).status).toBe(200);
    socket().rejectCall.mockClear();
    socket().ev.emit('call', [
      { chatId: '5511977775555@s.whatsapp.net', from: '5511977775555@s.whatsapp.net', id: 'CALLY', date: new Date(), status: 'offer', offline: false },
    ]);
    await new Promise((r) => setTimeout(r, 200));
    expect(socket().rejectCall).not.toHaveBeenCalled();
    expect(socket().sent.some((s) => s.jid === '5511977775555@s.whatsapp.net')).toBe(false);
  });
});
