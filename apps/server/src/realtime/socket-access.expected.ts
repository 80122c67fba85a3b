import type { ClientEventName, ServerEventName } from '@wadesk/contracts';

/**
 * Who may receive each server → client socket event and who may do each client → server event: the table
 * socket-access.test.ts checks the running server against. A new event needs an entry here (the types
 * demand one for every event of the contract, the test one for every handler the server registers).
 *
 * The actors: a socket without a valid token, a user in the ticket's queue (Q), a user of another queue only,
 * and an admin. "anonymous" is every socket the handshake refuses (HANDSHAKE_REFUSALS below).
 */
export const SOCKET_ACTORS = ['anonymous', 'queueMember', 'outsider', 'admin'] as const;
export type SocketActor = (typeof SOCKET_ACTORS)[number];

type Receivers = Record<SocketActor, boolean>;

const signedIn: Receivers = { anonymous: false, queueMember: true, outsider: true, admin: true };
const ticketOfQueue: Receivers = { anonymous: false, queueMember: true, outsider: false, admin: true };
const adminsOnly: Receivers = { anonymous: false, queueMember: false, outsider: false, admin: true };

/**
 * Server → client: for each event, the situations it is sent in and who receives it in each. Issue 36's features each
 * have their lines: notes (appMessage), mentions (mention), labels (label, ticket), business hours (queue, whatsapp,
 * ticket), automatic assignment (ticketAssigned, queue), CSAT (settings, ticket); its reports (§6) send no event.
 */
export const SERVER_EVENT_ACCESS: Record<ServerEventName, Record<string, Receivers>> = {
  ticket: {
    'a ticket of queue Q': ticketOfQueue,
    'a ticket without a queue': signedIn,
    // Issue 36: what its features add to a ticket travels in the ticket's event, to whoever may see the ticket only.
    'a ticket of queue Q given labels (issue 36 §2)': ticketOfQueue,
    'a ticket of queue Q marked arrived out of hours (issue 36 §3)': ticketOfQueue,
    'a ticket of queue Q rated by its contact, with a comment (CSAT, issue 36 §5)': ticketOfQueue,
  },
  ticketTransfer: {
    'a ticket transferred to the queue member': { anonymous: false, queueMember: true, outsider: false, admin: false },
  },
  ticketAssigned: {
    'a ticket automatic assignment gave the queue member': { anonymous: false, queueMember: true, outsider: false, admin: false },
  },
  /** A note naming a colleague (issue 36 §1): that colleague only, who may see the ticket (outsiders are refused when it is written). */
  mention: {
    'a note of a ticket of queue Q naming the queue member': { anonymous: false, queueMember: true, outsider: false, admin: false },
  },
  appMessage: {
    'a message of a ticket of queue Q': ticketOfQueue,
    'a private note of a ticket of queue Q (issue 36 §1)': ticketOfQueue,
  },
  contact: { 'a contact saved': signedIn },
  whatsapp: {
    'a connection saved': signedIn,
    "a connection's default schedule and out-of-hours message saved (issue 36 §3)": signedIn,
  },
  whatsappSession: { 'a connection status': signedIn },
  user: {
    'another user saved': adminsOnly,
    "the queue member's own record saved": { anonymous: false, queueMember: true, outsider: false, admin: true },
  },
  settings: {
    'a public setting (option or text)': signedIn,
    "the satisfaction survey's switch or message (csatEnabled, csatMessage; issue 36 §5)": signedIn,
    'a secret setting': adminsOnly,
  },
  quickAnswer: { 'a quick answer saved': signedIn },
  queue: {
    'a queue saved': signedIn,
    "a queue's business hours, out-of-hours message or autoAssign saved (issue 36 §3, §4)": signedIn,
  },
  label: { 'a label saved': signedIn, 'a label deleted': signedIn },
  campaign: {
    "a campaign of the queue member's": { anonymous: false, queueMember: true, outsider: false, admin: true },
    "another user's campaign": adminsOnly,
  },
  /** The tools' records (issue 32): their author and the admins, while attendantTools opens the tool (its default). */
  groupAction: {
    "a group action of the queue member's": { anonymous: false, queueMember: true, outsider: false, admin: true },
    "another user's group action": adminsOnly,
  },
  outreach: {
    "an SMS batch of the queue member's": { anonymous: false, queueMember: true, outsider: false, admin: true },
    'an SMS batch of the send API': adminsOnly,
  },
  schedule: {
    "a scheduled message of the queue member's": { anonymous: false, queueMember: true, outsider: false, admin: true },
    "another user's scheduled message": adminsOnly,
  },
  historyImport: {
    "a history import of the queue member's": { anonymous: false, queueMember: true, outsider: false, admin: true },
    'a history import of the send API': adminsOnly,
  },
  /** Each socket hears of its own sign-in only. */
  session: {
    "the queue member's access token about to expire": { anonymous: false, queueMember: true, outsider: false, admin: false },
  },
};

type Verdict = 'allowed' | 'refused';
const everySignedIn: Record<SocketActor, Verdict> = {
  anonymous: 'refused',
  queueMember: 'allowed',
  outsider: 'allowed',
  admin: 'allowed',
};

/** Client → server requests: who may do each (anonymous sockets are refused at the handshake). */
export const CLIENT_EVENT_ACCESS: Record<ClientEventName, Record<SocketActor, Verdict>> = {
  joinNotification: everySignedIn,
  joinTickets: everySignedIn,
  /** The chat room of a ticket of queue Q. */
  joinChatBox: { anonymous: 'refused', queueMember: 'allowed', outsider: 'refused', admin: 'allowed' },
  leaveChatBox: everySignedIn,
  /** With a fresh token of the socket's own user. */
  authenticate: everySignedIn,
};

/**
 * Who gets no socket at all (the handshake's `connect_error` message): the "anonymous" of the tables above. With
 * two-factor sign-in (issue 37 §1) the password step's mfaToken is no access token, and an admin whom
 * mfaRequiredForAdmins holds to the set-up gets no socket until two-factor sign-in is on.
 */
export const HANDSHAKE_REFUSALS = {
  'no token': 'ERR_SESSION_EXPIRED',
  'a malformed token': 'ERR_SESSION_EXPIRED',
  "the mfaToken of a sign-in's password step": 'ERR_SESSION_EXPIRED',
  'an admin who must still turn on two-factor sign-in (mfaRequiredForAdmins)': 'ERR_MFA_SETUP_REQUIRED',
} as const;
