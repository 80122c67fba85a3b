import {
  GROUP_FIELDS_ALERT,
  type GroupActionDto,
  type GroupActionItemListResponse,
  type GroupActionStartedResponse,
  type SimulatorGroupDto,
  type WhatsappDto,
} from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectedSimulator, inbound, outbox, phoneNumbers, queryRows, withAttendantTools } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { useTestApp } from '../../test/test-app.js';

// The 5–15 s start delay and the pause between groups are configuration: short here, but still there.
const START_DELAY = { min: 300, max: 600 };
const t = useTestApp({ admin: true, user: true, config: { groupActionDelayMs: START_DELAY, groupActionPauseMs: { min: 0, max: 0 } } });
const nextNumber = phoneNumbers(70_000, 1);
let apiToken = '';

beforeAll(async () => {
  const settings = await t.call<{ key: string; value: string }[]>('GET', '/api/settings', { token: t.admin });
  apiToken = settings.body.find((s) => s.key === 'userApiToken')!.value;
});

/** A connected simulator with groups made on its phone; answers the connection and the groups' ids. */
async function phoneWithGroups(groups: { subject: string; participants: string[]; description?: string }[]): Promise<{ connection: WhatsappDto; ids: string[] }> {
  const connection = await connectedSimulator(t);
  const ids: string[] = [];
  for (const group of groups) {
    const res = await t.call<{ id: string }>('POST', `/api/simulator/${connection.id}/groups`, { token: t.admin, body: group });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.id).toMatch(/^\d+@g\.us$/);
    ids.push(res.body.id);
  }
  return { connection, ids };
}

async function simulatorGroups(whatsappId: number): Promise<SimulatorGroupDto[]> {
  return (await t.call<SimulatorGroupDto[]>('GET', `/api/simulator/${whatsappId}/groups`, { token: t.admin })).body;
}

