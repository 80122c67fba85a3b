import { sql } from 'drizzle-orm';
import type { MessageTemplate } from '@wadesk/contracts';
import {
  bigint,
  bigserial,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';

/**
 * An opening schedule (issue 36 §3): per weekday (0 = Sunday … 6 = Saturday) the open intervals as "HH:MM" wall-clock
 * times in `timeZone` (an IANA name); `holidays` are whole closed days as "YYYY-MM-DD" in that zone.
 */
export interface BusinessHours {
  timeZone: string;
  days: { weekday: number; start: string; end: string }[];
  holidays: string[];
}

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
};

export const queues = pgTable(
  'queues',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 50 }).notNull().unique('queues_name_unique'),
    /** Stored as given; '#ff0000' and '#FF0000' are one colour (unique on lower(color)). */
    color: varchar('color', { length: 9 }).notNull(),
    greetingMessage: text('greeting_message').notNull().default(''),
    /** Opening schedule (issue 36 §3): null = always open. */
    businessHours: jsonb('business_hours').$type<BusinessHours>(),
    outOfHoursMessage: text('out_of_hours_message').notNull().default(''),
    /** Hand new pending tickets to the least busy online attendant of the queue (issue 36 §4). */
    autoAssign: boolean('auto_assign').notNull().default(false),
    ...timestamps,
  },
  (t) => [uniqueIndex('queues_color_unique').on(sql`lower(${t.color})`)],
);

/** A WhatsApp (or other channel) connection: a "whatsapp" in the specification's API. */
/** The WhatsApp Cloud API's credentials of one connection (never read back in full). */
export interface CloudApiConfig {
  phoneNumberId: string;
  businessAccountId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
}

export const whatsapps = pgTable(
  'whatsapps',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 50 }).notNull(),
    channel: varchar('channel', { length: 20 }).notNull().default('baileys'),
    status: varchar('status', { length: 20 }).notNull().default('OPENING'),
    qrcode: text('qrcode').notNull().default(''),
    retries: integer('retries').notNull().default(0),
    isDefault: boolean('is_default').notNull().default(false),
    greetingMessage: text('greeting_message').notNull().default(''),
    farewellMessage: text('farewell_message').notNull().default(''),
    /** The device's own number once paired. */
    number: varchar('number', { length: 50 }),
    /** A `cloud-api` connection's credentials (issue 18); null on the other channels. */
    cloud: jsonb('cloud').$type<CloudApiConfig>(),
    /** The connection's default opening schedule, used before a queue is chosen (issue 36 §3): null = always open. */
    businessHours: jsonb('business_hours').$type<BusinessHours>(),
    outOfHoursMessage: text('out_of_hours_message').notNull().default(''),
    ...timestamps,
  },
  (t) => [uniqueIndex('whatsapps_one_default').on(t.isDefault).where(sql`${t.isDefault}`)],
);

export const whatsappQueues = pgTable(
  'whatsapp_queues',
  {
    whatsappId: integer('whatsapp_id')
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    queueId: integer('queue_id')
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.queueId] }), index('whatsapp_queues_queue_idx').on(t.queueId)],
);

/** Channel auth state (credentials, signal keys) per connection: never in files. */
export const channelAuthState = pgTable(
  'channel_auth_state',
  {
    whatsappId: integer('whatsapp_id')
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    key: varchar('key', { length: 300 }).notNull(),
    value: jsonb('value').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.key] })],
);

