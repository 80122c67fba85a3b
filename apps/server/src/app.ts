import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyCors from '@fastify/cors';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { isAdmin, type ErrorBody } from '@wadesk/contracts';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { ensureAdmin } from './bootstrap.js';
import type { AppConfig } from './config.js';
import { embeddedDataDir, migrateDatabase, openDatabase, type DatabaseHandle } from './db/client.js';
import { DomainEvents } from './events/domain-events.js';
import { cloudApiWebhooks } from './channels/cloud-api/cloud-api.webhooks.js';
import { channelPorts } from './channel-ports.js';
import { createChannelLayer, type ChannelLayerOptions } from './channels/channel-layer.js';
import type { SessionManager } from './channels/session-manager.js';
import { bearerToken, registerAuthHook } from './http/auth-hook.js';
import { frameworkErrorHandler, registerErrorHandler } from './http/error-handler.js';
import { guideRoutes } from './guide/guide.routes.js';
import { UserGuide } from './guide/user-guide.js';
import { healthRoutes, readyRoute } from './http/health.routes.js';
import { registerJsonBodyParser } from './http/json-body.js';
import { registerRequestIdHeader, requestIdOf } from './http/request-id.js';
import { RequestLog } from './http/request-log.js';
import { collapseSlashes, routerPath } from './http/router-path.js';
import { processFfmpeg } from './ops/ffmpeg.js';
import { InFlightRequests } from './ops/in-flight.js';
import { AppMetrics } from './ops/metrics.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { createLogger } from './http/logger.js';
import { AccessTokens } from './modules/auth/access-token.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { AuthService } from './modules/auth/auth.service.js';
import { mfaRoutes } from './modules/auth/mfa.routes.js';
import { MfaService } from './modules/auth/mfa.service.js';
import { registerAuditContext } from './modules/audit/audit-context.js';
import { registerAuditJobs } from './modules/audit/audit.jobs.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { AuditService } from './modules/audit/audit.service.js';
import { contactsRoutes } from './modules/contacts/contacts.routes.js';
import { defaultConnectionContacts, defaultConnectionNumberChecker } from './modules/contacts/connection-contact-sources.js';
import { ContactsService } from './modules/contacts/contacts.service.js';
import { labelsRoutes } from './modules/labels/labels.routes.js';
import { LabelsService } from './modules/labels/labels.service.js';
import { queuesRoutes } from './modules/queues/queues.routes.js';
import { QueuesService } from './modules/queues/queues.service.js';
import { AutoAssignService } from './modules/queues/auto-assign.service.js';
import { socketPresence } from './realtime/presence.js';
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
import { reportsRoutes } from './modules/reports/reports.routes.js';
import { ReportsService } from './modules/reports/reports.service.js';
import { CsatService } from './modules/csat/csat.service.js';
import { InboundService } from './modules/inbound/inbound.service.js';
import { MessagesService } from './modules/messages/messages.service.js';
import { messagesRoutes } from './modules/messages/messages.routes.js';
import { TicketsService, type Clock } from './modules/tickets/tickets.service.js';
import { ChatbotService } from './modules/chatbot/chatbot.service.js';
import { ticketsRoutes } from './modules/tickets/tickets.routes.js';
import { TicketCountsFolder } from './modules/tickets/ticket-counts.js';
import { createSocketServer, registerRealtimeListener, type RealtimeServer } from './realtime/socket-server.js';
import { JobQueue } from './jobs/job-queue.js';
import { PublishesUnderWay, useClusterAdapter } from './realtime/cluster-adapter.js';
import { registerMessageJobs } from './modules/messages/messages.jobs.js';
import { registerInboundJobs } from './modules/inbound/inbound.jobs.js';
import { jobsRoutes } from './modules/jobs/jobs.routes.js';
import { BulkMediaFolder } from './modules/campaigns/bulk-media-folder.js';
import { CampaignMedia } from './modules/campaigns/campaign-media.js';
import { registerCampaignJobs } from './modules/campaigns/campaigns.jobs.js';
import { campaignsRoutes } from './modules/campaigns/campaigns.routes.js';
import { CampaignsService } from './modules/campaigns/campaigns.service.js';
import { registerGroupJobs } from './modules/groups/groups.jobs.js';
import { registerHistoryJobs } from './modules/history/history.jobs.js';
import { historyRoutes } from './modules/history/history.routes.js';
import { HistoryService } from './modules/history/history.service.js';
import { groupsRoutes } from './modules/groups/groups.routes.js';
import { GroupsService } from './modules/groups/groups.service.js';
import { registerScheduleJobs } from './modules/schedules/schedules.jobs.js';
import { schedulesRoutes } from './modules/schedules/schedules.routes.js';
import { SchedulesService } from './modules/schedules/schedules.service.js';
import { registerTicketJobs } from './modules/tickets/tickets.jobs.js';
import { registerApiTokenGuard } from './modules/send-api/api-token-guard.js';
import { sendApiRoutes } from './modules/send-api/send-api.routes.js';
import { registerApiDocs, registerResponseSchemaCheck, serializerCompiler, validatorCompiler } from './http/route-schemas.js';
import { emailRoutes } from './modules/email/email.routes.js';
import { EmailService } from './modules/email/email.service.js';
import { registerOutreachJobs } from './modules/outreach/outreach.jobs.js';
import { outreachRoutes } from './modules/outreach/outreach.routes.js';
import { OutreachService } from './modules/outreach/outreach.service.js';
import { Providers } from './modules/outreach/providers.js';
import { InstagramHub, instagramDriverFactory } from './channels/instagram/instagram-driver.js';
import { instagramWebhookRoutes } from './channels/instagram/instagram-webhook.routes.js';
import { WebhookEventRecorder } from './modules/webhooks/webhook-events.js';
import { registerWebhookJobs } from './modules/webhooks/webhooks.jobs.js';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.js';
import { WebhooksService } from './modules/webhooks/webhooks.service.js';

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
  chatbot: ChatbotService;
  media: MediaStorage;
  campaigns: CampaignsService;
  groups: GroupsService;
  schedules: SchedulesService;
  history: HistoryService;
  /** Durable jobs (pg-boss). */
  jobs: JobQueue;
  email: EmailService;
  outreach: OutreachService;
  /** Outgoing webhooks (issue 37 §3) and the recorder that turns this process's events into deliveries. */
  webhooks: WebhooksService;
  webhookEvents: WebhookEventRecorder;
  auditLog: AuditService;
  /** Automatic assignment (issue 36 §4). */
  autoAssign: AutoAssignService;
}

