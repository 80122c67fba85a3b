import type { Server as HttpServer } from 'node:http';
import {
  isAdmin,
  type AttendantTool,
  isPublicSetting,
  type ClientToServerEvents,
  type JoinAck,
  type MessageDto,
  type ServerToClientEvents,
  type TicketDto,
  type UserDto,
} from '@wadesk/contracts';
import { Server, type Socket } from 'socket.io';
import type { DomainEvents, TicketPlace } from '../events/domain-events.js';
import type { AuthService } from '../modules/auth/auth.service.js';
import type { AuthUser } from '../modules/auth/auth-user.js';
import { OUTREACH_TOOL } from '../modules/outreach/outreach.service.js';
import { masked } from '../modules/settings/settings.service.js';
import { whatsappForViewer } from '../modules/whatsapp/whatsapp.service.js';

export interface SocketData {
  user: AuthUser;
  /** When the access token the socket last authenticated with expires (ms since the epoch). */
  expiresAt: number;
  /** The user's last password change (ms) when the socket authenticated: a newer one ends the socket. */
  validAfter: number | null;
  /** The user's queues (non-admins), kept by ticket-realtime.ts to decide who receives ticket events. */
  queueIds?: number[];
  /**
   * The socket joined a channel (notification, a tickets status, a chat box): from then on it hears of tickets
   * through its channels only (ticket-realtime.ts); before, as if it had joined notification.
   */
  subscribed?: boolean;
}

/**
 * What one process tells the others (several processes on one PostgreSQL, decision 0020): the domain events
 * whose audience is decided socket by socket. Each process applies the checks to its own sockets.
 */
export interface InterServerEvents {
  userSessions(e: { user: UserDto }): void;
  userTickets(e: { user: UserDto }): void;
  ticketUpdated(e: { ticket: TicketDto; previous?: TicketPlace }): void;
  ticketRead(e: { ticket: TicketDto }): void;
  ticketDeleted(e: { ticket: TicketDto }): void;
  ticketMessage(e: { action: 'create' | 'update'; message: MessageDto; ticket: TicketDto }): void;
  /** Jobs of `queue` queued for the process that runs these connections, due at `at` (ms since the epoch). */
  routedJobs(e: { queue: string; whatsappIds: number[]; at: number }): void;
}

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/** Servers whose events cross processes (the PostgreSQL adapter): see realtime/cluster-adapter.ts. */
const clustered = new WeakSet<RealtimeServer>();

export function markClustered(io: RealtimeServer): void {
  clustered.add(io);
}

/**
 * A handler run on every process: here at once, on the others when the adapter brings them the event. For
 * what is decided per socket (who may still see a ticket, whose session a change ends): each process decides
 * for its own sockets and emits to them only (`io.local`), so a socket gets each event once, from its process.
 */
export function onEveryProcess<E extends keyof InterServerEvents>(
  io: RealtimeServer,
  event: E,
  handle: (e: Parameters<InterServerEvents[E]>[0]) => void,
): (e: Parameters<InterServerEvents[E]>[0]) => void {
  const listen = io.on.bind(io) as (ev: string, listener: (e: Parameters<InterServerEvents[E]>[0]) => void) => void;
  listen(event, handle);
  return (e) => {
    handle(e);
    if (clustered.has(io)) (io.serverSideEmit as (ev: string, e: unknown) => boolean)(event, e);
  };
}

/** Rooms: every signed-in socket, admins, each user's own room, and each sign-in's (refresh token family). */
export const rooms = {
  everyone: 'authenticated',
  admins: 'admins',
  nonAdmins: 'non-admins',
  notification: 'notification',
  user: (id: number) => `user:${id}`,
  session: (id: string) => `session:${id}`,
};

/** Longest delay setTimeout takes; a later expiry is re-armed when it fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** A socket is told `session` `expiring` this long before its access token expires (at once when less is left). */
export const EXPIRY_NOTICE_MS = 60_000;

/** Answers a client's acknowledgement, when it asked for one (a client may send anything in its place). */
export function answer(ack: unknown, result: Parameters<JoinAck>[0]): void {
  if (typeof ack === 'function') (ack as JoinAck)(result);
}

/** This process's sockets in a room. */
export function localSockets(io: RealtimeServer, room: string): AppSocket[] {
  const ids = io.sockets.adapter.rooms.get(room);
  if (!ids) return [];
  return [...ids].flatMap((id) => {
    const socket = io.sockets.sockets.get(id);
    return socket ? [socket] : [];
  });
}