async function start(whatsappId: number, body: Record<string, unknown>): Promise<GroupActionStartedResponse> {
  const res = await t.call<GroupActionStartedResponse>('POST', '/api/groups/actions', { token: t.admin, body: { whatsappId, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function action(id: number): Promise<GroupActionDto> {
  return (await t.call<GroupActionDto>('GET', `/api/groups/actions/${id}`, { token: t.admin })).body;
}

async function finished(id: number, ms = 20_000): Promise<GroupActionDto> {
  return eventually(async () => {
    const a = await action(id);
    return a.status === 'done' ? a : null;
  }, ms, `group action ${id} done`);
}

async function items(id: number) {
  return (await t.call<GroupActionItemListResponse>('GET', `/api/groups/actions/${id}/items`, { token: t.admin })).body.items;
}

async function actionCount(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(t, sql`select count(*)::int as n from group_actions`);
  return Number(row!.n);
}

describe('group actions (issue 13)', () => {
  it('updates the title and the description of every group, with an outcome per group', async () => {
    const { connection, ids } = await phoneWithGroups([
      { subject: 'Turma A', participants: [nextNumber()] },
      { subject: 'Turma B', participants: [nextNumber()], description: 'old' },
    ]);
    // A group the phone is in without being an admin of it: WhatsApp refuses the change.
    await inbound(t, connection.id, { from: nextNumber(), body: 'Oi', groupId: '120363555000000001', groupName: 'Not mine' });

    const started = await start(connection.id, { action: 'update', subject: 'Clientes VIP', description: 'Avisos da loja' });
    expect(started.jobId).toMatch(/^[0-9a-f-]{36}$/);
    expect(started.groupAction).toMatchObject({ kind: 'update', status: 'queued', total: 0, done: 0 });
    const done = await finished(started.groupAction.id);
    expect(done).toMatchObject({ status: 'done', total: 3, done: 3, failed: 1 });

    const groups = await simulatorGroups(connection.id);
    for (const id of ids) expect(groups.find((g) => g.id === id)).toMatchObject({ subject: 'Clientes VIP', description: 'Avisos da loja' });
    expect(groups.find((g) => g.id === '120363555000000001@g.us')).toMatchObject({ subject: 'Not mine' });
    const outcomes = await items(started.groupAction.id);
    expect(outcomes.map((i) => [i.label, i.status])).toEqual(
      expect.arrayContaining([
        ['Turma A', 'done'],
        ['Turma B', 'done'],
        ['Not mine', 'failed'],
      ]),
    );
    expect(outcomes.find((i) => i.status === 'failed')!.error).toMatch(/not an admin/);
  });

  it('updates only the description when only it is filled, and starts after the random delay', async () => {
    const { connection, ids } = await phoneWithGroups([{ subject: 'Revendedores', participants: [nextNumber()] }]);
    const started = await start(connection.id, { action: 'update', description: 'Tabela nova' });
    const done = await finished(started.groupAction.id);
    expect(Date.parse(done.startedAt!) - Date.parse(done.createdAt)).toBeGreaterThanOrEqual(START_DELAY.min - 50);
    expect((await simulatorGroups(connection.id)).find((g) => g.id === ids[0])).toMatchObject({ subject: 'Revendedores', description: 'Tabela nova' });
  });

  it('creates a group with a title and participants, one number per line', async () => {
    const connection = await connectedSimulator(t);
    const [a, b] = [nextNumber(), nextNumber()];
    const started = await start(connection.id, { action: 'create', title: 'Nova turma', participants: `${a}\n\n+${b}\n${a}` });
    const done = await finished(started.groupAction.id);
    expect(done).toMatchObject({ total: 1, done: 1, failed: 0 });
    const [item] = await items(started.groupAction.id);
    expect(item).toMatchObject({ target: 'Nova turma', status: 'done' });
    const created = (await simulatorGroups(connection.id)).find((g) => g.id === item!.result);
    expect(created).toMatchObject({ subject: 'Nova turma', announce: false });
    expect(created!.participants).toEqual(expect.arrayContaining([a, b]));
    expect(created!.participants).toHaveLength(3); // the phone itself, a, b

    const bad = await t.call('POST', '/api/groups/actions', { token: t.admin, body: { whatsappId: connection.id, action: 'create', title: 'X', participants: 'abc' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'participants' }] });
  });

  it('closes every group with FECHAR (admins only send) and opens them again with ABRIR', async () => {
    const { connection, ids } = await phoneWithGroups([
      { subject: 'Aulas 1', participants: [nextNumber()] },
      { subject: 'Aulas 2', participants: [nextNumber()] },
    ]);
    await finished((await start(connection.id, { action: 'close', confirmation: 'FECHAR' })).groupAction.id);
    expect((await simulatorGroups(connection.id)).filter((g) => ids.includes(g.id)).map((g) => g.announce)).toEqual([true, true]);
    await finished((await start(connection.id, { action: 'open', confirmation: ' ABRIR ' })).groupAction.id);
    expect((await simulatorGroups(connection.id)).filter((g) => ids.includes(g.id)).map((g) => g.announce)).toEqual([false, false]);
  });

  it('sends a message in every group', async () => {
    const { connection, ids } = await phoneWithGroups([
      { subject: 'Loja Centro', participants: [nextNumber()] },
      { subject: 'Loja Norte', participants: [nextNumber()] },
    ]);
    const started = await start(connection.id, { action: 'message', message: 'Promoção de hoje' });
    expect(await finished(started.groupAction.id)).toMatchObject({ total: 2, done: 2, failed: 0 });
    const sent = (await outbox(t, connection.id)).filter((e) => e.body === 'Promoção de hoje').map((e) => e.to);
    expect(sent.sort()).toEqual([...ids].sort());
  });

  it('messages every participant privately once, skipping its own number and repeats, never closer than the minimum interval', { timeout: 30_000 }, async () => {
    const [a, b, c] = [nextNumber(), nextNumber(), nextNumber()];
    const { connection } = await phoneWithGroups([
      { subject: 'Grupo 1', participants: [a, b] },
      { subject: 'Grupo 2', participants: [b, c] },
    ]);
    const socket = await t.socket(t.admin);
    const progress: string[] = [];
    socket.on('groupAction', (e: { groupAction: GroupActionDto }) => progress.push(`${e.groupAction.done}/${e.groupAction.total}`));

    const started = await start(connection.id, { action: 'privateMessage', message: 'Olá, participante!', minInterval: 1, maxInterval: 1 });
    const done = await finished(started.groupAction.id);
    // The phone's own number is in both groups; b is in both.
    expect(done).toMatchObject({ total: 3, done: 3, failed: 0, skipped: 3 });

    const sent = (await outbox(t, connection.id)).filter((e) => e.body === 'Olá, participante!');
    expect(sent.map((e) => e.to)).toEqual([a, b, c]);
    const times = sent.map((e) => Date.parse((e as unknown as { createdAt: string }).createdAt));
    for (let i = 1; i < times.length; i += 1) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(1000);
    expect((await items(started.groupAction.id)).map((i) => [i.target, i.label, i.status])).toEqual([
      [a, 'Grupo 1', 'done'],
      [b, 'Grupo 1', 'done'],
      [c, 'Grupo 2', 'done'],
    ]);
    await eventually(async () => progress.includes('3/3'), 3000, 'progress 3/3 over the socket');
    expect(progress).toContain('1/3');
  });

  it('cancels an action under way: nothing more is sent', { timeout: 30_000 }, async () => {
    const list = [nextNumber(), nextNumber(), nextNumber(), nextNumber()];
    const { connection } = await phoneWithGroups([{ subject: 'Grande', participants: list }]);
    const started = await start(connection.id, { action: 'privateMessage', message: 'Cancelável', minInterval: 2, maxInterval: 2 });
    await eventually(async () => (await action(started.groupAction.id)).done >= 1, 10_000, 'first message');
    const cancelled = await t.call<GroupActionDto>('POST', `/api/groups/actions/${started.groupAction.id}/cancel`, { token: t.admin });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    const held = cancelled.body.done;
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect((await outbox(t, connection.id)).filter((e) => e.body === 'Cancelável')).toHaveLength(held);
    expect(held).toBeLessThan(4);
    expect((await items(started.groupAction.id)).filter((i) => i.status === 'pending').length).toBe(4 - held);
    const again = await t.call('POST', `/api/groups/actions/${started.groupAction.id}/cancel`, { token: t.admin });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('ERR_GROUP_ACTION_STATE');
  });

  it('cancels an action still waiting for its start delay: it never starts', async () => {
    const { connection, ids } = await phoneWithGroups([{ subject: 'Espera', participants: [nextNumber()] }]);
    const started = await start(connection.id, { action: 'update', subject: 'Nunca' });
    expect((await t.call('POST', `/api/groups/actions/${started.groupAction.id}/cancel`, { token: t.admin })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, START_DELAY.max + 800));
    expect(await action(started.groupAction.id)).toMatchObject({ status: 'cancelled', total: 0, done: 0 });
    expect((await simulatorGroups(connection.id)).find((g) => g.id === ids[0])!.subject).toBe('Espera');
  });

  it('runs nothing unless exactly the fitting fields are filled (400 ERR_GROUP_ACTION_FIELDS with the alert)', async () => {
    const connection = await connectedSimulator(t);
    const before = await actionCount();
    const wrong: Record<string, unknown>[] = [
      { action: 'update' },
      { action: 'update', subject: '   ' },
      { action: 'update', subject: 'T', message: 'also a message' },
      { action: 'create', title: 'Only a title' },
      { action: 'create', participants: '5511987654321' },
      { action: 'create', title: 'T', participants: '5511987654321', description: 'd' },
      { action: 'open' },
      { action: 'open', confirmation: 'abrir' },
      { action: 'open', confirmation: 'FECHAR' },
      { action: 'close', confirmation: 'ABRIR' },
      { action: 'close', confirmation: 'FECHAR', subject: 'x' },
      { action: 'message' },
      { action: 'message', message: 'm', minInterval: 1, maxInterval: 2 },
      { action: 'privateMessage', message: 'm' },
      { action: 'privateMessage', message: 'm', minInterval: 5, maxInterval: 2 },
      { action: 'privateMessage', minInterval: 1, maxInterval: 2 },
    ];
    for (const body of wrong) {
      const res = await t.call('POST', '/api/groups/actions', { token: t.admin, body: { whatsappId: connection.id, ...body } });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body, JSON.stringify(body)).toMatchObject({ error: 'ERR_GROUP_ACTION_FIELDS', message: GROUP_FIELDS_ALERT });
      expect(res.body.issues.length).toBeGreaterThan(0);
    }
    expect(await actionCount()).toBe(before);
  });

  it('is refused to attendants (403) while attendantTools leaves groups out', async () => {
    const connection = await connectedSimulator(t);
    const body = { whatsappId: connection.id, action: 'message', message: 'x' };
    const before = await actionCount();
    await withAttendantTools(t, 'bulk,schedules', async () => {
      for (const [method, url] of [
        ['POST', '/api/groups/actions'],
        ['GET', '/api/groups/actions'],
        ['GET', `/api/groups?whatsappId=${connection.id}`],
      ] as const) {
        const res = await t.call(method, url, { token: t.user, body: method === 'POST' ? body : undefined });
        expect(res.status, url).toBe(403);
        expect(res.body.error).toBe('ERR_NO_PERMISSION');
      }
    });
    expect(await actionCount()).toBe(before);
  });

  it('lists the groups of a connection', async () => {
    const { connection, ids } = await phoneWithGroups([{ subject: 'Listada', participants: [nextNumber(), nextNumber()], description: 'desc' }]);
    const res = await t.call('GET', `/api/groups?whatsappId=${connection.id}`, { token: t.admin });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ id: ids[0], subject: 'Listada', description: 'desc', participants: 3, announce: false }]);
  });

  it('shows group messages as group tickets (the Group tab of the tickets manager)', async () => {
    const connection = await connectedSimulator(t);
    const ticket = await inbound(t, connection.id, { from: nextNumber(), name: 'Ana', body: 'Bom dia, grupo', groupId: '120363777000000001', groupName: 'Clientes' });
    expect(ticket.isGroup).toBe(true);
    const list = await t.call('GET', '/api/tickets?isGroup=true&showAll=true&status=pending', { token: t.admin });
    expect(list.body.tickets.map((x: { id: number }) => x.id)).toContain(ticket.id);
    const privateList = await t.call('GET', '/api/tickets?isGroup=false&showAll=true&status=pending', { token: t.admin });
    expect(privateList.body.tickets.map((x: { id: number }) => x.id)).not.toContain(ticket.id);
  });
});

