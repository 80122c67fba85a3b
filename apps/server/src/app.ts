import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { ErrorBody } from '@wadesk/contracts';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { ensureAdmin } from './bootstrap.js';
import type { AppConfig } from './config.js';
import { embeddedDataDir, migrateDatabase, openDatabase, type DatabaseHandle } from './db/client.js';
import { DomainEvents } from './events/domain-events.js';
import { createChannelLayer, type ChannelLayerOptions } from './channels/channel-layer.js';
import type { SessionManager } from './channels/session-manager.js';
import { registerAuthHook } from './http/auth-hook.js';
import { frameworkErrorHandler, registerErrorHandler } from './http/error-handler.js';
import { healthRoutes } from './http/health.routes.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { createLogger } from './http/logger.js';
import { AccessTokens } from './modules/auth/access-token.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { AuthService } from './modules/auth/auth.service.js';
import { contactsRoutes } from './modules/contacts/contacts.routes.js';
import { defaultConnectionContacts, defaultConnectionNumberChecker } from './modules/contacts/connection-contact-sources.js';
import { ContactsService } from './modules/contacts/contacts.service.js';
import { queuesRoutes } from './modules/queues/queues.routes.js';
import { QueuesService } from './modules/queues/queues.service.js';
import { quickAnswersRoutes } from './modules/quick-answers/quick-answers.routes.js';
import { QuickAnswersService } from './modules/quick-answers/quick-answers.service.js';
import { settingsRoutes } from './modules/settings/settings.routes.js';
import { SettingsService } from './modules/settings/settings.service.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { UsersService } from './modules/users/users.service.js';
import { whatsappRoutes } from './modules/whatsapp/whatsapp.routes.js';
import { whatsappSessionRoutes } from './modules/whatsapp/whatsapp-session.routes.js';
import { WhatsappService } from './modules/whatsapp/whatsapp.service.js';
import { registerTicketRealtime } from './realtime/ticket-realtime.js';
import { MediaStorage } from './storage/media-storage.js';
import { mediaRoutes } from './storage/media.routes.js';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.js';
import { InboundService } from './modules/inbound/inbound.service.js';
import { MessagesService } from './modules/messages/messages.service.js';
import { messagesRoutes } from './modules/messages/messages.routes.js';
import { TicketsService, type Clock } from './modules/tickets/tickets.service.js';
import { ticketsRoutes } from './modules/tickets/tickets.routes.js';
import { createSocketServer, registerRealtimeListener, type RealtimeServer } from './realtime/socket-server.js';
import { JobQueue } from './jobs/job-queue.js';
import { jobsRoutes } from './modules/jobs/jobs.routes.js';
import { CampaignMedia } from './modules/campaigns/campaign-media.js';
import { registerCampaignJobs } from './modules/campaigns/campaigns.jobs.js';
import { campaignsRoutes } from './modules/campaigns/campaigns.routes.js';
import { CampaignsService } from './modules/campaigns/campaigns.service.js';
import { registerGroupJobs } from './modules/groups/groups.jobs.js';
import { groupsRoutes } from './modules/groups/groups.routes.js';
import { GroupsService } from './modules/groups/groups.service.js';
import { registerTicketJobs } from './modules/tickets/tickets.jobs.js';
import { registerApiTokenGuard } from './modules/send-api/api-token-guard.js';
import { sendApiRoutes } from './modules/send-api/send-api.routes.js';
import { docsRoutes } from './http/openapi.js';

export interface AppServices {
  events: DomainEvents;
  auth: AuthService;
  users: UsersService;
  settings: SettingsService;
  queues: QueuesService;
  contacts: ContactsService;
  quickAnswers: QuickAnswersService;
  /** Channel sessions: `driver(id)` to send, `onMessage`/`onAck`/`onHistory` for what arrives. */
  sessions: SessionManager;
  whatsapps: WhatsappService;
  tickets: TicketsService;
  messages: MessagesService;
  inbound: InboundService;
  media: MediaStorage;
  campaigns: CampaignsService;
  groups: GroupsService;
  /** Durable jobs (pg-boss). */
  jobs: JobQueue;
}

