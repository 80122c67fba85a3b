import { sql } from 'drizzle-orm';
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
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';

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
    ...timestamps,
  },
  (t) => [uniqueIndex('queues_color_unique').on(sql`lower(${t.color})`)],
);

/** A WhatsApp (or other channel) connection: a "whatsapp" in the specification's API. */
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
    ...timestamps,
  },
  (t) => [
    index('contacts_name_lower_idx').on(sql`lower(${t.name})`),
    // Search ignores case and accents: f_unaccent is an immutable wrapper of unaccent (migration 0002).
    index('contacts_name_unaccent_trgm_idx').using('gin', sql`f_unaccent(lower(${t.name})) gin_trgm_ops`),
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
    index('tickets_contact_idx').on(t.contactId),
    // The dashboard's chart: today's tickets.
    index('tickets_created_idx').on(t.createdAt),
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
    ...timestamps,
  },
  (t) => [
    uniqueIndex('messages_channel_id_unique').on(t.whatsappId, t.channelMessageId),
    index('messages_ticket_created_idx').on(t.ticketId, t.createdAt),
  ],
);

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
    message: text('message'),
    url: text('url'),
    title: text('title'),
    path: text('path'),
    minInterval: integer('min_interval').notNull(),
    maxInterval: integer('max_interval').notNull(),
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