/** Which server process owns a connection's session (scale-out). */
export const connectionLeases = pgTable('connection_leases', {
  whatsappId: integer('whatsapp_id')
    .primaryKey()
    .references(() => whatsapps.id, { onDelete: 'cascade' }),
  ownerId: varchar('owner_id', { length: 100 }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
});

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 50 }).notNull(),
    email: varchar('email', { length: 254 }).notNull().unique('users_email_unique'),
    passwordHash: text('password_hash').notNull(),
    profile: varchar('profile', { length: 10 }).notNull().default('user'),
    whatsappId: integer('whatsapp_id').references(() => whatsapps.id, { onDelete: 'set null' }),
    /** Access tokens issued before this instant are refused (set when the password changes); null: none. */
    tokensValidAfter: timestamp('tokens_valid_after', { withTimezone: true, mode: 'date' }),
    /** Automatic assignment (issue 36 §4): at most this many open tickets (0 = no limit), and when the last came. */
    maxOpenTickets: integer('max_open_tickets').notNull().default(0),
    lastAssignedAt: timestamp('last_assigned_at', { withTimezone: true, mode: 'date' }),
    /** Two-factor sign-in (issue 37 §1): the TOTP secret (base32) once set up; on when `mfaEnabledAt` is set. */
    mfaSecret: text('mfa_secret'),
    mfaEnabledAt: timestamp('mfa_enabled_at', { withTimezone: true, mode: 'date' }),
    /** The last accepted TOTP time step: a code of this step or an earlier one is refused (no replay). */
    mfaLastStep: bigint('mfa_last_step', { mode: 'number' }),
    ...timestamps,
  },
  (t) => [index('users_name_unaccent_trgm_idx').using('gin', sql`f_unaccent(lower(${t.name})) gin_trgm_ops`)],
);

export const userQueues = pgTable(
  'user_queues',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    queueId: integer('queue_id')
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.queueId] }), index('user_queues_queue_idx').on(t.queueId)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: varchar('token_hash', { length: 128 }).notNull(),
    /** One sign-in: every rotation keeps it; reusing a rotated token revokes the whole family. */
    familyId: uuid('family_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('refresh_tokens_user_idx').on(t.userId), index('refresh_tokens_family_idx').on(t.familyId)],
);

/** Fixed-window counters for rate limits, shared by every server process. */
export const rateLimits = pgTable('rate_limits', {
  key: varchar('key', { length: 400 }).primaryKey(),
  count: integer('count').notNull().default(0),
  resetAt: timestamp('reset_at', { withTimezone: true, mode: 'date' }).notNull(),
});

export const contacts = pgTable(
  'contacts',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 200 }).notNull(),
    number: varchar('number', { length: 100 }).notNull().unique('contacts_number_unique'),
    email: varchar('email', { length: 254 }).notNull().default(''),
    profilePicUrl: text('profile_pic_url').notNull().default(''),
    isGroup: boolean('is_group').notNull().default(false),
    /**
     * The name as search compares it, ignoring case and accents (f_unaccent, the immutable wrapper of unaccent of
     * migration 0002), stored: a trigram index only finds candidates, and each is checked again against this text,
     * which folding on the fly did a few hundred times a search (issue 11).
     */
    nameFolded: text('name_folded').notNull().generatedAlwaysAs(sql`f_unaccent(lower(name))`),
    ...timestamps,
  },
  (t) => [
    index('contacts_name_lower_idx').on(sql`lower(${t.name})`),
    index('contacts_name_folded_trgm_idx').using('gin', sql`${t.nameFolded} gin_trgm_ops`),
    index('contacts_number_trgm_idx').using('gin', sql`${t.number} gin_trgm_ops`),
    index('contacts_email_trgm_idx').using('gin', sql`lower(${t.email}) gin_trgm_ops`),
  ],
);

export const contactCustomFields = pgTable(
  'contact_custom_fields',
  {
    id: serial('id').primaryKey(),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 100 }).notNull(),
    value: text('value').notNull().default(''),
    ...timestamps,
  },
  (t) => [index('contact_custom_fields_contact_idx').on(t.contactId)],
);

