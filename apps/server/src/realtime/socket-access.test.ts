import type { CampaignDto, ClientEventName, GroupActionDto, HistoryImportDto, MessageDto, OutreachDto, ScheduleDto, ServerEventName, TicketDto, UserDto, WhatsappDto } from '@wadesk/contracts';
import { SignJWT } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DomainEventMap, DomainEventName } from '../events/domain-events.js';
import { connectedSimulator, createQueue, inbound } from '../test/desk-factories.js';
import { useTestApp } from '../test/test-app.js';
import { CLIENT_EVENT_ACCESS, HANDSHAKE_REFUSALS, SERVER_EVENT_ACCESS, SOCKET_ACTORS, type SocketActor } from './socket-access.expected.js';

/** The signed-in actors (the anonymous one never gets past the handshake). */
type SignedIn = Exclude<SocketActor, 'anonymous'>;
const SIGNED_IN: SignedIn[] = ['queueMember', 'outsider', 'admin'];

const t = useTestApp();
let queueQ: number;
let connection: WhatsappDto;
let ticket: TicketDto;
let message: MessageDto;
let anotherUser: UserDto;
const actors = {} as Record<SignedIn, { user: UserDto | null; token: string; socket: Socket; received: string[] }>;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function actor(token: string, user: UserDto | null) {
  const socket = await t.socket(token);
  const received: string[] = [];
  socket.onAny((event: string) => received.push(event));
  return { user, token, socket, received };
}

beforeAll(async () => {
  queueQ = await createQueue(t, 'Access Q');
  const queueR = await createQueue(t, 'Access R');
  connection = await connectedSimulator(t, { queueIds: [queueQ] });
  ticket = await inbound(t, connection.id, { from: '5511966660001', body: 'quero ajuda' });
  const admin = await t.adminToken();
  message = (await t.call('GET', `/api/messages/${ticket.id}`, { token: admin })).body.messages[0] as MessageDto;
  const member = await t.createUser({ queueIds: [queueQ] });
  const outsider = await t.createUser({ queueIds: [queueR] });
  anotherUser = (await t.createUser()).user;
  actors.queueMember = await actor(member.token, member.user);
  actors.outsider = await actor(outsider.token, outsider.user);
  actors.admin = await actor(admin, null);
  await pause(300); // queue rooms are joined after the handshake
});

function emit<E extends DomainEventName>(name: E, payload: DomainEventMap[E]): void {
  t.app.services.events.emit(name, payload);
}

const now = new Date().toISOString();
const OFFICE_HOURS = { timeZone: 'America/Sao_Paulo', days: [{ weekday: 1, start: '09:00', end: '18:00' }], holidays: [] };

