import type { ContactDto, LabelDto, TicketDto, TicketListResponse, WhatsappDto } from '@wadesk/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectedSimulator, createQueue, phoneNumbers } from '../../test/desk-factories.js';
import { nextEvent, useTestApp } from '../../test/test-app.js';

const t = useTestApp({ admin: true, user: true });
const phone = phoneNumbers(41000000, 17);
let conn: WhatsappDto;
let queueQ: number;
let queueR: number;
let member: string;
let outsider: string;

beforeAll(async () => {
  conn = await connectedSimulator(t);
  queueQ = await createQueue(t, 'Labels Q');
  queueR = await createQueue(t, 'Labels R');
  member = (await t.createUser({ queueIds: [queueQ] })).token;
  outsider = (await t.createUser({ queueIds: [queueR] })).token;
});

let seq = 0;
async function createLabel(name?: string, color?: string): Promise<LabelDto> {
  seq += 1;
  const res = await t.call<LabelDto>('POST', '/api/labels', { token: t.admin, body: { name: name ?? `Label ${seq}`, ...(color ? { color } : {}) } });
  expect(res.status).toBe(201);
  return res.body;
}

async function createContact(): Promise<ContactDto> {
  const res = await t.call<ContactDto>('POST', '/api/contacts', { token: t.admin, body: { name: `Contact ${(seq += 1)}`, number: phone() } });
  expect(res.status).toBe(201);
  return res.body;
}

/** A pending ticket of a new contact in `queueId` (none: without a queue). */
async function createTicket(queueId?: number): Promise<TicketDto> {
  const contact = await createContact();
  const res = await t.call<TicketDto>('POST', '/api/tickets', { token: t.admin, body: { contactId: contact.id, whatsappId: conn.id, status: 'pending' } });
  expect(res.status).toBe(201);
  if (queueId === undefined) return res.body;
  const moved = await t.call<TicketDto>('PUT', `/api/tickets/${res.body.id}`, { token: t.admin, body: { queueId } });
  expect(moved.status).toBe(200);
  return moved.body;
}

const setTicketLabels = (token: string, ticketId: number, labelIds: number[]) =>
  t.call<TicketDto>('PUT', `/api/tickets/${ticketId}`, { token, body: { labelIds } });

const listIds = async (token: string, query: string): Promise<number[]> => {
  const res = await t.call<TicketListResponse>('GET', `/api/tickets?${query}`, { token });
  expect(res.status).toBe(200);
  return res.body.tickets.map((ticket) => ticket.id);
};