export const tickets = pgTable(
  'tickets',
  {
    id: serial('id').primaryKey(),
    status: varchar('status', { length: 10 }).notNull().default('pending'),
    unreadMessages: integer('unread_messages').notNull().default(0),
    lastMessage: text('last_message').notNull().default(''),
    /** When its newest message was created (null: none yet); kept by triggers on messages (migration 0015). */
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }),
    isGroup: boolean('is_group').notNull().default(false),
    protocol: varchar('protocol', { length: 40 }),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    whatsappId: integer('whatsapp_id')
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    queueId: integer('queue_id').references(() => queues.id, { onDelete: 'set null' }),
    /** Business hours (issue 36 §3): the conversation arrived while closed; when the out-of-hours notice went. */
    arrivedOutOfHours: boolean('arrived_out_of_hours').notNull().default(false),
    outOfHoursNoticeAt: timestamp('out_of_hours_notice_at', { withTimezone: true, mode: 'date' }),
    /** Reports (issue 36 §6): the first reply of an attendant, and when it was last resolved. */
    firstResponseAt: timestamp('first_response_at', { withTimezone: true, mode: 'date' }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true, mode: 'date' }),
    /** Customer satisfaction (issue 36 §5): when the survey was sent, and the contact's answer. */
    csatRequestedAt: timestamp('csat_requested_at', { withTimezone: true, mode: 'date' }),
    csatRating: integer('csat_rating'),
    csatComment: text('csat_comment'),
    csatAt: timestamp('csat_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('tickets_one_active_per_contact')
      .on(t.contactId, t.whatsappId)
      .where(sql`${t.status} in ('open', 'pending')`),
    // The lists (a status, inbox or groups, newest change first) read their page and count from this index.
    index('tickets_status_group_updated_idx').on(t.status, t.isGroup, t.updatedAt, t.id),
    // A search for a common word walks every ticket newest change first (decision 0012).
    index('tickets_updated_idx').on(t.updatedAt, t.id),
    index('tickets_queue_idx').on(t.queueId),
    index('tickets_user_idx').on(t.userId),
    // A contact's tickets, and a search's tickets by contact name from the ids alone (an index-only scan): with the
    // contact only, a name of 1,000 contacts was planned as a hash join over half the tickets' rows (issue 35).
    index('tickets_contact_idx').on(t.contactId, t.id),
    // The tickets search finds a ticket by its protocol number (issue 15).
    index('tickets_protocol_lower_idx').on(sql`lower(${t.protocol})`),
    // The dashboard's chart: today's tickets.
    index('tickets_created_idx').on(t.createdAt),
    // Reports (issue 36 §6, decision 0042): the tickets answered, resolved and rated in a period, each read from its
    // index alone (the columns a report groups by and measures follow the period's).
    index('tickets_first_response_idx')
      .on(t.firstResponseAt, t.userId, t.queueId, t.createdAt)
      .where(sql`${t.firstResponseAt} is not null`),
    index('tickets_resolved_idx').on(t.resolvedAt, t.userId, t.queueId, t.createdAt).where(sql`${t.resolvedAt} is not null`),
    index('tickets_csat_idx').on(t.csatAt, t.userId, t.queueId, t.csatRating).where(sql`${t.csatRating} is not null`),
    // A ticket's queue by its id without reading the ticket: the reports' messages per queue.
    index('tickets_report_queue_idx').on(t.id, t.queueId),
  ],
);

export const messages = pgTable(
  'messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The network's own message id. */
    channelMessageId: varchar('channel_message_id', { length: 200 }).notNull(),
    whatsappId: integer('whatsapp_id')
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    contactId: integer('contact_id').references(() => contacts.id, { onDelete: 'cascade' }),
    body: text('body').notNull().default(''),
    fromMe: boolean('from_me').notNull().default(false),
    read: boolean('read').notNull().default(false),
    isDeleted: boolean('is_deleted').notNull().default(false),
    mediaType: varchar('media_type', { length: 20 }),
    mediaUrl: text('media_url'),
    ack: integer('ack').notNull().default(0),
    quotedMsgId: bigint('quoted_msg_id', { mode: 'number' }),
    participantName: varchar('participant_name', { length: 200 }),
    sentByUserId: integer('sent_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Who wrote it: the contact, an attendant (or the device's owner), or the desk itself ('auto': greeting, menu, farewell, protocol). */
    senderKind: varchar('sender_kind', { length: 10 }).notNull().default('contact'),
    /** Length of a voice note or audio in seconds, when the network or the upload says it. */
    mediaDuration: integer('media_duration'),
    /** Why the network failed to deliver a sent message (a Cloud API `failed` status, issue 18); null otherwise. */
    sendError: text('send_error'),
    /**
     * Where a message the desk sent came from (decision 0029): null for one typed in the chat or received;
     * campaign, api, group-action, schedule (with originId), bot, system, phone.
     */
    origin: varchar('origin', { length: 20 }),
    originId: integer('origin_id'),
    /** An internal note (issue 36 §1): shown to the team, never sent to the channel. */
    private: boolean('private').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('messages_channel_id_unique').on(t.whatsappId, t.channelMessageId),
    index('messages_ticket_created_idx').on(t.ticketId, t.createdAt),
    // Reports (issue 36 §6, decision 0042): the messages attendants typed in a period, read from the index alone.
    index('messages_attendant_sent_idx')
      .on(t.createdAt, t.sentByUserId, t.ticketId)
      .where(sql`${t.senderKind} = 'user' and not ${t.private} and ${t.origin} is null and ${t.sentByUserId} is not null`),
  ],
);