/** How each situation of the expected table is brought about (the domain event a service would emit). */
const SITUATIONS: Record<ServerEventName, Record<string, () => void>> = {
  ticket: {
    'a ticket of queue Q': () => emit('ticket.updated', { ticket }),
    'a ticket without a queue': () => emit('ticket.updated', { ticket: { ...ticket, queueId: null, queue: null } }),
    'a ticket of queue Q given labels (issue 36 §2)': () =>
      emit('ticket.updated', { ticket: { ...ticket, labels: [{ id: 1, name: 'VIP', color: '#1273DE' }] } }),
    'a ticket of queue Q marked arrived out of hours (issue 36 §3)': () => emit('ticket.updated', { ticket: { ...ticket, arrivedOutOfHours: true } }),
    'a ticket of queue Q rated by its contact, with a comment (CSAT, issue 36 §5)': () =>
      emit('ticket.updated', { ticket: { ...ticket, status: 'closed', csat: { rating: 4, comment: 'obrigado', at: now } } }),
  },
  ticketTransfer: {
    'a ticket transferred to the queue member': () =>
      emit('ticket.transferred', { ticket, by: { id: anotherUser.id, name: anotherUser.name }, toUserId: actors.queueMember.user!.id }),
  },
  ticketAssigned: {
    'a ticket automatic assignment gave the queue member': () => emit('ticket.assigned', { ticket, toUserId: actors.queueMember.user!.id }),
  },
  mention: {
    'a note of a ticket of queue Q naming the queue member': () =>
      emit('message.mentioned', {
        ticket,
        message: { ...message, private: true },
        from: { id: anotherUser.id, name: anotherUser.name },
        excerpt: 'see this',
        userIds: [actors.queueMember.user!.id],
      }),
  },
  appMessage: {
    'a message of a ticket of queue Q': () => emit('message.created', { message, ticket }),
    'a private note of a ticket of queue Q (issue 36 §1)': () =>
      emit('message.created', { message: { ...message, private: true, fromMe: true, body: 'nota interna' }, ticket }),
  },
  contact: { 'a contact saved': () => emit('contact.saved', { contact: ticket.contact, created: false }) },
  whatsapp: {
    'a connection saved': () => emit('whatsapp.saved', { whatsapp: connection }),
    "a connection's default schedule and out-of-hours message saved (issue 36 §3)": () =>
      emit('whatsapp.saved', { whatsapp: { ...connection, businessHours: OFFICE_HOURS, outOfHoursMessage: 'Fechado' } }),
  },
  whatsappSession: {
    'a connection status': () =>
      emit('whatsapp.session', { session: { id: connection.id, status: 'CONNECTED', qrcode: '', retries: 0, updatedAt: now } }),
  },
  user: {
    'another user saved': () => emit('user.saved', { user: anotherUser, created: false }),
    "the queue member's own record saved": () => emit('user.saved', { user: actors.queueMember.user!, created: false }),
  },
  settings: {
    'a public setting (option or text)': () => emit('setting.updated', { setting: { key: 'userCreation', value: 'enabled' } }),
    "the satisfaction survey's switch or message (csatEnabled, csatMessage; issue 36 §5)": () =>
      emit('setting.updated', { setting: { key: 'csatMessage', value: 'Nota de 1 a 5?' } }),
    'a secret setting': () => emit('setting.updated', { setting: { key: 'emailPass', value: 'not-for-users' } }),
  },
  quickAnswer: {
    'a quick answer saved': () =>
      emit('quickAnswer.saved', { quickAnswer: { id: 1, shortcut: 'oi', message: 'Olá!', createdAt: now, updatedAt: now }, created: true }),
  },
  queue: {
    'a queue saved': () => emit('queue.saved', { queue: ticket.queue!, created: false }),
    "a queue's business hours, out-of-hours message or autoAssign saved (issue 36 §3, §4)": () =>
      emit('queue.saved', { queue: { ...ticket.queue!, businessHours: OFFICE_HOURS, outOfHoursMessage: 'Fechado', autoAssign: true }, created: false }),
  },
  label: {
    'a label saved': () =>
      emit('label.saved', { label: { id: 1, name: 'VIP', color: '#1273DE', ticketCount: 0, contactCount: 0, createdAt: ticket.createdAt, updatedAt: ticket.createdAt }, created: true }),
    'a label deleted': () => emit('label.deleted', { labelId: 1 }),
  },
  campaign: {
    "a campaign of the queue member's": () => emit('campaign.updated', { campaign: campaignOf(actors.queueMember.user!.id) }),
    "another user's campaign": () => emit('campaign.updated', { campaign: campaignOf(anotherUser.id) }),
  },
  groupAction: {
    "a group action of the queue member's": () => emit('groupAction.updated', { groupAction: groupActionOf(actors.queueMember.user!.id) }),
    "another user's group action": () => emit('groupAction.updated', { groupAction: groupActionOf(anotherUser.id) }),
  },
  outreach: {
    "an SMS batch of the queue member's": () => emit('outreach.updated', { batch: batchOf(actors.queueMember.user!.id) }),
    'an SMS batch of the send API': () => emit('outreach.updated', { batch: batchOf(null) }),
  },
  schedule: {
    "a scheduled message of the queue member's": () => emit('schedule.saved', { schedule: scheduleOf(actors.queueMember.user!.id), created: true }),
    "another user's scheduled message": () => emit('schedule.saved', { schedule: scheduleOf(anotherUser.id), created: false }),
  },
  historyImport: {
    "a history import of the queue member's": () => emit('historyImport.updated', { historyImport: historyImportOf(actors.queueMember.user!.id) }),
    'a history import of the send API': () => emit('historyImport.updated', { historyImport: historyImportOf(null) }),
  },
  session: {
    // A token with less than a minute left is told `expiring` at once; the member's own token is handed back after.
    "the queue member's access token about to expire": () => {
      const member = actors.queueMember;
      void (async () => {
        await ack(member.socket, 'authenticate', { token: await tokenExpiringIn(member.user!.id, 30) });
        await ack(member.socket, 'authenticate', { token: member.token });
      })();
    },
  },
};

function groupActionOf(userId: number): GroupActionDto {
  return {
    id: 1, kind: 'message', status: 'running', whatsappId: connection.id, whatsappName: connection.name, userId, userName: null,
    subject: null, description: null, title: null, message: 'Aviso', minInterval: 0, maxInterval: 0, total: 3, done: 1, failed: 0,
    unknown: 0, skipped: 0, nextRunAt: now, lastError: null, createdAt: now, updatedAt: now, startedAt: now, finishedAt: null,
  };
}

