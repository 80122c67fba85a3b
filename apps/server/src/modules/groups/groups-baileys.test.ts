import type { GroupMetadata } from '@whiskeysockets/baileys';
import type { GroupActionDto, GroupActionItemListResponse, WhatsappDto } from '@wadesk/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { fakeBaileys } from '../../test/fakes/baileys-app.js';
import { eventually } from '../../test/session-helpers.js';
import { useTestApp } from '../../test/test-app.js';

/**
 * The group actions on WhatsApp: the real app with the Baileys driver on the fake socket, so each action is checked
 * down to the Baileys calls it makes (JIDs, settings, LID members by their phone number, the own number skipped).
 */
const baileys = fakeBaileys();
const OWN = '5511955554444';
const GROUP_JID = '120363000000000002@g.us';

const t = useTestApp({
  admin: true,
  config: { groupActionDelayMs: { min: 0, max: 0 }, groupActionPauseMs: { min: 0, max: 0 } },
  channels: { drivers: baileys.drivers },
});
let connection: WhatsappDto;
const socket = baileys.socket;

beforeAll(async () => {
  connection = await baileys.connect(t);
  // The device is in the group too, as WhatsApp lists it.
  const group = (await socket().groupMetadata(GROUP_JID)) as GroupMetadata;
  group.subject = 'Sales';
  group.participants.push({ id: `${OWN}@s.whatsapp.net`, admin: 'admin' });
  socket().groupFetchAllParticipating.mockResolvedValue({ [GROUP_JID]: group });
});

async function run(body: Record<string, unknown>): Promise<{ action: GroupActionDto; items: GroupActionItemListResponse['items'] }> {
  const res = await t.call<{ groupAction: GroupActionDto }>('POST', '/api/groups/actions', { token: t.admin, body: { whatsappId: connection.id, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = res.body.groupAction.id;
  const action = await eventually(async () => {
    const a = (await t.call<GroupActionDto>('GET', `/api/groups/actions/${id}`, { token: t.admin })).body;
    return a.status === 'done' ? a : null;
  }, 10_000, `group action ${id} done`);
  const items = (await t.call<GroupActionItemListResponse>('GET', `/api/groups/actions/${id}/items`, { token: t.admin })).body.items;
  return { action, items };
}

describe('group actions on WhatsApp (Baileys driver, fake socket)', () => {
  it('lists the groups with their participants by phone number', async () => {
    const res = await t.call('GET', `/api/groups?whatsappId=${connection.id}`, { token: t.admin });
    expect(res.body).toEqual([{ id: '120363000000000002', subject: 'Sales', description: 'About', participants: 3, announce: false }]);
  });

  it('updates the title and the description on the group JID', async () => {
    const { action } = await run({ action: 'update', subject: 'Vendas', description: 'Só avisos' });
    expect(action).toMatchObject({ total: 1, done: 1, failed: 0 });
    expect(socket().groupUpdateSubject).toHaveBeenCalledWith(GROUP_JID, 'Vendas');
    expect(socket().groupUpdateDescription).toHaveBeenCalledWith(GROUP_JID, 'Só avisos');
  });

  it('closes (announcement) and opens (not_announcement) the groups', async () => {
    socket().groupSettingUpdate.mockClear();
    await run({ action: 'close', confirmation: 'FECHAR' });
    await run({ action: 'open', confirmation: 'ABRIR' });
    expect(socket().groupSettingUpdate.mock.calls).toEqual([
      [GROUP_JID, 'announcement'],
      [GROUP_JID, 'not_announcement'],
    ]);
  });

  it('creates a group with the participants as phone JIDs, keeping the new group id', async () => {
    const { items } = await run({ action: 'create', title: 'Nova', participants: '5511987654321\n5511987654322' });
    expect(socket().groupCreate).toHaveBeenCalledWith('Nova', ['5511987654321@s.whatsapp.net', '5511987654322@s.whatsapp.net']);
    expect(items[0]).toMatchObject({ status: 'done', result: '120363000000000001' });
  });

  it('sends a message to the group JID', async () => {
    socket().sent.length = 0;
    await run({ action: 'message', message: 'Oi, grupo' });
    expect(socket().sent.map((s) => [s.jid, s.content])).toEqual([[GROUP_JID, { text: 'Oi, grupo' }]]);
  });

  it('messages each participant at their phone JID (a LID member by its phone number), skipping the own number', async () => {
    socket().sent.length = 0;
    const { action } = await run({ action: 'privateMessage', message: 'Oi, em particular', minInterval: 0, maxInterval: 0 });
    expect(action).toMatchObject({ total: 2, done: 2, skipped: 1 });
    expect(socket().sent.map((s) => s.jid)).toEqual(['5511900000001@s.whatsapp.net', '5511900000002@s.whatsapp.net']);
  });

  it('records a refusal of WhatsApp as the group\'s failed outcome', async () => {
    socket().groupUpdateSubject.mockRejectedValueOnce(new Error('not-authorized'));
    const { action, items } = await run({ action: 'update', subject: 'Proibido' });
    expect(action).toMatchObject({ total: 1, done: 1, failed: 1 });
    expect(items[0]).toMatchObject({ target: '120363000000000002', label: 'Sales', status: 'failed', error: 'not-authorized' });
  });
});