/**
 * How many tickets each (status, is_group, queue, user) has: the lists' tab counts are summed from these rows and
 * `ticketCountChanges` instead of counting thousands of tickets a request (issue 11, decision 0024). Only ever
 * written by the database: triggers on tickets write each change to `ticketCountChanges`, which
 * `ticket_counts_fold()` (migration 0014) moves into these rows every few seconds (TicketCounts).
 */
export const ticketCounts = pgTable(
  'ticket_counts',
  {
    status: varchar('status', { length: 10 }).notNull(),
    isGroup: boolean('is_group').notNull(),
    queueId: integer('queue_id'),
    userId: integer('user_id'),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [unique('ticket_counts_key').on(t.status, t.isGroup, t.queueId, t.userId).nullsNotDistinct()],
);

/** Changes to `ticketCounts` not folded into it yet (+n and -n rows, written by triggers on tickets). */
export const ticketCountChanges = pgTable('ticket_count_changes', {
  status: varchar('status', { length: 10 }).notNull(),
  isGroup: boolean('is_group').notNull(),
  queueId: integer('queue_id'),
  userId: integer('user_id'),
  n: bigint('n', { mode: 'number' }).notNull(),
});

/** A PostgreSQL full-text vector (only ever written by the database: see ticketSearch). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * The words of each ticket's messages (lower case, no accents, no positions): ticket search finds the tickets
 * holding every word of the search as a word prefix through one GIN index, without reading a single message.
 * Kept by the database itself: a statement trigger on messages adds the words of every inserted message
 * (migration 0003, functions search_words and search_query; docs/decisions/0012-ticket-search.md).
 */
export const ticketSearch = pgTable(
  'ticket_search',
  {
    ticketId: integer('ticket_id')
      .primaryKey()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    words: tsvector('words').notNull(),
  },
  (t) => [index('ticket_search_words_idx').using('gin', t.words)],
);

/** What happened to a ticket (accepted, transferred, resolved, reopened, returned), shown between messages. */
export const ticketEvents = pgTable(
  'ticket_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 20 }).notNull(),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Names as they were at the time (the user or queue may be renamed or deleted later). */
    data: jsonb('data').notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('ticket_events_ticket_created_idx').on(t.ticketId, t.createdAt)],
);

export const quickAnswers = pgTable(
  'quick_answers',
  {
    id: serial('id').primaryKey(),
    shortcut: varchar('shortcut', { length: 50 }).notNull(),
    message: text('message').notNull(),
    ...timestamps,
  },
  (t) => [index('quick_answers_shortcut_lower_idx').on(sql`lower(${t.shortcut})`)],
);

export const settings = pgTable('settings', {
  key: varchar('key', { length: 100 }).primaryKey(),
  value: text('value').notNull().default(''),
  ...timestamps,
});