function batchOf(userId: number | null): OutreachDto {
  return {
    id: 1, channel: 'sms', status: 'running', userId, userName: null, sender: 'Desk', text: 'Aviso', language: null, total: 3, done: 1,
    failed: 0, unknown: 0, lastError: null, createdAt: now, finishedAt: null,
  };
}

function historyImportOf(userId: number | null): HistoryImportDto {
  return {
    id: 1, status: 'running', whatsappId: connection.id, whatsappName: connection.name, userId, userName: null, contactNumber: null,
    limit: 50, chatsTotal: 3, chatsDone: 1, messagesImported: 50, messagesSkipped: 0, ticketsCreated: 1, ticketsJoined: 0, groupsSkipped: 0, olderRequested: 0,
    lastError: null, createdAt: now, updatedAt: now, startedAt: now, finishedAt: null,
  };
}

function scheduleOf(userId: number): ScheduleDto {
  return {
    id: 1, status: 'scheduled', whatsappId: connection.id, whatsappName: connection.name, contactId: ticket.contact.id,
    contactName: ticket.contact.name, number: ticket.contact.number, body: 'Lembrete', mediaUrl: null, template: null, sendAt: now, userId,
    userName: null, error: null, messageId: null, ticketId: null, sentAt: null, late: false, createdAt: now, updatedAt: now,
  };
}

function campaignOf(userId: number): CampaignDto {
  return {
    id: 1, kind: 'text', status: 'running', whatsappId: connection.id, whatsappName: connection.name, userId, userName: null,
    message: 'Promoção', url: null, title: null, path: null, minInterval: 0, maxInterval: 1, template: null, total: 2, sent: 1, failed: 0,
    unknown: 0, invalid: 0, nextSendAt: now, lastError: null, createdAt: now, updatedAt: now, startedAt: now, finishedAt: null,
  };
}

/** An access token of the user that expires in `seconds`. */
function tokenExpiringIn(userId: number, seconds: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(userId))
    .setIssuedAt(now)
    .setExpirationTime(now + seconds)
    .sign(new TextEncoder().encode(t.app.config.jwtSecret));
}

const ack = (socket: Socket, event: string, ...args: unknown[]) =>
  new Promise<{ ok: boolean; error?: string }>((resolve) => socket.emit(event, ...args, resolve));

/** How each client request is tried; 'allowed' when the server grants it. */
const ATTEMPTS: Record<ClientEventName, (a: (typeof actors)[SignedIn]) => Promise<'allowed' | 'refused'>> = {
  joinNotification: async (a) => ((await ack(a.socket, 'joinNotification')).ok ? 'allowed' : 'refused'),
  joinTickets: async (a) => ((await ack(a.socket, 'joinTickets', 'open')).ok ? 'allowed' : 'refused'),
  joinChatBox: async (a) => ((await ack(a.socket, 'joinChatBox', ticket.id)).ok ? 'allowed' : 'refused'),
  leaveChatBox: async (a) => {
    await ack(a.socket, 'joinChatBox', ticket.id);
    a.socket.emit('leaveChatBox', ticket.id);
    await pause(100);
    const inRoom = await t.app.io.in(`ticket:${ticket.id}`).fetchSockets();
    return a.socket.connected && !inRoom.some((s) => s.id === a.socket.id) ? 'allowed' : 'refused';
  },
  authenticate: async (a) => ((await ack(a.socket, 'authenticate', { token: a.token })).ok ? 'allowed' : 'refused'),
};

/** The handshake's answer to `auth`: 'connected' or the connect_error's message. */
async function handshake(auth: Record<string, string>): Promise<string> {
  const url = await t.listen();
  const socket = connectSocket(url, { path: '/socket.io', auth, transports: ['websocket'], reconnection: false });
  const answer = await new Promise<string>((resolve) => {
    socket.once('connect_error', (err) => resolve(err.message));
    socket.once('connect', () => resolve('connected'));
  });
  socket.disconnect();
  return answer;
}