export interface App {
  http: FastifyInstance;
  io: RealtimeServer;
  database: DatabaseHandle;
  services: AppServices;
  config: AppConfig;
  close(): Promise<void>;
}

export interface BuildAppOptions {
  /** An already-open database (tests share one per worker); otherwise opened from the config. */
  database?: DatabaseHandle;
  logger?: boolean;
  /** Where the log goes (tests read it); stdout by default. */
  logStream?: DestinationStream;
  /** Channel drivers, timers and randomness for the session manager (tests). */
  channels?: ChannelLayerOptions;
  /** "Now" for the rules that depend on time (dashboard's today, auto-close); the system clock by default. */
  clock?: Clock;
}

/** Builds the whole server: database (migrated), services, HTTP routes, Socket.IO and static web app. */
export async function buildApp(config: AppConfig, options: BuildAppOptions = {}): Promise<App> {
  const database =
    options.database ??
    (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: embeddedDataDir(config.dataDir), sharedBuffers: config.pgliteSharedBuffers }));
  const ownsDatabase = !options.database;
  await migrateDatabase(database);

  // Tests without a log get a silent logger (same options, nothing written).
  const loggerInstance: FastifyBaseLogger = createLogger(options.logger === false ? 'silent' : config.logLevel, options.logStream);
  const http = Fastify({
    loggerInstance,
    trustProxy: config.trustProxy,
    bodyLimit: 2 * 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    frameworkErrors: frameworkErrorHandler,
  });
  const { db } = database;
  const events = new DomainEvents();
  const settings = new SettingsService(db, events);
  const users = new UsersService(db, events);
  const auth = new AuthService(db, new AccessTokens(config.jwtSecret), users, settings, config.signupLimitPerHour);
  const queues = new QueuesService(db, events);
  const quickAnswers = new QuickAnswersService(db, events);

  await settings.seed();
  await ensureAdmin(db, users, config, http.log);

  await http.register(fastifyCookie);
  await registerSecurityHeaders(http, { secure: config.cookieSecure });
  registerErrorHandler(http);
  registerAuthHook(http, auth);

  healthRoutes(http, database, { simulator: config.simulator });
  authRoutes(http, auth, config.cookieSecure);
  usersRoutes(http, users);
  settingsRoutes(http, settings);
  queuesRoutes(http, queues);
  quickAnswersRoutes(http, quickAnswers);
  const channels = createChannelLayer(http, db, events, config, options.channels);
  const { sessions } = channels;
  const whatsapps = new WhatsappService(db, events, sessions);
  const contacts = new ContactsService(db, events, {
    numberChecker: defaultConnectionNumberChecker(db, sessions),
    deviceContacts: defaultConnectionContacts(db, sessions),
  });
  contactsRoutes(http, contacts);
  whatsappRoutes(http, whatsapps);
  whatsappSessionRoutes(http, whatsapps);

  const media = new MediaStorage(config.dataDir, config.refreshSecret);
  const messages = new MessagesService(db, events, sessions, media, { allowPrivate: config.mediaFetchAllowPrivate });
  const tickets = new TicketsService(db, events, messages, options.clock);
  const inbound = new InboundService(db, events, settings, sessions, media, messages, {
    menuDebounceMs: config.queueMenuDebounceMs,
    log: http.log.child({ module: 'inbound' }),
  });
  sessions.onMessage((whatsappId, message) => inbound.handleMessage(whatsappId, message));
  sessions.onAck((whatsappId, update) => inbound.handleAck(whatsappId, update));
  await http.register(fastifyMultipart);
  mediaRoutes(http, media);
  ticketsRoutes(http, tickets);
  messagesRoutes(http, tickets, messages);
  dashboardRoutes(http, tickets);

  const jobs = await JobQueue.start(database, { log: http.log.child({ module: 'jobs' }) });
  await registerTicketJobs(jobs, tickets, config.autoCloseCron);
  const bulkMediaFolder = async () => (await settings.value('bulkMediaFolder')) || path.join(config.dataDir, 'bulk-media');
  const campaigns = new CampaignsService(
    db,
    events,
    sessions,
    new CampaignMedia(media, { allowPrivate: config.mediaFetchAllowPrivate }, bulkMediaFolder),
    { clock: options.clock, bulkMediaFolder, log: http.log.child({ module: 'campaigns' }) },
  );
  await registerCampaignJobs(jobs, campaigns);
  campaignsRoutes(http, campaigns);
  const groups = new GroupsService(db, events, sessions, {
    clock: options.clock,
    startDelayMs: config.groupActionDelayMs,
    groupPauseMs: config.groupActionPauseMs,
    log: http.log.child({ module: 'groups' }),
  });
  await registerGroupJobs(jobs, groups);
  groupsRoutes(http, groups);
  jobsRoutes(http, jobs);
  registerApiTokenGuard(http, db, settings);
  sendApiRoutes(http, { campaigns, groups, whatsapps, tickets, contacts });
  docsRoutes(http);
  await mkdir(path.join(config.dataDir, 'bulk-media'), { recursive: true });

  await serveWebApp(http, config.webDist);

  const io = createSocketServer(http.server, auth);
  registerRealtimeListener(io, events, auth);
  registerTicketRealtime(io, events, {
    queueIdsOf: (userId) => users.queueIdsOf(userId),
    canSee: async (user, ticketId) => tickets.get(user, ticketId).then(() => true, () => false),
    loadTickets: (ids) => tickets.loadMany(ids),
  });
  await channels.startAll();
  campaigns.startProgress();

  return {
    http,
    io,
    database,
    services: { events, auth, users, settings, queues, contacts, quickAnswers, sessions, whatsapps, tickets, messages, inbound, media, campaigns, groups, jobs },
    config,
    async close() {
      campaigns.stopProgress();
      // Jobs first: a step finishing its send still has its connection.
      await jobs.stop();
      inbound.stop();
      await sessions.stopAll();
      await io.close();
      await http.close();
      if (ownsDatabase) await database.close();
    },
  };
}