describe('group actions through the send API (§7)', () => {
  /** Polls the job, slowly: the API token's calls are limited to 120 a minute. */
  async function jobOf(jobId: string): Promise<{ state: string; output: Record<string, unknown> }> {
    for (let i = 0; i < 40; i += 1) {
      const job = await t.call<{ state: string; output: Record<string, unknown> }>('GET', `/api/jobs/${jobId}`, { token: apiToken });
      expect(job.status).toBe(200);
      if (job.body.state === 'completed') return job.body;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    throw new Error(`job ${jobId} not completed`);
  }

  async function call(path: string, body: Record<string, unknown>) {
    const res = await t.call<{ jobId: string; groupActionId: number }>('POST', path, { body });
    expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(202);
    expect(res.body.jobId).toMatch(/^[0-9a-f-]{36}$/);
    const job = await jobOf(res.body.jobId);
    expect(job.output).toMatchObject({ groupActionId: res.body.groupActionId });
    return { ...res.body, job, action: await finished(res.body.groupActionId) };
  }

  it('runs the six calls with the API token: 202 { jobId }, the job readable at GET /api/jobs/:id', { timeout: 60_000 }, async () => {
    const [a, b] = [nextNumber(), nextNumber()];
    const { connection, ids } = await phoneWithGroups([{ subject: 'API', participants: [a] }]);
    const base = { token: apiToken, ticketwhatsappId: connection.id };

    const subject = await call('/api/zdgGroups', { ...base, subject: 'Título pela API' });
    expect(subject.job.output).toMatchObject({ outcome: 'item', status: 'done', target: ids[0] });
    await call('/api/zdgGroupsDescription', { ...base, description: 'Descrição pela API' });
    expect((await simulatorGroups(connection.id)).find((g) => g.id === ids[0])).toMatchObject({ subject: 'Título pela API', description: 'Descrição pela API' });

    const created = await call('/api/zdgGroupsCreate', { ...base, title: 'Criado pela API', contact: `${a},${b}` });
    const [item] = await items(created.groupActionId);
    const newGroup = (await simulatorGroups(connection.id)).find((g) => g.id === item!.result)!;
    expect(newGroup.subject).toBe('Criado pela API');
    expect(newGroup.participants).toEqual(expect.arrayContaining([a, b]));

    await call('/api/zdgCloseGroup', base);
    expect((await simulatorGroups(connection.id)).every((g) => g.announce)).toBe(true);
    await call('/api/zdgOpenGroup', base);
    expect((await simulatorGroups(connection.id)).every((g) => !g.announce)).toBe(true);

    const inGroups = await call('/api/zdgGroupsMessage', { ...base, newMessageGroup: 'Mensagem nos grupos' });
    expect(inGroups.action).toMatchObject({ kind: 'message', total: 2, done: 2 });
    const toGroups = (await outbox(t, connection.id)).filter((e) => e.body === 'Mensagem nos grupos').map((e) => e.to);
    expect(toGroups.sort()).toEqual([ids[0], newGroup.id].sort());

    const privately = await call('/api/zdgGroupsMessage', { ...base, newMessAgeGroupNasa: 'Mensagem privada', minInterval: 0, maxInterval: 0 });
    expect(privately.action).toMatchObject({ kind: 'privateMessage', total: 2, done: 2, skipped: 3 });
    expect((await outbox(t, connection.id)).filter((e) => e.body === 'Mensagem privada').map((e) => e.to)).toEqual([a, b]);
  });

  it('takes 5–15 s between private messages when the call names no interval', async () => {
    const { connection } = await phoneWithGroups([{ subject: 'Padrão', participants: [nextNumber()] }]);
    const res = await t.call<{ groupActionId: number }>('POST', '/api/zdgGroupsMessage', {
      body: { token: apiToken, ticketwhatsappId: connection.id, newMessAgeGroupNasa: 'Devagar' },
    });
    expect(res.status).toBe(202);
    expect(await action(res.body.groupActionId)).toMatchObject({ minInterval: 5, maxInterval: 15 });
    await t.call('POST', `/api/groups/actions/${res.body.groupActionId}/cancel`, { token: t.admin });
  });

  it('answers 401 ERR_INVALID_API_TOKEN to a wrong or missing token, and 400 to wrong fields; nothing runs', async () => {
    const { connection } = await phoneWithGroups([{ subject: 'Intocado', participants: [nextNumber()] }]);
    const before = await actionCount();
    const calls: [string, Record<string, unknown>][] = [
      ['/api/zdgGroups', { subject: 'x' }],
      ['/api/zdgGroupsDescription', { description: 'x' }],
      ['/api/zdgGroupsCreate', { title: 'x', contact: '5511987654321' }],
      ['/api/zdgGroupsMessage', { newMessageGroup: 'x' }],
      ['/api/zdgOpenGroup', {}],
      ['/api/zdgCloseGroup', {}],
    ];
    for (const [path, body] of calls) {
      for (const token of ['wrong', undefined]) {
        const res = await t.call('POST', path, { ip: '10.13.0.1', body: { ...body, token, ticketwhatsappId: connection.id } });
        expect(res.status, `${path} ${token}`).toBe(401);
        expect(res.body.error).toBe('ERR_INVALID_API_TOKEN');
      }
      const user = await t.call('POST', path, { token: t.user, body: { ...body, ticketwhatsappId: connection.id } });
      expect(user.status, path).toBe(403);
    }
    const fields: [string, Record<string, unknown>][] = [
      ['/api/zdgGroups', {}],
      ['/api/zdgGroupsDescription', { description: '  ' }],
      ['/api/zdgGroupsCreate', { title: 'Sem contatos' }],
      ['/api/zdgGroupsMessage', {}],
      ['/api/zdgGroupsMessage', { newMessageGroup: 'a', newMessAgeGroupNasa: 'b' }],
      ['/api/zdgGroupsMessage', { newMessageGroup: 'a', minInterval: 1 }],
    ];
    for (const [path, body] of fields) {
      const res = await t.call('POST', path, { body: { ...body, token: apiToken, ticketwhatsappId: connection.id } });
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.error).toBe('ERR_GROUP_ACTION_FIELDS');
    }
    expect(await actionCount()).toBe(before);
    expect((await simulatorGroups(connection.id))[0]!.subject).toBe('Intocado');
  });
});