type Authenticated = Exclude<Awaited<ReturnType<AuthService['authenticate']>>, { error: unknown }>;

/** What the socket knows of its sign-in: at the handshake and at every `authenticate`. */
function bindSession(socket: AppSocket, session: Authenticated): void {
  socket.data.user = session.user;
  socket.data.expiresAt = session.expiresAt;
  socket.data.validAfter = session.validAfter;
}

function bearer(raw: unknown): string {
  return typeof raw === 'string' ? raw.replace(/^Bearer\s+/i, '') : '';
}

/**
 * Socket.IO at /socket.io: the handshake must carry a valid access token in its `auth` (never in the query), and
 * a socket lives only as long as its token: a minute before it expires the socket is told `session` `expiring`; when
 * it expires, `session` `expired` and it is disconnected, unless the client sent a fresh one with `authenticate`
 * { token } before (the socket then keeps its channels). A logout ends the sockets of that sign-in (docs/api.md).
 */
export function createSocketServer(httpServer: HttpServer, auth: AuthService, corsOrigins: string[] = []): RealtimeServer {
  const io: RealtimeServer = new Server(httpServer, {
    path: '/socket.io',
    serveClient: false,
    // CORS_ORIGINS: a separately served front end may connect (polling carries credentials); no one else.
    cors: corsOrigins.length > 0 ? { origin: corsOrigins, credentials: true } : { origin: false },
  });

  io.use((socket, next) => {
    // From the handshake's `auth` only: a token in the query string would be written to proxies' access logs.
    const token = bearer((socket.handshake.auth as { token?: unknown } | undefined)?.token);
    if (!token) {
      next(new Error('ERR_SESSION_EXPIRED'));
      return;
    }
    auth.authenticate(token).then(
      (result) => {
        if ('error' in result) {
          next(new Error('ERR_SESSION_EXPIRED'));
          return;
        }
        // An admin who must turn on two-factor sign-in first (mfaRequiredForAdmins) gets no socket until it is on.
        if (result.mfaSetupRequired) {
          next(new Error('ERR_MFA_SETUP_REQUIRED'));
          return;
        }
        bindSession(socket, result);
        next();
      },
      (err: unknown) => next(err instanceof Error ? err : new Error('ERR_INTERNAL')),
    );
  });

  io.on('connection', (socket) => {
    const user = socket.data.user;
    void socket.join([rooms.everyone, rooms.user(user.id), isAdmin(user) ? rooms.admins : rooms.nonAdmins]);
    // The room of its sign-in (refresh token family), which a logout closes.
    if (user.sessionId) void socket.join(rooms.session(user.sessionId));

    let expiry: NodeJS.Timeout | undefined;
    let notice: NodeJS.Timeout | undefined;
    /** The expiry the socket was last told of: each token's `expiring` is sent once. */
    let noticeSentFor: number | undefined;
    const tellExpiring = () => {
      const expiresAt = socket.data.expiresAt;
      if (noticeSentFor === expiresAt) return;
      noticeSentFor = expiresAt;
      socket.emit('session', { action: 'expiring', expiresAt: new Date(expiresAt).toISOString() });
    };
    const armExpiry = () => {
      clearTimeout(expiry);
      clearTimeout(notice);
      const left = socket.data.expiresAt - Date.now();
      if (left <= 0) {
        // Sent before the disconnect packet, on the same connection: the client hears why.
        socket.emit('session', { action: 'expired' });
        socket.disconnect(true);
        return;
      }
      const untilNotice = left - EXPIRY_NOTICE_MS;
      if (untilNotice <= 0) tellExpiring();
      else notice = setTimeout(tellExpiring, Math.min(untilNotice, MAX_TIMER_MS));
      expiry = setTimeout(armExpiry, Math.min(left, MAX_TIMER_MS));
    };
    armExpiry();
    socket.on('disconnect', () => {
      clearTimeout(expiry);
      clearTimeout(notice);
    });

    socket.on('authenticate', (payload, ack) => {
      const token = bearer((payload as { token?: unknown } | null | undefined)?.token);
      if (!token) {
        answer(ack, { ok: false, error: 'ERR_VALIDATION' });
        return;
      }
      auth.authenticate(token).then(
        (result) => {
          if (!socket.connected) return;
          if ('error' in result) {
            answer(ack, { ok: false, error: 'ERR_SESSION_EXPIRED' });
            return;
          }
          if (result.user.id !== socket.data.user.id) {
            answer(ack, { ok: false, error: 'ERR_NO_PERMISSION' });
            return;
          }
          if (result.user.profile !== socket.data.user.profile) {
            // The role changed: the socket's rooms are stale, the client reconnects.
            socket.disconnect(true);
            return;
          }
          if (result.mfaSetupRequired) {
            // mfaRequiredForAdmins was turned on meanwhile: no socket until two-factor sign-in is on (the handshake refuses).
            socket.disconnect(true);
            return;
          }
          const signIn = socket.data.user.sessionId;
          bindSession(socket, result);
          // A token of another sign-in of the same user: the socket now ends with that one.
          if (signIn !== result.user.sessionId) {
            if (signIn) void socket.leave(rooms.session(signIn));
            if (result.user.sessionId) void socket.join(rooms.session(result.user.sessionId));
          }
          armExpiry();
          answer(ack, { ok: true });
        },
        () => answer(ack, { ok: false, error: 'ERR_INTERNAL' }),
      );
    });

    socket.on('joinNotification', (ack) => {
      socket.data.subscribed = true;
      void socket.join(rooms.notification);
      answer(ack, { ok: true });
    });
    // Ticket rooms (joinTickets, joinChatBox, leaveChatBox) are handled in ticket-realtime.ts.
  });

  // A logout (or a stolen refresh token's family being ended) closes the live connections of that sign-in only: the
  // user's other browsers stay. Told first, on the same connections, so the clients sign in again rather than retry.
  auth.onSessionEnded(({ sessionId }) => {
    io.to(rooms.session(sessionId)).emit('session', { action: 'ended' });
    io.in(rooms.session(sessionId)).disconnectSockets(true);
  });

  return io;
}