/** How each identity of HANDSHAKE_REFUSALS tries to connect. */
const HANDSHAKES: Record<keyof typeof HANDSHAKE_REFUSALS, () => Promise<string>> = {
  'no token': () => handshake({}),
  'a malformed token': () => handshake({ token: 'not.a.jwt' }),
  "the mfaToken of a sign-in's password step": async () => {
    const { user, token, password } = await t.createUser();
    const setup = await t.call<{ uri: string }>('POST', '/api/auth/mfa/setup', { token });
    const secret = Secret.fromBase32(new URL(setup.body.uri).searchParams.get('secret')!);
    const enable = await t.call('POST', '/api/auth/mfa/enable', { token, body: { code: new TOTP({ secret, digits: 6, period: 30 }).generate() } });
    expect(enable.status).toBe(200);
    const login = await t.call<{ error: string; mfaToken: string }>('POST', '/api/auth/login', { body: { email: user.email, password } });
    expect(login.body.error).toBe('ERR_MFA_REQUIRED');
    return handshake({ token: login.body.mfaToken });
  },
  'an admin who must still turn on two-factor sign-in (mfaRequiredForAdmins)': async () => {
    const admin = await t.createUser({ profile: 'admin' });
    expect(await handshake({ token: admin.token })).toBe('connected');
    await t.app.services.settings.update('mfaRequiredForAdmins', 'enabled');
    try {
      return await handshake({ token: admin.token });
    } finally {
      await t.app.services.settings.update('mfaRequiredForAdmins', 'disabled');
    }
  },
};

describe('socket authorization table (socket-access.expected.ts)', () => {
  it('refuses at the handshake every identity of HANDSHAKE_REFUSALS (the anonymous actor), with its error', async () => {
    expect(Object.keys(HANDSHAKES).sort()).toEqual(Object.keys(HANDSHAKE_REFUSALS).sort());
    for (const [identity, error] of Object.entries(HANDSHAKE_REFUSALS)) {
      expect(await HANDSHAKES[identity as keyof typeof HANDSHAKE_REFUSALS](), identity).toBe(error);
    }
    // So the table can only say "no" for the anonymous socket.
    for (const situations of Object.values(SERVER_EVENT_ACCESS)) {
      for (const receivers of Object.values(situations)) expect(receivers.anonymous).toBe(false);
    }
    for (const verdicts of Object.values(CLIENT_EVENT_ACCESS)) expect(verdicts.anonymous).toBe('refused');
  });

  it('has a situation for every entry of the table, and an entry for every situation', () => {
    const keys = (table: Record<string, Record<string, unknown>>) =>
      Object.entries(table).flatMap(([event, cases]) => Object.keys(cases).map((c) => `${event}: ${c}`)).sort();
    expect(keys(SITUATIONS)).toEqual(keys(SERVER_EVENT_ACCESS));
    expect(Object.keys(ATTEMPTS).sort()).toEqual(Object.keys(CLIENT_EVENT_ACCESS).sort());
  });

  for (const [event, situations] of Object.entries(SERVER_EVENT_ACCESS)) {
    for (const [situation, expected] of Object.entries(situations)) {
      it(`server → client '${event}', ${situation}: ${SOCKET_ACTORS.filter((a) => expected[a]).join(', ') || 'nobody'}`, async () => {
        for (const name of SIGNED_IN) actors[name].received.length = 0;
        SITUATIONS[event as ServerEventName][situation]!();
        await pause(250);
        const got = Object.fromEntries(SIGNED_IN.map((name) => [name, actors[name].received.includes(event)]));
        expect({ anonymous: false, ...got }).toEqual(expected);
        // Every event any socket got is one the table knows.
        for (const name of SIGNED_IN) for (const e of actors[name].received) expect(Object.keys(SERVER_EVENT_ACCESS)).toContain(e);
      });
    }
  }

  for (const [event, expected] of Object.entries(CLIENT_EVENT_ACCESS)) {
    it(`client → server '${event}': allowed for ${SOCKET_ACTORS.filter((a) => expected[a] === 'allowed').join(', ')}`, async () => {
      const got: Record<string, string> = { anonymous: 'refused' };
      for (const name of SIGNED_IN) got[name] = await ATTEMPTS[event as ClientEventName](actors[name]);
      expect(got).toEqual(expected);
    });
  }

  it('handles no client event missing from the table', () => {
    const reserved = new Set(['disconnect', 'disconnecting', 'error']);
    for (const name of SIGNED_IN) {
      const serverSocket = t.app.io.sockets.sockets.get(actors[name].socket.id!);
      expect(serverSocket).toBeDefined();
      const handled = serverSocket!.eventNames().map(String).filter((e) => !reserved.has(e));
      expect([...new Set(handled)].sort()).toEqual(Object.keys(CLIENT_EVENT_ACCESS).sort());
    }
  });
});