/** A bulk send (issue 12): its recipients are sent one at a time by the `campaign.step` job. */
export const campaigns = pgTable(
  'campaigns',
  {
    id: serial('id').primaryKey(),
    kind: varchar('kind', { length: 20 }).notNull(),
    status: varchar('status', { length: 20 }).notNull().default('queued'),
    whatsappId: integer('whatsapp_id')
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** campaign: a bulk send of the Campaigns page; api: one message of the send API (/zdg, /sendMedia…). */
    origin: varchar('origin', { length: 10 }).notNull().default('campaign'),
    message: text('message'),
    url: text('url'),
    title: text('title'),
    path: text('path'),
    minInterval: integer('min_interval').notNull(),
    maxInterval: integer('max_interval').notNull(),
    /** The approved template each recipient gets (cloud-api connections, issue 18); null for free text or media. */
    template: jsonb('template').$type<MessageTemplate>(),
    total: integer('total').notNull().default(0),
    sent: integer('sent').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    unknown: integer('unknown').notNull().default(0),
    invalid: integer('invalid').notNull().default(0),
    /**
     * The step chain allowed to send: every pause, resume and recovery draws a new one, so a step job of an older
     * chain finds it changed and ends without sending. One chain, one recipient at a time.
     */
    chain: varchar('chain', { length: 64 }).notNull(),
    nextSendAt: timestamp('next_send_at', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [
    index('campaigns_user_idx').on(t.userId, t.id),
    index('campaigns_active_idx').on(t.status).where(sql`${t.status} in ('queued', 'running')`),
  ],
);

export const campaignRecipients = pgTable(
  'campaign_recipients',
  {
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    /** Line of the numbers text (1-based): also the sending order. */
    line: integer('line').notNull(),
    /** The normalized number; an invalid line's text. */
    number: varchar('number', { length: 100 }).notNull(),
    status: varchar('status', { length: 20 }).notNull(),
    error: text('error'),
    channelMessageId: varchar('channel_message_id', { length: 100 }),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    primaryKey({ columns: [t.campaignId, t.line] }),
    index('campaign_recipients_pending_idx').on(t.campaignId, t.line).where(sql`${t.status} in ('pending', 'sending')`),
  ],
);

/**
 * A group action (issue 13): acts on every group of a connection (or creates one), one group or participant at a
 * time, by a chain of `group.step` jobs (the same exactly-once rules as bulk sends, decision 0014).
 */
export const groupActions = pgTable(
  'group_actions',
  {
    id: serial('id').primaryKey(),
    kind: varchar('kind', { length: 20 }).notNull(),
    status: varchar('status', { length: 20 }).notNull().default('queued'),
    whatsappId: integer('whatsapp_id')
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    subject: text('subject'),
    description: text('description'),
    title: text('title'),
    /** create: the participants' normalized numbers, one a line. */
    participants: text('participants'),
    message: text('message'),
    minInterval: integer('min_interval').notNull().default(0),
    maxInterval: integer('max_interval').notNull().default(0),
    /** Whether the first step listed the groups (or participants) into items. */
    planned: boolean('planned').notNull().default(false),
    total: integer('total').notNull().default(0),
    done: integer('done').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    unknown: integer('unknown').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    /** The step chain allowed to act; cancel and recovery draw a new one (as campaigns.chain). */
    chain: varchar('chain', { length: 64 }).notNull(),
    nextRunAt: timestamp('next_run_at', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [index('group_actions_active_idx').on(t.status).where(sql`${t.status} in ('queued', 'running')`)],
);

export const groupActionItems = pgTable(
  'group_action_items',
  {
    groupActionId: integer('group_action_id')
      .notNull()
      .references(() => groupActions.id, { onDelete: 'cascade' }),
    /** 1-based: also the order. */
    line: integer('line').notNull(),
    /** The group id, the participant's number, or (create) the new group's title. */
    target: varchar('target', { length: 200 }).notNull(),
    label: text('label'),
    status: varchar('status', { length: 20 }).notNull(),
    error: text('error'),
    result: varchar('result', { length: 200 }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [primaryKey({ columns: [t.groupActionId, t.line] })],
);

/**
 * A scheduled message (issue 14): sent into the contact's ticket at `send_at` by the `schedule.send` job. `version`
 * grows with every change (edit, cancel), so a job queued for an older version finds it changed and sends nothing;
 * the job claims the row (`scheduled → sending`) before calling the network (decision 0014).
 */
export const schedules = pgTable(
  'schedules',
  {
    id: serial('id').primaryKey(),
    status: varchar('status', { length: 20 }).notNull().default('scheduled'),
    whatsappId: integer('whatsapp_id')
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    /** Kept when the contact is deleted (the number stays: the send finds or creates the contact again). */
    contactId: integer('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    number: varchar('number', { length: 100 }).notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull().default(''),
    mediaUrl: text('media_url'),
    /** The approved template it goes out as (cloud-api connections, issue 18); null for text or a file. */
    template: jsonb('template').$type<MessageTemplate>(),
    sendAt: timestamp('send_at', { withTimezone: true, mode: 'date' }).notNull(),
    version: integer('version').notNull().default(1),
    error: text('error'),
    messageId: bigint('message_id', { mode: 'number' }),
    ticketId: integer('ticket_id'),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    late: boolean('late').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index('schedules_due_idx').on(t.sendAt).where(sql`${t.status} in ('scheduled', 'sending')`),
    index('schedules_send_at_idx').on(t.sendAt, t.id),
    index('schedules_contact_idx').on(t.contactId),
    index('schedules_user_idx').on(t.userId),
  ],
);

/**
 * The raw history a device sent (issue 14): Baileys' `messaging-history.set` on pairing, the simulator's seeded
 * history. Kept per connection so it survives restarts; the history import reads it. One row per network id.
 */
export const deviceHistory = pgTable(
  'device_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    whatsappId: integer('whatsapp_id')
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    /** The network's own message id. */
    networkId: varchar('network_id', { length: 200 }).notNull(),
    /** The contact's number (digits), or the group id. */
    chatId: varchar('chat_id', { length: 100 }).notNull(),
    isGroup: boolean('is_group').notNull().default(false),
    fromMe: boolean('from_me').notNull(),
    body: text('body').notNull().default(''),
    timestamp: timestamp('timestamp', { withTimezone: true, mode: 'date' }).notNull(),
    /** The message's kind (image, audio, video, document, sticker, location, vcard); null for text. */
    mediaType: varchar('media_type', { length: 20 }),
    /** Where the driver can fetch the media again: a URL (simulator) or the network's own reference (Baileys). */
    mediaUrl: text('media_url'),
    mediaMimetype: varchar('media_mimetype', { length: 200 }),
    mediaFilename: varchar('media_filename', { length: 300 }),
    mediaSeconds: integer('media_seconds'),
    quotedId: varchar('quoted_id', { length: 200 }),
    /** The chat's name as the device knows it (the contact's push name, the group's subject). */
    name: varchar('name', { length: 200 }),
    /** In a group: who wrote it. */
    participantNumber: varchar('participant_number', { length: 100 }),
    participantName: varchar('participant_name', { length: 200 }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('device_history_network_id_unique').on(t.whatsappId, t.networkId),
    index('device_history_chat_idx').on(t.whatsappId, t.chatId, t.timestamp),
  ],
);

/** A history import (issue 14): one chat a step, by a chain of `history.step` jobs. */
export const historyImports = pgTable(
  'history_imports',
  {
    id: serial('id').primaryKey(),
    status: varchar('status', { length: 20 }).notNull().default('queued'),
    whatsappId: integer('whatsapp_id')
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    contactNumber: varchar('contact_number', { length: 100 }),
    limit: integer('limit').notNull(),
    /** The chats to import, listed by the first step (null until then), in order; `chats_done` of them are done. */
    chats: jsonb('chats').$type<string[]>(),
    chatsDone: integer('chats_done').notNull().default(0),
    messagesImported: integer('messages_imported').notNull().default(0),
    messagesSkipped: integer('messages_skipped').notNull().default(0),
    ticketsCreated: integer('tickets_created').notNull().default(0),
    ticketsJoined: integer('tickets_joined').notNull().default(0),
    groupsSkipped: integer('groups_skipped').notNull().default(0),
    /** Chats holding fewer messages than the limit, for which older ones were asked from the phone. */
    olderRequested: integer('older_requested').notNull().default(0),
    /** The step chain allowed to act; cancel and recovery draw a new one (as campaigns.chain). */
    chain: varchar('chain', { length: 64 }).notNull(),
    nextRunAt: timestamp('next_run_at', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [index('history_imports_active_idx').on(t.status).where(sql`${t.status} in ('queued', 'running')`)],
);

/**
 * The Typebot chatbot's conversation with one ticket (issue 15): its Typebot session, the choices it last
 * offered, when it last spoke, whether it handed over. Stored, so a restart keeps the conversation.
 */
export const chatbotSessions = pgTable('chatbot_sessions', {
  ticketId: integer('ticket_id')
    .primaryKey()
    .references(() => tickets.id, { onDelete: 'cascade' }),
  /** Typebot's sessionId (null before the first answer). */
  sessionId: varchar('session_id', { length: 200 }),
  /** active: the bot answers; handedOver: the contact asked for a person; stopped: an attendant took the ticket. */
  state: varchar('state', { length: 12 }).notNull().default('active'),
  /** The choices of the last choice input (the contact's number picks one), else null. */
  choices: jsonb('choices').$type<string[] | null>(),
  lastExchangeAt: timestamp('last_exchange_at', { withTimezone: true, mode: 'date' }).notNull(),
  lastError: text('last_error'),
  ...timestamps,
});

/**
 * A batch to outside providers (issue 16): SMS and voice calls through Vonage, Instagram direct messages through
 * Meta's Graph API. Run by a chain of `outreach.step` jobs, one recipient a step with the pause between sends
 * (§9: about 5 s); each recipient is claimed (`running`) before the provider is called (decision 0014).
 */
export const outreachBatches = pgTable(
  'outreach_batches',
  {
    id: serial('id').primaryKey(),
    /** sms | voice | instagram */
    channel: varchar('channel', { length: 20 }).notNull(),
    status: varchar('status', { length: 20 }).notNull().default('queued'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The sender (SMS: a number or name; voice: the calling number); null for Instagram. */
    sender: varchar('sender', { length: 60 }),
    text: text('text').notNull(),
    /** The text-to-speech language of a call (pt-BR, en-US, es-ES). */
    language: varchar('language', { length: 10 }),
    total: integer('total').notNull().default(0),
    done: integer('done').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    unknown: integer('unknown').notNull().default(0),
    chain: varchar('chain', { length: 64 }).notNull(),
    nextRunAt: timestamp('next_run_at', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [index('outreach_batches_active_idx').on(t.status).where(sql`${t.status} in ('queued', 'running')`)],
);

export const outreachItems = pgTable(
  'outreach_items',
  {
    batchId: integer('batch_id')
      .notNull()
      .references(() => outreachBatches.id, { onDelete: 'cascade' }),
    /** 1-based: also the order. */
    line: integer('line').notNull(),
    /** A phone number (digits) or an Instagram-scoped user id. */
    recipient: varchar('recipient', { length: 100 }).notNull(),
    status: varchar('status', { length: 20 }).notNull().default('pending'),
    /** The provider's message or call id. */
    providerId: varchar('provider_id', { length: 200 }),
    error: text('error'),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [primaryKey({ columns: [t.batchId, t.line] })],
);

/**
 * The jobs of a resumable queue (bulk-send, group-action and outreach steps) running now, by process (issue 31): a
 * process beats for its runs every second; a run whose process died (no beat for a few seconds, or a run of this
 * process that this process no longer has, after a restart) is handed back to pg-boss to retry at once, instead of
 * waiting minutes for its expiry. Written by jobs/job-runs.ts only.
 */
export const jobRuns = pgTable('job_runs', {
  jobId: uuid('job_id').primaryKey(),
  queue: text('queue').notNull(),
  nodeId: text('node_id').notNull(),
  beatAt: timestamp('beat_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * The simulated phone of a simulator connection (issue 33 item 25): its customers' chats (history), what it sent
 * (outbox) and its groups, as one JSON document written a moment after each change, so a restart keeps them.
 * Written by channels/simulator/simulator-store.ts only.
 */
export const simulatorDevices = pgTable('simulator_devices', {
  whatsappId: integer('whatsapp_id')
    .primaryKey()
    .references(() => whatsapps.id, { onDelete: 'cascade' }),
  state: jsonb('state').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Labels (issue 36 §2): admins manage them; tickets and contacts carry any number. */
export const labels = pgTable(
  'labels',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 30 }).notNull(),
    color: varchar('color', { length: 9 }).notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('labels_name_unique').on(sql`lower(${t.name})`)],
);

export const ticketLabels = pgTable(
  'ticket_labels',
  {
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    labelId: integer('label_id')
      .notNull()
      .references(() => labels.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.ticketId, t.labelId] }), index('ticket_labels_label_idx').on(t.labelId, t.ticketId)],
);

export const contactLabels = pgTable(
  'contact_labels',
  {
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    labelId: integer('label_id')
      .notNull()
      .references(() => labels.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.contactId, t.labelId] }),
    index('contact_labels_label_idx').on(t.labelId, t.contactId),
  ],
);

/** `@Name` in a private note (issue 36 §1): the colleague it named, until they have seen it. */
export const messageMentions = pgTable(
  'message_mentions',
  {
    messageId: bigint('message_id', { mode: 'number' })
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    seenAt: timestamp('seen_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.userId] }), index('message_mentions_user_idx').on(t.userId, t.createdAt)],
);

/** Single-use recovery codes of two-factor sign-in (issue 37 §1), stored hashed. */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: varchar('code_hash', { length: 128 }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('mfa_recovery_codes_user_idx').on(t.userId)],
);

/**
 * Who did what (issue 37 §2). Append-only: a trigger (migration 0019) refuses UPDATE and DELETE unless the
 * retention job set `wadesk.audit_retention` for its transaction. No foreign keys: an entry outlives its user.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** 'user', 'token' (the send API token), 'system' or 'anonymous' (a failed sign-in). */
    actorKind: varchar('actor_kind', { length: 10 }).notNull(),
    userId: integer('user_id'),
    userName: varchar('user_name', { length: 254 }),
    ip: varchar('ip', { length: 64 }),
    action: varchar('action', { length: 60 }).notNull(),
    targetType: varchar('target_type', { length: 40 }),
    targetId: varchar('target_id', { length: 100 }),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at, t.id),
    index('audit_log_action_at_idx').on(t.action, t.at),
    index('audit_log_user_at_idx').on(t.userId, t.at),
  ],
);

/** Outgoing webhooks (issue 37 §3). */
export const webhooks = pgTable('webhooks', {
  id: serial('id').primaryKey(),
  url: text('url').notNull(),
  events: jsonb('events').$type<string[]>().notNull(),
  secret: text('secret').notNull(),
  active: boolean('active').notNull().default(true),
  ...timestamps,
});

/** One event for one webhook: delivered at least once by a pg-boss job, in order per `orderKey`. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    webhookId: integer('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    /** The event's stable id (the same for every webhook and every attempt): receivers de-duplicate on it. */
    eventId: uuid('event_id').notNull(),
    event: varchar('event', { length: 40 }).notNull(),
    /** Deliveries sharing a key (a ticket's) go out in `id` order. */
    orderKey: varchar('order_key', { length: 60 }),
    payload: jsonb('payload').notNull(),
    /** 'pending', 'delivered' or 'failed' (gave up after 24 h). */
    status: varchar('status', { length: 12 }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    responseCode: integer('response_code'),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('webhook_deliveries_webhook_idx').on(t.webhookId, t.id),
    index('webhook_deliveries_pending_idx').on(t.orderKey, t.id).where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * Events written by triggers in the transaction of the change they describe (migration 0021, decision 0045): a
 * message, ticket, ticket label, contact or bulk-send change that an active webhook listens to. The recorder turns
 * them into deliveries and deletes them in one transaction, so an event outlives a process that stops after the
 * change commits.
 */
export const webhookOutbox = pgTable('webhook_outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  event: varchar('event', { length: 40 }).notNull(),
  /** The message, ticket, contact or bulk send the event is about. */
  entityId: bigint('entity_id', { mode: 'number' }).notNull(),
  /** The transaction that made the change: its events are told together (a new ticket once, not also updated). */
  tx: bigint('tx', { mode: 'number' }).notNull(),
  /** The row as the change left it (messages and tickets), or null to read it when the event is recorded. */
  row: jsonb('row'),
  /** A ticket's status, queue and attendant before the change (`ticket.updated`'s `previous`). */
  previous: jsonb('previous'),
  /**
   * A ticket event's labels as the change left them (migration 0022), or null (a row of 0021's triggers) to read them
   * when the event is recorded.
   */
  labelIds: integer('label_ids').array(),
  /** The active webhooks that listened to the event when it happened. */
  webhookIds: integer('webhook_ids').array().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