export interface App {
  http: FastifyInstance;
  io: RealtimeServer;
  /** Events being published to the other processes (PostgreSQL only): a change is answered once they are out. */
  publishes: PublishesUnderWay;
  database: DatabaseHandle;
  services: AppServices;
  config: AppConfig;
  /** Prometheus metrics (METRICS_ENABLED), or null when off. */
  metrics: AppMetrics | null;
  /**
   * Graceful shutdown: /api/ready answers 503, the HTTP server stops accepting, pg-boss stops fetching; the
   * requests and jobs in flight finish (each wait bounded by `timeoutMs`, SHUTDOWN_TIMEOUT_MS by default); then the
   * connections are handed back (sessions stopped), sockets closed, and the database closed when the app opened it.
   */
  close(options?: { timeoutMs?: number }): Promise<void>;
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
  /** How long e-mail waits for the SMTP server (tests make it short). */
  emailTimeoutMs?: number;
  /** Tests: every JSON answer is checked against its route's declared response schema (http/route-schemas.ts). */
  checkResponseSchemas?: boolean;
  /** Tests: webhook retries' waits (the last repeats) and how long before a delivery is given up. */
  webhookRetry?: { backoffMs?: number[]; giveUpAfterMs?: number; timeoutMs?: number };
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
    // One spelling of the path for all that reads it (the router, the static files, the not-found answer).
    rewriteUrl: (request) => collapseSlashes(request.url ?? '/'),
    frameworkErrors: frameworkErrorHandler,
    // Each log line of a request carries its id (reqId): the caller's X-Request-Id when sane, else a new UUID.
    requestIdHeader: false,
    genReqId: requestIdOf,
    // One line per request, at debug, instead of Fastify's two at info.
    logController: new RequestLog(),
  });
  const { db } = database;
  const events = new DomainEvents();
  const metrics = config.metricsEnabled ? new AppMetrics(db, events) : null;
  const inFlight = new InFlightRequests();
  let stopping = false;
  const settings = new SettingsService(db, events);
  const users = new UsersService(db, events);
  // Two-factor sign-in (issue 37 §1): its codes and its mfaToken's expiry follow the injected clock.
  const mfa = new MfaService(db, settings, config.jwtSecret, options.clock);
  const auth = new AuthService(db, new AccessTokens(config.jwtSecret), users, settings, config.signupLimitPerHour, mfa);
  const queues = new QueuesService(db, events);
  const quickAnswers = new QuickAnswersService(db, events);
  const labels = new LabelsService(db, events);

  await settings.seed();
  await ensureAdmin(db, users, config, http.log);

  await http.register(fastifyCookie);
  // CORS_ORIGINS: a separately served front end calls the API with credentials. Before the auth hook, so that a
  // preflight (which carries no token) is answered, not refused; without the setting no CORS header is ever sent.
  if (config.corsOrigins.length > 0) {
    await http.register(fastifyCors, {
      origin: config.corsOrigins,
      credentials: true,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      exposedHeaders: ['Content-Disposition', 'Retry-After', 'X-Request-Id'],
      maxAge: 600,
    });
  }
  // The chatbot page (/ZDGChatbot) frames the configured Typebot: its origin is allowed in frame-src, kept current.
  let chatbotOrigin = originOf(await settings.value('typebotUrl'));
  events.on('setting.updated', ({ setting }) => {
    if (setting.key === 'typebotUrl') chatbotOrigin = originOf(setting.value);
  });
  await registerSecurityHeaders(http, {
    secure: config.cookieSecure,
    frameOrigins: () => (chatbotOrigin ? [chatbotOrigin] : []),
    sameSiteResources: config.corsOrigins.length > 0,
  });
  registerErrorHandler(http);
  registerRequestIdHeader(http);
  inFlight.register(http);
  const publishes = new PublishesUnderWay();
  publishes.register(http);
  // Every JSON body is refused with 400 when it nests deeper than MAX_JSON_DEPTH (the raw-body webhooks check too).
  registerJsonBodyParser(http);
  metrics?.registerHttpTiming(http);
  // Who acts and from where, for the audit log: the request is kept in scope for the services (decision 0044).
  registerAuditContext(http);
  registerAuthHook(http, auth, () => settings.attendantTools());
  // Each route's zod schemas validate its input and describe it in /api/docs (decision 0032).
  http.setValidatorCompiler(validatorCompiler);
  http.setSerializerCompiler(serializerCompiler);
  await registerApiDocs(http);
  if (options.checkResponseSchemas) registerResponseSchemaCheck(http);

  healthRoutes(http, database, { simulator: config.simulator, guideUrl: config.guideUrl });
  if (metrics && config.metricsToken) metrics.registerRoute(http, config.metricsToken);
  authRoutes(http, auth, config.cookieSecure);
  mfaRoutes(http, mfa);
  usersRoutes(http, users);
  settingsRoutes(http, settings);
  queuesRoutes(http, queues);
  labelsRoutes(http, labels);
  quickAnswersRoutes(http, quickAnswers);
  // Instagram direct: the providers' client (settings read at each send) and the connections the webhook feeds.
  const providers = new Providers(settings, {
    vonageRestUrl: config.vonageRestUrl,
    vonageApiUrl: config.vonageApiUrl,
    instagramGraphUrl: config.instagramGraphUrl,
    timeoutMs: config.providerTimeoutMs,
  });
  const instagramHub = new InstagramHub();
  const ports = channelPorts(db);
  const channels = createChannelLayer(http, db, events, config, ports, options.channels, {
    instagram: instagramDriverFactory(instagramHub, providers),
    instrument: metrics ? (channel, factory) => metrics.instrumentDriver(channel, factory) : undefined,
  });
  const { sessions } = channels;
  const whatsapps = new WhatsappService(db, events, sessions, config.whatsappGraphUrl);
  const contacts = new ContactsService(db, events, {
    numberChecker: defaultConnectionNumberChecker(db, sessions),
    deviceContacts: defaultConnectionContacts(db, sessions),
  });
  contactsRoutes(http, contacts);
  whatsappRoutes(http, whatsapps);
  whatsappSessionRoutes(http, whatsapps);

  const media = new MediaStorage(config.dataDir, config.refreshSecret);
  const messages = new MessagesService(db, events, sessions, media, { allowPrivate: config.mediaFetchAllowPrivate });
  const tickets = new TicketsService(db, events, messages, options.clock, settings);
  const autoAssign = new AutoAssignService(db, events, { clock: options.clock, log: http.log.child({ module: 'auto-assign' }) });
  const chatbot = new ChatbotService(db, events, settings, messages, {
    clock: options.clock,
    timeoutMs: config.typebotTimeoutMs,
    log: http.log.child({ module: 'chatbot' }),
  });
  const inbound = new InboundService(
    db,
    events,
    settings,
    sessions,
    media,
    messages,
    { menuDebounceMs: config.queueMenuDebounceMs, log: http.log.child({ module: 'inbound' }), clock: options.clock },
    chatbot,
  );
  // Customer satisfaction (issue 36 §5): the survey after an attendant resolves a ticket (after the farewell), the answers in inbound.
  const csat = new CsatService(db, events, settings, messages, options.clock);
  inbound.useCsat(csat);
  events.on('ticket.closed', ({ ticket }) => {
    csat.requestSurvey(ticket).catch((err: unknown) => http.log.warn({ err, ticketId: ticket.id }, 'the satisfaction survey was not sent'));
  });
  sessions.onMessage(async (whatsappId, message) => {
    const outcome = await inbound.handleMessage(whatsappId, message);
    if (metrics && outcome === 'stored' && !message.fromMe) await metrics.countInbound(whatsappId).catch(() => undefined);
    return outcome;
  });
  sessions.onAck((whatsappId, update) => inbound.handleAck(whatsappId, update));
  sessions.onCall((whatsappId, call) => inbound.handleCall(whatsappId, call));
  await http.register(fastifyMultipart);
  mediaRoutes(http, media);
  ticketsRoutes(http, tickets);
  messagesRoutes(http, tickets, messages);
  dashboardRoutes(http, tickets);
  reportsRoutes(http, new ReportsService(db, options.clock));

  const jobs = await JobQueue.start(database, { log: http.log.child({ module: 'jobs' }), nodeId: config.nodeId });
  // The audio transcoder's ffmpeg, chosen once (FFMPEG_PATH > /usr/bin/ffmpeg > the bundled 2018 build) and logged.
  const ffmpeg = processFfmpeg(config.ffmpegPath);
  void ffmpeg.then((binary) => {
    if (!binary) http.log.warn('audio: no ffmpeg found, voice notes cannot be converted: install ffmpeg or set FFMPEG_PATH');
    else if (!binary.version) http.log.warn({ ffmpeg: binary }, `audio: ffmpeg at ${binary.path} (${binary.source}) does not run`);
    else if (binary.source === 'bundled') http.log.warn({ ffmpeg: binary }, `audio: ${binary.version} (bundled 2018 build, install a maintained ffmpeg)`);
    else http.log.info({ ffmpeg: binary }, `audio: ${binary.version} at ${binary.path} (${binary.source})`);
  });
  readyRoute(
    http,
    database,
    { stopping: () => stopping, jobsRunning: () => jobs.running },
    {
      ffmpeg: () => ffmpeg,
      mayRead: async (request) => {
        const token = bearerToken(request);
        if (!token) return false;
        const result = await auth.authenticate(token);
        return !('error' in result) && isAdmin(result.user);
      },
    },
  );
  await registerTicketJobs(jobs, tickets, config.autoCloseCron);
  // Outgoing webhooks (decision 0045): the events the database wrote with each change are stored per listening
  // webhook and sent by a job.
  const webhooks = new WebhooksService(db, { allowPrivate: config.mediaFetchAllowPrivate, log: http.log.child({ module: 'webhooks' }), ...options.webhookRetry });
  const webhookEvents = new WebhookEventRecorder(db, webhooks, http.log.child({ module: 'webhooks' }));
  await registerWebhookJobs(jobs, webhooks, webhookEvents);
  webhooksRoutes(http, webhooks);
  webhookEvents.listen(events);
  // Events a stopped process left in the outbox are recorded now, not at the next sweep.
  webhookEvents.wake();
  await registerInboundJobs(jobs, inbound);
  // Several processes on one PostgreSQL: a text for a connection another process runs goes through the queue.
  const messageJobs = database.kind === 'postgres' ? await registerMessageJobs(jobs, messages, options.clock) : null;
  await cloudApiWebhooks(http, jobs, { connections: ports.connections, sessions, messages, graphUrl: config.whatsappGraphUrl, log: http.log.child({ module: 'cloud-api' }) });
  // The bulk media folder (/ZDGMedia2) never reaches the server's own files: checked on the setting and on every file.
  const bulkMediaFolder = new BulkMediaFolder(() => settings.value('bulkMediaFolder'), {
    dataDir: config.dataDir,
    owned: [embeddedDataDir(config.dataDir), path.join(config.dataDir, 'secrets.json'), media.dir, media.uploadDir, path.join(config.dataDir, 'simulator')],
  });
  settings.checkWith('bulkMediaFolder', (value) => bulkMediaFolder.checkSetting(value));
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
  const schedules = new SchedulesService(db, events, sessions, tickets, messages, {
    clock: options.clock,
    connectionWaitMs: config.scheduleConnectionWaitMs,
    log: http.log.child({ module: 'schedules' }),
  });
  await registerScheduleJobs(jobs, schedules);
  schedulesRoutes(http, schedules);
  const history = new HistoryService(db, events, sessions, media, settings, { clock: options.clock, log: http.log.child({ module: 'history' }) });
  sessions.onHistory((whatsappId, messages) => history.keepDeviceHistory(whatsappId, messages).then(() => undefined));
  await registerHistoryJobs(jobs, history);
  historyRoutes(http, history);
  jobsRoutes(http, jobs);
  const auditLog = new AuditService(db, settings, options.clock);
  await registerAuditJobs(jobs, auditLog);
  auditRoutes(http, auditLog);
  registerApiTokenGuard(http, db, settings);
  sendApiRoutes(http, { campaigns, groups, whatsapps, tickets, contacts, schedules, history });
  const email = new EmailService(db, settings, media, { log: http.log.child({ module: 'email' }), timeoutMs: options.emailTimeoutMs });
  emailRoutes(http, email, tickets);
  events.on('ticket.closed', ({ ticket, by }) => {
    email.sendTicketClosed(ticket, by).catch((err: unknown) => http.log.warn({ err }, 'the ticket-closed e-mail failed'));
  });
  const outreach = new OutreachService(db, events, providers, {
    clock: options.clock,
    pauseMs: config.outreachPauseMs,
    instagramPauseMs: config.instagramPauseMs,
    log: http.log.child({ module: 'outreach' }),
    attendantTools: () => settings.attendantTools(),
  });
  await registerOutreachJobs(jobs, outreach);
  outreachRoutes(http, outreach);
  await instagramWebhookRoutes(http, settings, instagramHub, http.log.child({ module: 'instagram' }), (id) => providers.instagramProfileName(id));
  await mkdir(path.join(config.dataDir, 'bulk-media'), { recursive: true });

  // The user guide (docs/guide) at /guide/, public, before the web app's catch-all (decision 0036).
  guideRoutes(http, new UserGuide(config.guideDir));
  await serveWebApp(http, config.webDist);

  const io = createSocketServer(http.server, auth, config.corsOrigins);
  if (database.kind === 'postgres' && database.pool) await useClusterAdapter(io, database.pool, http.log.child({ module: 'realtime' }), publishes);
  registerRealtimeListener(io, events, auth, () => settings.attendantTools());
  messageJobs?.tellOwnersThrough(io);
  metrics?.attach({ db, jobs, io });
  // Automatic assignment knows who is online from the sockets of every process; a user connecting may take a ticket.
  autoAssign.usePresence(socketPresence(io, http.log.child({ module: 'presence' }), () => autoAssign.kickSoon()));
  io.on('connection', () => autoAssign.kick());
  autoAssign.start();
  registerTicketRealtime(io, events, {
    queueIdsOf: (userId) => users.queueIdsOf(userId),
    canSee: async (user, ticketId) => tickets.get(user, ticketId).then(() => true, () => false),
    loadTickets: (ids) => tickets.loadMany(ids),
  });
  await channels.startAll();
  // Steps of bulk sends, group actions and outreach batches whose process died (a crash before this start, or another
  // process) are retried now, with the connections running (issue 31).
  await jobs.resumeDeadRuns().catch((err: unknown) => http.log.error({ err }, 'resuming the job runs of dead processes failed'));
  campaigns.startProgress();
  const ticketCounts = new TicketCountsFolder(db, http.log.child({ module: 'ticket-counts' }));
  ticketCounts.start();
  // Scheduled messages that fell due while the app was stopped go out now (marked late), once the connections run.
  await schedules.sweep().catch((err: unknown) => http.log.error({ err }, 'the scheduled messages sweep failed'));

  let closing: Promise<void> | undefined;
  return {
    http,
    io,
    publishes,
    database,
    services: { events, auth, users, settings, queues, contacts, quickAnswers, sessions, whatsapps, tickets, messages, inbound, chatbot, media, campaigns, groups, schedules, history, jobs, email, outreach, auditLog, autoAssign, webhooks, webhookEvents },
    config,
    metrics,
    close(closeOptions = {}) {
      closing ??= (async () => {
        const timeoutMs = closeOptions.timeoutMs ?? config.shutdownTimeoutMs;
        stopping = true;
        campaigns.stopProgress();
        // Stop taking HTTP work: the listener closes and new requests on kept-alive connections get 503; the
        // ones being served go on. Fastify's close resolves once every socket is gone, Socket.IO's included (below).
        const httpClosed = http.close();
        // The requests being served and the jobs running here finish (a step finishing its send still has its
        // connection), each wait bounded; pg-boss fetches nothing more.
        const [idle] = await Promise.all([inFlight.idle(timeoutMs), jobs.stop(timeoutMs)]);
        if (!idle) http.log.warn({ requests: inFlight.size, timeoutMs }, 'shutdown: requests still running after the timeout');
        await chatbot.close();
        await autoAssign.stop();
        // What changed here is told (or left in the outbox for the next process's sweep if the database is gone).
        webhookEvents.close();
        await webhookEvents.idle().catch(() => undefined);
        // Hands the connections back: another process takes them over from their stored auth state.
        await sessions.stopAll();
        await io.close();
        await httpClosed;
        await ticketCounts.stop();
        if (ownsDatabase) await database.close();
      })();
      return closing;
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
    // As the router reads it: /%61pi/x and //api/x are API paths too, answered with the same JSON 404.
    const url = routerPath(request.url);
    // /metrics (Prometheus) when the metrics are off: a JSON 404, never the web app's page.
    if (url.startsWith('/api') || url.startsWith('/socket.io') || url === '/metrics' || url.startsWith('/assets/') || request.method !== 'GET') {
      return reply.status(404).send({ error: 'ERR_NOT_FOUND', message: 'Not found' } satisfies ErrorBody);
    }
    if (!hasWeb) return reply.status(404).type('text/plain').send('The web app is not built: run npm run build.');
    return reply.sendFile('index.html');
  });
}

/** The origin of an http(s) URL (a safe CSP source: scheme, host and port only), else null. */
function originOf(url: string): string | null {
  try {
    const parsed = new URL(url.trim());
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}
