import type { SessionStatus } from '@wadesk/contracts';

/** Delivery states: 0 pending (clock), 1 sent to server, 2 delivered, 3 read, 4 played. */
export type Ack = 0 | 1 | 2 | 3 | 4;

export type InboundKind = 'text' | 'image' | 'audio' | 'video' | 'location' | 'vcard' | 'document' | 'sticker';

/** Media carried by a message: bytes are fetched lazily so a driver can skip what nobody stores. */
export interface InboundMedia {
  mimetype: string;
  filename?: string;
  /** Voice note (push-to-talk) rather than an audio file. */
  ptt?: boolean;
  /** Length of an audio in seconds, when the network says it. */
  seconds?: number;
  download(): Promise<Buffer>;
  /**
   * Where the driver can fetch the bytes again later (`downloadHistoryMedia`): set on history messages, which are
   * stored raw and imported later (issue 14).
   */
  ref?: string;
}

/**
 * Everything a driver receives, normalized. After this type, every channel is the same code
 * (contact, ticket, queue menu, chatbot, storage, socket events).
 */
export interface InboundMessage {
  /** The network's own message id; the same id twice is one message. */
  id: string;
  /** Sent by this device (from another client of the same number, or history). */
  fromMe: boolean;
  /** The chat: the contact's number (digits only), or the group id for group chats. */
  chatId: string;
  /** Name the network knows for the chat (contact push name, or the group subject). */
  chatName?: string;
  isGroup: boolean;
  /** In a group: who wrote it. */
  participant?: { number: string; name?: string };
  kind: InboundKind;
  /** Text, caption, or a readable rendering (location: "lat,lng|description", vcard: the vcard text). */
  body: string;
  media?: InboundMedia;
  location?: { latitude: number; longitude: number; description?: string; thumbnailJpeg?: Buffer };
  vcard?: { displayName: string; vcard: string; numbers: string[] };
  /** Network id of the message this one replies to. */
  quotedId?: string;
  timestamp: Date;
}

export interface AckUpdate {
  /** Network id of a message this device sent. */
  id: string;
  chatId: string;
  ack: Ack;
}

export interface SentMessage {
  id: string;
  timestamp: Date;
}

export interface OutboundMedia {
  kind: 'image' | 'video' | 'audio' | 'document';
  data: Buffer;
  mimetype: string;
  filename?: string;
  caption?: string;
  /** Send audio as a voice note (ogg/opus). */
  ptt?: boolean;
}

export interface SendOptions {
  /**
   * The network id to give the message, chosen by the caller so the message is stored (ack 0) before it
   * is sent and an early ack always finds it. Drivers must honour it.
   */
  messageId?: string;
  /** Network id of the message being replied to, with its chat and sender side. */
  quoted?: { id: string; fromMe: boolean; body?: string; participant?: string };
}

/** The message a reaction is for: its network id, its side, and in a group who wrote it. */
export interface ReactionTarget {
  id: string;
  fromMe: boolean;
  participant?: string;
}

/** The oldest message known of a chat: older history is asked for from there (`requestOlderHistory`). */
export interface HistoryAnchor {
  chatId: string;
  isGroup: boolean;
  id: string;
  fromMe: boolean;
  timestamp: Date;
}

export interface GroupInfo {
  id: string;
  subject: string;
  description?: string;
  participants: { number: string; isAdmin: boolean }[];
  /** Only admins may send messages. */
  announce: boolean;
}

/** Key/value storage of a connection's auth state (credentials, signal keys), kept in the database. */
export interface AuthStateStore {
  get<T = unknown>(key: string): Promise<T | null>;
  getMany<T = unknown>(keys: string[]): Promise<Map<string, T>>;
  set(entries: Record<string, unknown | null>): Promise<void>;
  clear(): Promise<void>;
}

/**
 * What became of an inbound message: stored now, already stored before (the same network id), or
 * deliberately not stored (a group message while groups are ignored).
 */
export type InboundOutcome = 'stored' | 'duplicate' | 'ignored';

/** What a driver tells the session manager. */
/** An incoming voice or video call (issue 15). */
export interface InboundCall {
  /** The network's call id. */
  id: string;
  /** The caller's number (chat id of a 1:1 chat). */
  from: string;
  video: boolean;
  /** The caller's name, when the network says it. */
  name?: string;
}

export interface DriverListener {
  qr(qrcode: string): void;
  status(status: SessionStatus, detail?: { loggedOut?: boolean; reason?: string; number?: string }): void;
  /**
   * Hands a received message to the pipeline. Resolves once it is stored (committed) or known as a
   * duplicate; rejects when it could not be stored. A message counts as handled only when this resolves.
   */
  message(message: InboundMessage): Promise<InboundOutcome>;
  ack(update: AckUpdate): void;
  /** History the network pushed (for the history import tool): resolves once every subscriber kept it. */
  history(messages: InboundMessage[]): Promise<void>;
  /** An incoming call: resolves true when the driver must reject it (acceptCalls off). Never rejects. */
  call(call: InboundCall): Promise<boolean>;
}

export interface DriverContext {
  whatsappId: number;
  authState: AuthStateStore;
  listener: DriverListener;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
}

/** The one place that talks to a messaging network. */
export interface ChannelDriver {
  /** Opens the session: resumes from auth state, or emits a QR to pair. */
  start(): Promise<void>;
  /** Closes the connection, keeping auth state (a restart resumes). */
  stop(): Promise<void>;
  /** Logs the device out and clears its auth state. */
  logout(): Promise<void>;

  sendText(to: string, text: string, options?: SendOptions): Promise<SentMessage>;
  sendMedia(to: string, media: OutboundMedia, options?: SendOptions): Promise<SentMessage>;
  deleteMessage(chatId: string, messageId: string, fromMe: boolean): Promise<void>;
  /**
   * Reacts to a message of the chat with an emoji; an empty emoji removes this device's reaction. Absent: the
   * network offers no reactions (ERR_REACTION_NOT_OFFERED).
   */
  sendReaction?(chatId: string, target: ReactionTarget, emoji: string): Promise<SentMessage>;
  /** Whether a number is on the network; the canonical number when it is. */
  checkNumber(number: string): Promise<{ exists: boolean; number?: string }>;
  profilePictureUrl(chatId: string): Promise<string | null>;

  createGroup(subject: string, participants: string[]): Promise<GroupInfo>;
  listGroups(): Promise<GroupInfo[]>;
  updateGroupSubject(groupId: string, subject: string): Promise<void>;
  updateGroupDescription(groupId: string, description: string): Promise<void>;
  /** Open (everyone sends) or close (admins only) a group. */
  setGroupAnnounce(groupId: string, announce: boolean): Promise<void>;

  /** The device's address book, when the network offers one (contact import). */
  listContacts?(): Promise<{ number: string; name: string }[]>;

  /** Recent messages of the device, newest last, at most `limit`. */
  fetchHistory(limit: number): Promise<InboundMessage[]>;

  /** The bytes of a history message's media, from its `media.ref` (the history import); absent: not offered. */
  downloadHistoryMedia?(ref: string): Promise<Buffer>;

  /**
   * Asks the phone for up to `count` messages of a chat older than `oldest`; they arrive later, as history
   * (`listener.history`). Absent: the network offers no such request.
   */
  requestOlderHistory?(oldest: HistoryAnchor, count: number): Promise<void>;
}

export type ChannelDriverFactory = (context: DriverContext) => ChannelDriver;