/** Built files with a content hash in their name (Vite's assets folder): they never change, so they are cached for a year. */
const IMMUTABLE_ASSETS = `${path.sep}assets${path.sep}`;

/**
 * Serves the built web app at `/`, with index.html for every client-side route; JSON 404 under /api.
 * Text files are sent precompressed (the build writes .br and .gz beside them) in the encoding the browser accepts.
 * Hashed files under /assets/ are cached for a year (`immutable`); index.html and the other files are revalidated on
 * every visit (`no-cache`, answered 304 while unchanged), so a new build is picked up at once.
 */
async function serveWebApp(http: FastifyInstance, webDist: string): Promise<void> {
  const hasWeb = existsSync(path.join(webDist, 'index.html'));
  const root = path.resolve(webDist);
  // Files are looked up on each request, so rebuilding the web app needs no restart.
  if (hasWeb) {
    await http.register(fastifyStatic, {
      root,
      wildcard: true,
      index: false,
      preCompressed: true,
      // The build's manifest (.vite/) is not for the browser: such paths fall to the app like unknown ones.
      dotfiles: 'ignore',
      setHeaders: (reply, filePath) => {
        const hashed = filePath.startsWith(root + path.sep) && filePath.slice(root.length).startsWith(IMMUTABLE_ASSETS);
        reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    http.get('/', { config: { access: 'public' } }, (_request, reply) => reply.sendFile('index.html'));
  }
  http.setNotFoundHandler((request, reply) => {
    const url = request.url;
    if (url.startsWith('/api') || url.startsWith('/socket.io') || url.startsWith('/assets/') || request.method !== 'GET') {
      return reply.status(404).send({ error: 'ERR_NOT_FOUND', message: 'Not found' } satisfies ErrorBody);
    }
    if (!hasWeb) return reply.status(404).type('text/plain').send('The web app is not built: run npm run build.');
    return reply.sendFile('index.html');
  });
}