/** Turns domain events into socket messages for the sockets allowed to see them. */
export function registerRealtimeListener(
  io: RealtimeServer,
  events: DomainEvents,
  auth: AuthService,
  attendantTools: () => Promise<ReadonlySet<AttendantTool>>,
): void {
  /**
   * A tool's record (bulk send, group action, outreach batch, scheduled message, history import): the admins, and its
   * author while attendantTools opens the tool to attendants (issue 32). Sent one after the other, in the order
   * the services announced them, since deciding reads the setting.
   */
  let toolEvents = Promise.resolve();
  const toAdminsAndAuthor = (tool: AttendantTool, authorId: number | null, send: (to: ReturnType<RealtimeServer['to']>) => void) => {
    toolEvents = toolEvents.then(async () => {
      const open = authorId !== null && (await attendantTools().catch(() => new Set<AttendantTool>())).has(tool);
      send(io.to(open ? [rooms.admins, rooms.user(authorId)] : [rooms.admins]));
    });
  };
  // A changed role or password ends the user's connections (on every process); they reconnect with a token checked afresh.
  const endStaleSessions = onEveryProcess(io, 'userSessions', ({ user }) => {
    const sockets = localSockets(io, rooms.user(user.id));
    const roleChanged = sockets.filter((socket) => socket.data.user.profile !== user.profile);
    for (const socket of roleChanged) socket.disconnect(true);
    if (sockets.length === roleChanged.length) return;
    auth.tokensValidAfter(user.id).then(
      (validAfter) => {
        for (const socket of localSockets(io, rooms.user(user.id))) {
          if (validAfter === undefined || socket.data.validAfter !== validAfter) socket.disconnect(true);
        }
      },
      () => undefined,
    );
  });
  events.on('user.saved', ({ user, created }) => {
    const payload = { action: created ? ('create' as const) : ('update' as const), user };
    io.to([rooms.admins, rooms.user(user.id)]).emit('user', payload);
    if (!created) endStaleSessions({ user });
  });
  events.on('user.deleted', ({ userId }) => {
    io.to([rooms.admins, rooms.user(userId)]).emit('user', { action: 'delete', userId });
    io.in(rooms.user(userId)).disconnectSockets(true);
  });
  events.on('setting.updated', ({ setting }) => {
    // Secrets masked even for admins: a secret never goes back to a browser in full.
    io.to(rooms.admins).emit('settings', { action: 'update', setting: masked(setting) });
    if (isPublicSetting(setting.key)) io.to(rooms.nonAdmins).emit('settings', { action: 'update', setting });
  });
  events.on('queue.saved', ({ queue, created }) => {
    io.to(rooms.everyone).emit('queue', { action: created ? 'create' : 'update', queue });
  });
  events.on('queue.deleted', ({ queueId }) => io.to(rooms.everyone).emit('queue', { action: 'delete', queueId }));
  events.on('label.saved', ({ label, created }) => {
    io.to(rooms.everyone).emit('label', { action: created ? 'create' : 'update', label });
  });
  events.on('label.deleted', ({ labelId }) => io.to(rooms.everyone).emit('label', { action: 'delete', labelId }));
  events.on('contact.saved', ({ contact, created }) => {
    io.to(rooms.everyone).emit('contact', { action: created ? 'create' : 'update', contact });
  });
  events.on('contact.deleted', ({ contactId }) => io.to(rooms.everyone).emit('contact', { action: 'delete', contactId }));
  events.on('quickAnswer.saved', ({ quickAnswer, created }) => {
    io.to(rooms.everyone).emit('quickAnswer', { action: created ? 'create' : 'update', quickAnswer });
  });
  events.on('quickAnswer.deleted', ({ quickAnswerId }) =>
    io.to(rooms.everyone).emit('quickAnswer', { action: 'delete', quickAnswerId }),
  );
  // A pending QR code pairs a phone with the desk, and a Cloud API connection's settings hold its verify token: admins
  // only (decision 0009, issue 31); others get the connection without them, as GET /api/whatsapp answers them.
  events.on('whatsapp.saved', ({ whatsapp }) => {
    io.to(rooms.admins).emit('whatsapp', { action: 'update', whatsapp });
    io.to(rooms.nonAdmins).emit('whatsapp', { action: 'update', whatsapp: whatsappForViewer(whatsapp, false) });
  });
  events.on('whatsapp.deleted', ({ whatsappId }) =>
    io.to(rooms.everyone).emit('whatsapp', { action: 'delete', whatsappId }),
  );
  // The tools' progress: their author and the admins, as the records themselves (issues 12, 13, 14, 16, 32).
  events.on('campaign.updated', ({ campaign }) => {
    toAdminsAndAuthor('bulk', campaign.userId, (to) => to.emit('campaign', { action: 'update', campaign }));
  });
  events.on('groupAction.updated', ({ groupAction }) => {
    toAdminsAndAuthor('groups', groupAction.userId, (to) => to.emit('groupAction', { action: 'update', groupAction }));
  });
  events.on('outreach.updated', ({ batch }) => {
    toAdminsAndAuthor(OUTREACH_TOOL[batch.channel], batch.userId, (to) => to.emit('outreach', { action: 'update', batch }));
  });
  events.on('schedule.saved', ({ schedule, created }) => {
    toAdminsAndAuthor('schedules', schedule.userId, (to) => to.emit('schedule', { action: created ? 'create' : 'update', schedule }));
  });
  events.on('historyImport.updated', ({ historyImport }) => {
    toAdminsAndAuthor('history', historyImport.userId, (to) => to.emit('historyImport', { action: 'update', historyImport }));
  });
  // A ticket handed to a colleague: that colleague only (they are its assignee now, so they may see it).
  events.on('ticket.transferred', ({ ticket, by, toUserId }) => {
    io.to(rooms.user(toUserId)).emit('ticketTransfer', { action: 'create', ticket, by });
  });
  // A ticket automatic assignment gave to someone: that user only (they are its assignee now, so they may see it).
  events.on('ticket.assigned', ({ ticket, toUserId }) => {
    io.to(rooms.user(toUserId)).emit('ticketAssigned', { action: 'create', ticket });
  });
  // A note naming colleagues (issue 36 §1): each of them only; the notes service checked that each may see the ticket.
  events.on('message.mentioned', ({ ticket, message, from, excerpt, userIds }) => {
    const payload = { action: 'create' as const, ticketId: ticket.id, messageId: message.id, from, excerpt, contactName: ticket.contact.name };
    for (const userId of userIds) io.to(rooms.user(userId)).emit('mention', payload);
  });
  events.on('whatsapp.session', ({ session }) => {
    io.to(rooms.admins).emit('whatsappSession', { action: 'update', session });
    io.to(rooms.nonAdmins).emit('whatsappSession', { action: 'update', session: { ...session, qrcode: '' } });
  });
}