describe('/api/labels', () => {
  it('lets an admin create, rename, recolour and list labels by name', async () => {
    const label = await createLabel('Zeta VIP', '#ff0000');
    expect(label).toMatchObject({ name: 'Zeta VIP', color: '#ff0000', ticketCount: 0, contactCount: 0 });
    const changed = await t.call<LabelDto>('PUT', `/api/labels/${label.id}`, { token: t.admin, body: { name: 'Zeta Gold', color: '#00ff00' } });
    expect(changed.body).toMatchObject({ id: label.id, name: 'Zeta Gold', color: '#00ff00' });
    const onlyColour = await t.call<LabelDto>('PUT', `/api/labels/${label.id}`, { token: t.admin, body: { color: '#0000ff' } });
    expect(onlyColour.body).toMatchObject({ name: 'Zeta Gold', color: '#0000ff' });
    const list = await t.call<LabelDto[]>('GET', '/api/labels', { token: t.user });
    expect(list.status).toBe(200);
    const names = list.body.map((l) => l.name);
    expect(names).toContain('Zeta Gold');
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
  });

  it('takes a name of 1–30 characters and a colour like a queue’s', async () => {
    const empty = await t.call('POST', '/api/labels', { token: t.admin, body: { name: '  ' } });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'name', message: 'Required' }] });
    const long = await t.call('POST', '/api/labels', { token: t.admin, body: { name: 'x'.repeat(31) } });
    expect(long.body).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'name', message: 'Too Long!' }] });
    const colour = await t.call('POST', '/api/labels', { token: t.admin, body: { name: 'Bad colour', color: 'red' } });
    expect(colour.status).toBe(400);
    expect(colour.body.issues[0].path).toBe('color');
    const one = await t.call<LabelDto>('POST', '/api/labels', { token: t.admin, body: { name: 'A' } });
    expect(one.status).toBe(201);
    expect(one.body.color).toMatch(/^#[0-9A-F]{6}$/i);
    const thirty = await t.call('POST', '/api/labels', { token: t.admin, body: { name: 'y'.repeat(30) } });
    expect(thirty.status).toBe(201);
  });

  it('refuses a name already taken, ignoring case, with 409 ERR_DUPLICATED_LABEL', async () => {
    const first = await createLabel('Urgent');
    const again = await t.call('POST', '/api/labels', { token: t.admin, body: { name: 'uRGENT' } });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('ERR_DUPLICATED_LABEL');
    const other = await createLabel('Later');
    const rename = await t.call('PUT', `/api/labels/${other.id}`, { token: t.admin, body: { name: 'URGENT' } });
    expect(rename.status).toBe(409);
    expect(rename.body.error).toBe('ERR_DUPLICATED_LABEL');
    // Its own name in another case is no conflict.
    const self = await t.call('PUT', `/api/labels/${first.id}`, { token: t.admin, body: { name: 'urgent' } });
    expect(self.status).toBe(200);
    // Two at once: the unique index decides, one wins.
    const race = await Promise.all([1, 2].map(() => t.call('POST', '/api/labels', { token: t.admin, body: { name: 'Raced' } })));
    expect(race.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  it('answers 404 ERR_NO_LABEL_FOUND for a label that does not exist', async () => {
    const put = await t.call('PUT', '/api/labels/999999', { token: t.admin, body: { name: 'Nope' } });
    expect(put.status).toBe(404);
    expect(put.body.error).toBe('ERR_NO_LABEL_FOUND');
    const del = await t.call('DELETE', '/api/labels/999999', { token: t.admin });
    expect(del.status).toBe(404);
  });

  it('lets attendants read labels but not manage them', async () => {
    const label = await createLabel();
    expect((await t.call('GET', '/api/labels', { token: member })).status).toBe(200);
    for (const [method, url, body] of [
      ['POST', '/api/labels', { name: 'By attendant' }],
      ['PUT', `/api/labels/${label.id}`, { name: 'Renamed by attendant' }],
      ['DELETE', `/api/labels/${label.id}`, undefined],
    ] as const) {
      const res = await t.call(method, url, { token: member, body });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect((await t.call('GET', '/api/labels')).status).toBe(401);
    const list = await t.call<LabelDto[]>('GET', '/api/labels', { token: t.admin });
    expect(list.body.find((l) => l.id === label.id)?.name).toBe(label.name);
  });
});

describe('labels on tickets', () => {
  it('sets, replaces and clears the labels of a ticket; the DTO carries them by name', async () => {
    const [b, a] = [await createLabel('Tk beta', '#00AA00'), await createLabel('Tk alpha', '#AA0000')];
    const ticket = await createTicket(queueQ);
    const set = await setTicketLabels(t.admin, ticket.id, [b.id, a.id, a.id]);
    expect(set.status).toBe(200);
    expect(set.body.labels).toEqual([
      { id: a.id, name: 'Tk alpha', color: '#AA0000' },
      { id: b.id, name: 'Tk beta', color: '#00AA00' },
    ]);
    // Labels alone do not move the ticket up the lists.
    expect(set.body.updatedAt).toBe(ticket.updatedAt);
    expect(set.body.status).toBe('pending');
    const got = await t.call<TicketDto>('GET', `/api/tickets/${ticket.id}`, { token: t.admin });
    expect(got.body.labels.map((l) => l.id)).toEqual([a.id, b.id]);
    const replaced = await setTicketLabels(t.admin, ticket.id, [b.id]);
    expect(replaced.body.labels.map((l) => l.id)).toEqual([b.id]);
    const cleared = await setTicketLabels(t.admin, ticket.id, []);
    expect(cleared.body.labels).toEqual([]);
    // Without labelIds they stay as they are.
    await setTicketLabels(t.admin, ticket.id, [a.id]);
    const other = await t.call<TicketDto>('PUT', `/api/tickets/${ticket.id}`, { token: t.admin, body: { status: 'open' } });
    expect(other.body.labels.map((l) => l.id)).toEqual([a.id]);
  });

  it('refuses an unknown label id with 400 and changes nothing', async () => {
    const label = await createLabel();
    const ticket = await createTicket(queueQ);
    await setTicketLabels(t.admin, ticket.id, [label.id]);
    const res = await t.call('PUT', `/api/tickets/${ticket.id}`, { token: t.admin, body: { labelIds: [label.id, 987654], status: 'open' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'labelIds' }] });
    const got = await t.call<TicketDto>('GET', `/api/tickets/${ticket.id}`, { token: t.admin });
    expect(got.body.labels.map((l) => l.id)).toEqual([label.id]);
    expect(got.body.status).toBe('pending');
    const bad = await t.call('PUT', `/api/tickets/${ticket.id}`, { token: t.admin, body: { labelIds: 'x' } });
    expect(bad.status).toBe(400);
  });

  it("lets an attendant of the ticket's queue set its labels, and nobody outside it see or set them", async () => {
    const label = await createLabel();
    const ticket = await createTicket(queueQ);
    const byMember = await setTicketLabels(member, ticket.id, [label.id]);
    expect(byMember.status).toBe(200);
    expect(byMember.body.labels.map((l) => l.id)).toEqual([label.id]);

    const byOutsider = await setTicketLabels(outsider, ticket.id, []);
    expect(byOutsider.status).toBe(403);
    expect(byOutsider.body).toEqual({ error: 'ERR_NO_PERMISSION', message: expect.any(String) });
    expect((await t.call('GET', `/api/tickets/${ticket.id}`, { token: outsider })).status).toBe(403);
    const got = await t.call<TicketDto>('GET', `/api/tickets/${ticket.id}`, { token: t.admin });
    expect(got.body.labels.map((l) => l.id)).toEqual([label.id]);
    // Filtering by the label does not show them the ticket either.
    expect(await listIds(outsider, `status=pending&labelIds=[${label.id}]`)).not.toContain(ticket.id);
    expect(await listIds(member, `status=pending&labelIds=[${label.id}]`)).toEqual([ticket.id]);
  });

  it('sends the new labels in the ticket update event', async () => {
    const label = await createLabel();
    const ticket = await createTicket(queueQ);
    const socket = await t.socket(member);
    socket.emit('joinTickets', 'pending');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const event = nextEvent<{ action: string; ticket: TicketDto }>(socket, 'ticket');
    await setTicketLabels(t.admin, ticket.id, [label.id]);
    const { action, ticket: sent } = await event;
    expect(action).toBe('update');
    expect(sent.id).toBe(ticket.id);
    expect(sent.labels).toEqual([{ id: label.id, name: label.name, color: label.color }]);
    socket.disconnect();
  });
});

describe('GET /api/tickets?labelIds=', () => {
  it('lists the tickets carrying any of the labels, with the other filters', async () => {
    const [red, blue, green] = [await createLabel(), await createLabel(), await createLabel()];
    const onlyRed = await createTicket(queueQ);
    const redBlue = await createTicket(queueR);
    const onlyBlue = await createTicket();
    const onlyGreen = await createTicket(queueQ);
    await setTicketLabels(t.admin, onlyRed.id, [red.id]);
    await setTicketLabels(t.admin, redBlue.id, [red.id, blue.id]);
    await setTicketLabels(t.admin, onlyBlue.id, [blue.id]);
    await setTicketLabels(t.admin, onlyGreen.id, [green.id]);

    const sorted = (ids: number[]) => [...ids].sort((x, y) => x - y);
    expect(sorted(await listIds(t.admin, `showAll=true&labelIds=[${red.id}]`))).toEqual(sorted([onlyRed.id, redBlue.id]));
    expect(sorted(await listIds(t.admin, `showAll=true&labelIds=[${red.id},${blue.id}]`))).toEqual(sorted([onlyRed.id, redBlue.id, onlyBlue.id]));
    // With the queue filter (tickets without a queue are always in it) and the status.
    expect(sorted(await listIds(t.admin, `showAll=true&status=pending&queueIds=[${queueQ}]&labelIds=[${red.id},${blue.id}]`))).toEqual(
      sorted([onlyRed.id, onlyBlue.id]),
    );
    expect(await listIds(t.admin, `showAll=true&status=closed&labelIds=[${red.id}]`)).toEqual([]);
    const page = await t.call<TicketListResponse>('GET', `/api/tickets?showAll=true&labelIds=[${green.id}]`, { token: t.admin });
    expect(page.body).toMatchObject({ count: 1, hasMore: false });
    // A search keeps the label filter.
    const search = await listIds(t.admin, `searchParam=${encodeURIComponent(onlyRed.contact.name)}&labelIds=[${blue.id}]`);
    expect(search).toEqual([]);
    // An attendant sees only what they may see of it.
    expect(sorted(await listIds(member, `status=pending&labelIds=[${red.id},${blue.id}]`))).toEqual(sorted([onlyRed.id, onlyBlue.id]));
  });

  it('closes only the tickets of the label filter with Close all', async () => {
    const label = await createLabel();
    const labelled = await createTicket();
    const other = await createTicket();
    await setTicketLabels(t.admin, labelled.id, [label.id]);
    const res = await t.call<{ closed: number }>('POST', '/api/ticketsClosed', { token: t.admin, body: { showAll: true, labelIds: [label.id] } });
    expect(res.body.closed).toBe(1);
    expect((await t.call<TicketDto>('GET', `/api/tickets/${labelled.id}`, { token: t.admin })).body.status).toBe('closed');
    expect((await t.call<TicketDto>('GET', `/api/tickets/${other.id}`, { token: t.admin })).body.status).toBe('pending');
  });

  it('takes the ids as the parameter repeated too (labelIds=1&labelIds=2), and queueIds the same way', async () => {
    const [red, blue, green] = [await createLabel(), await createLabel(), await createLabel()];
    const onlyRed = await createTicket(queueQ);
    const onlyBlue = await createTicket(queueR);
    const onlyGreen = await createTicket(queueQ);
    await setTicketLabels(t.admin, onlyRed.id, [red.id]);
    await setTicketLabels(t.admin, onlyBlue.id, [blue.id]);
    await setTicketLabels(t.admin, onlyGreen.id, [green.id]);
    const sorted = (ids: number[]) => [...ids].sort((x, y) => x - y);
    const bracketed = sorted(await listIds(t.admin, `showAll=true&labelIds=[${red.id},${blue.id}]`));
    expect(bracketed).toEqual(sorted([onlyRed.id, onlyBlue.id]));
    expect(sorted(await listIds(t.admin, `showAll=true&labelIds=${red.id}&labelIds=${blue.id}`))).toEqual(bracketed);
    expect(sorted(await listIds(t.admin, `showAll=true&labelIds=[${red.id}]&labelIds=${blue.id}`))).toEqual(bracketed);
    expect(await listIds(t.admin, `showAll=true&labelIds=${green.id}`)).toEqual([onlyGreen.id]);
    expect(sorted(await listIds(t.admin, `showAll=true&queueIds=${queueQ}&queueIds=${queueR}&labelIds=${red.id}&labelIds=${blue.id}`))).toEqual(bracketed);
    expect(await listIds(t.admin, `showAll=true&queueIds=${queueR}&labelIds=${red.id}&labelIds=${blue.id}`)).toEqual([onlyBlue.id]);
    // An attendant of Q, repeated or bracketed alike: only what they may see.
    expect(await listIds(member, `status=pending&labelIds=${red.id}&labelIds=${blue.id}`)).toEqual(await listIds(member, `status=pending&labelIds=[${red.id},${blue.id}]`));
    expect(await listIds(member, `status=pending&labelIds=${blue.id}`)).toEqual([]);
  });

  it('refuses a labelIds that is not a JSON list of ids', async () => {
    for (const query of ['labelIds=red', 'labelIds=1,2', 'labelIds=', 'labelIds=1&labelIds=red', 'labelIds=[1.5]', 'queueIds=1&queueIds=x']) {
      const res = await t.call('GET', `/api/tickets?${query}`, { token: t.admin });
      expect(res.status, query).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
  });
});

describe('labels on contacts', () => {
  it('sets the labels of a contact through PUT /api/contacts/:id; the contact and its tickets carry them', async () => {
    const [vip, lead] = [await createLabel('Ct VIP'), await createLabel('Ct lead')];
    const ticket = await createTicket(queueQ);
    const contact = ticket.contact;
    const res = await t.call<ContactDto>('PUT', `/api/contacts/${contact.id}`, {
      token: member,
      body: { name: contact.name, number: contact.number, email: '', labelIds: [vip.id, lead.id] },
    });
    expect(res.status).toBe(200);
    expect(res.body.labels.map((l) => l.name)).toEqual(['Ct lead', 'Ct VIP']);
    const got = await t.call<ContactDto>('GET', `/api/contacts/${contact.id}`, { token: t.user });
    expect(got.body.labels.map((l) => l.id)).toEqual([lead.id, vip.id]);
    const listed = await t.call<{ contacts: ContactDto[] }>('GET', `/api/contacts?searchParam=${contact.number}`, { token: t.admin });
    expect(listed.body.contacts[0]!.labels.map((l) => l.id)).toEqual([lead.id, vip.id]);
    const ofTicket = await t.call<TicketDto>('GET', `/api/tickets/${ticket.id}`, { token: t.admin });
    expect(ofTicket.body.contact.labels.map((l) => l.id)).toEqual([lead.id, vip.id]);
    expect(ofTicket.body.labels).toEqual([]);
    // Without labelIds the labels stay; an unknown one is refused and nothing changes.
    const kept = await t.call<ContactDto>('PUT', `/api/contacts/${contact.id}`, { token: t.admin, body: { name: 'Renamed', number: contact.number, email: '' } });
    expect(kept.body.labels).toHaveLength(2);
    const unknown = await t.call('PUT', `/api/contacts/${contact.id}`, { token: t.admin, body: { name: 'Again', number: contact.number, email: '', labelIds: [424242] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.issues[0].path).toBe('labelIds');
    const after = await t.call<ContactDto>('GET', `/api/contacts/${contact.id}`, { token: t.admin });
    expect(after.body).toMatchObject({ name: 'Renamed', labels: [{ id: lead.id }, { id: vip.id }] });
  });
});

describe('DELETE /api/labels/:id', () => {
  it('removes the label from every ticket and contact, tells every client, and the counts said how many carried it', async () => {
    const label = await createLabel();
    const keep = await createLabel();
    const first = await createTicket(queueQ);
    const second = await createTicket(queueR);
    await setTicketLabels(t.admin, first.id, [label.id, keep.id]);
    await setTicketLabels(t.admin, second.id, [label.id]);
    await t.call('PUT', `/api/contacts/${first.contact.id}`, { token: t.admin, body: { name: first.contact.name, number: first.contact.number, email: '', labelIds: [label.id] } });
    const listed = await t.call<LabelDto[]>('GET', '/api/labels', { token: t.admin });
    expect(listed.body.find((l) => l.id === label.id)).toMatchObject({ ticketCount: 2, contactCount: 1 });

    const socket = await t.socket(outsider);
    const event = nextEvent<{ action: string; labelId: number }>(socket, 'label');
    const res = await t.call('DELETE', `/api/labels/${label.id}`, { token: t.admin });
    expect(res.status).toBe(200);
    expect(await event).toEqual({ action: 'delete', labelId: label.id });
    socket.disconnect();

    expect((await t.call<TicketDto>('GET', `/api/tickets/${first.id}`, { token: t.admin })).body.labels.map((l) => l.id)).toEqual([keep.id]);
    expect((await t.call<TicketDto>('GET', `/api/tickets/${second.id}`, { token: t.admin })).body.labels).toEqual([]);
    expect((await t.call<ContactDto>('GET', `/api/contacts/${first.contact.id}`, { token: t.admin })).body.labels).toEqual([]);
    expect(await listIds(t.admin, `showAll=true&labelIds=[${label.id}]`)).toEqual([]);
  });
});
