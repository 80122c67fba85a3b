import type { RouteAccess, RouteTool } from './auth-hook.js';

/**
 * The expected authorization of every route, checked by route-access.test.ts against the server's own route
 * table. A new route fails that test until it has a line here: decide who may call it, then add it.
 *
 * - `access`: who passes the route's guard (`public`: anyone; `user`: any signed-in user; `admin`: admins;
 *   `apiToken`: the API token or an admin — anonymous callers get 401 ERR_INVALID_API_TOKEN, users 403).
 * - `scope: 'ticket'`: the route acts on one ticket (its id in the path); a user who may not see that ticket
 *   (outside its queue) gets 403/404 and the route changes nothing.
 * - `user: 'forbidden'`: a plain user passes the guard but the service refuses with 403 ERR_NO_PERMISSION for
 *   the object the test uses (someone else's record, a rule of §6).
 * - `tool`: the route belongs to a tool of the setting attendantTools (issue 32): a plain user gets 403
 *   ERR_NO_PERMISSION when the setting leaves the tool out (several: all of them); admins always pass.
 */
export interface ExpectedRoute {
  access: RouteAccess;
  tool?: RouteTool;
  scope?: 'ticket' | 'message';
  user?: 'forbidden';
}

/** The pages /SMS, /VoiceCall and /InstaDirect share their routes; the service checks the batch's channel. */
const OUTREACH = ['sms', 'voice', 'instagram'] as const;

export const EXPECTED_ROUTE_ACCESS: Record<string, ExpectedRoute> = {
  // Web app (index.html, static files)
  'GET /': { access: 'public' },
  'GET /*': { access: 'public' },
  // The user guide (docs/guide, decision 0036): the repository's public text, read before signing in too.
  'GET /guide': { access: 'public' },
  'GET /guide/*': { access: 'public' },

  // Probes (issue 17): liveness and readiness carry no data.
  'GET /api/health': { access: 'public' },
  'GET /api/ready': { access: 'public' },
  // Prometheus (METRICS_ENABLED only): the METRICS_TOKEN bearer is its own credential, checked by the route.
  'GET /metrics': { access: 'public' },

  // Meta's webhook (issue 16): the verify token (GET) and the body's signature (POST) are the credentials.
  'GET /api/webhooks/instagram': { access: 'public' },
  'POST /api/webhooks/instagram': { access: 'public' },

  // Authentication: public by nature; the refresh cookie or the credentials are the proof.
  'POST /api/auth/login': { access: 'public' },
  'POST /api/auth/refresh_token': { access: 'public' },
  'DELETE /api/auth/logout': { access: 'public' },
  'POST /api/auth/signup': { access: 'public' },
  // Whether sign-up is open (the login page's link): the userCreation setting, nothing else.
  'GET /api/auth/signup': { access: 'public' },
  // Two-factor sign-in (issue 37 §1): the second step's mfaToken is its proof; the rest acts on the signed-in user.
  'POST /api/auth/mfa': { access: 'public' },
  'POST /api/auth/mfa/setup': { access: 'user' },
  'POST /api/auth/mfa/enable': { access: 'user' },
  'POST /api/auth/mfa/disable': { access: 'user' },
  // An admin turns off someone's second factor (a lost phone); audited.
  'DELETE /api/users/:id/mfa': { access: 'admin' },

  // Media files: the signature in the URL is the credential (decision 0002).
  'GET /api/media/:name': { access: 'public' },

  // Meta's Cloud API webhook (issue 18): the verify token (GET) and the X-Hub-Signature-256 over the body (POST) are the proof.
  'GET /api/webhooks/whatsapp/:connectionId': { access: 'public' },
  'POST /api/webhooks/whatsapp/:connectionId': { access: 'public' },

  // Admins: every field; attendants: colleagues (id, name, queues) found by name, for a transfer (issue 32).
  'GET /api/users': { access: 'user' },
  'GET /api/users/list': { access: 'user' },
  'GET /api/users/:id': { access: 'user', user: 'forbidden' },
  'POST /api/users': { access: 'admin' },
  // A user edits their own record; maxOpenTickets (issue 36 §4), profile and queues only an admin (the service refuses them to a user).
  'PUT /api/users/:id': { access: 'user' },
  'DELETE /api/users/:id': { access: 'admin' },

  'GET /api/settings': { access: 'user' },
  'POST /api/settings/userApiToken/regenerate': { access: 'admin' },
  // Every switch and text, csatEnabled and csatMessage (issue 36 §5) among them.
  'PUT /api/settings/:key': { access: 'admin' },
  'POST /api/settings/email/test': { access: 'admin' },
  'POST /api/tickets/:ticketId/email': { access: 'user', tool: 'email', scope: 'ticket' },

  'GET /api/queue': { access: 'user' },
  'GET /api/queue/:id': { access: 'user' },
  // A queue's business hours and out-of-hours message (issue 36 §3) and autoAssign (§4) are saved with it, by admins.
  'POST /api/queue': { access: 'admin' },
  'PUT /api/queue/:id': { access: 'admin' },
  'DELETE /api/queue/:id': { access: 'admin' },
  // Labels (issue 36 §2): everyone reads them to pick; admins manage them.
  'GET /api/labels': { access: 'user' },
  'POST /api/labels': { access: 'admin' },
  'PUT /api/labels/:id': { access: 'admin' },
  'DELETE /api/labels/:id': { access: 'admin' },

  // The audit log (issue 37 §2): admins read and export it; no route changes an entry.
  'GET /api/audit': { access: 'admin' },
  'GET /api/audit/export': { access: 'admin' },

  // Outgoing webhooks (issue 37 §3): admins only (the secrets are in the answers).
  'GET /api/webhooks': { access: 'admin' },
  'POST /api/webhooks': { access: 'admin' },
  'PUT /api/webhooks/:id': { access: 'admin' },
  'DELETE /api/webhooks/:id': { access: 'admin' },
  'POST /api/webhooks/:id/test': { access: 'admin' },
  'GET /api/webhooks/:id/deliveries': { access: 'admin' },
  'POST /api/webhooks/:id/deliveries/:deliveryId/redeliver': { access: 'admin' },
  'GET /api/quickAnswers': { access: 'user' },
  'GET /api/quickAnswers/:id': { access: 'user' },
  'POST /api/quickAnswers': { access: 'user' },
  'PUT /api/quickAnswers/:id': { access: 'user' },
  'DELETE /api/quickAnswers/:id': { access: 'user' },

  'GET /api/contacts': { access: 'user' },
  'GET /api/contacts/export.csv': { access: 'user', tool: 'contactsExport' },
  'GET /api/contacts/:id': { access: 'user' },
  'POST /api/contacts': { access: 'user' },
  'POST /api/contact': { access: 'user' },
  'POST /api/contacts/import': { access: 'user', tool: 'contactsImport' },
  'POST /api/contacts/import/csv': { access: 'user', tool: 'contactsImport' },
  // labelIds (issue 36 §2) too: any signed-in user, as the rest of a contact.
  'PUT /api/contacts/:id': { access: 'user' },
  'DELETE /api/contacts/:id': { access: 'user', user: 'forbidden' },

  'GET /api/whatsapp': { access: 'user' },
  'GET /api/whatsapp/:id': { access: 'user' },
  'GET /api/whatsapp/:id/templates': { access: 'user' },
  // A connection's default schedule and out-of-hours message (issue 36 §3, before a queue is chosen) with it.
  'POST /api/whatsapp': { access: 'admin' },
  'PUT /api/whatsapp/:id': { access: 'admin' },
  'DELETE /api/whatsapp/:id': { access: 'admin' },
  'POST /api/whatsappsession/:id': { access: 'admin' },
  'PUT /api/whatsappsession/:id': { access: 'admin' },
  'DELETE /api/whatsappsession/:id': { access: 'admin' },

  // labelIds filters (issue 36 §2) within what the caller may see.
  'GET /api/tickets': { access: 'user' },
  'GET /api/tickets/:id': { access: 'user', scope: 'ticket' },
  'POST /api/tickets': { access: 'user' },
  // labelIds (issue 36 §2): whoever may act on the ticket; its csat (§5) and arrivedOutOfHours (§3) are read-only.
  'PUT /api/tickets/:id': { access: 'user', scope: 'ticket' },
  'POST /api/tickets/:id/protocol': { access: 'user', scope: 'ticket' },
  'DELETE /api/tickets/:id': { access: 'admin' },
  'POST /api/ticketsClosed': { access: 'user' },

  'GET /api/messages/:id': { access: 'user', scope: 'ticket' },
  // A reply, or an internal note with private: true (issue 36 §1).
  'POST /api/messages/:id': { access: 'user', scope: 'ticket' },
  'POST /api/messages/:ticketId/template': { access: 'user', scope: 'ticket' },
  'DELETE /api/messages/:id': { access: 'user', scope: 'message' },
  'POST /api/messages/:messageId/react': { access: 'user', scope: 'message' },
  // Whom an internal note may name (issue 36 §1): the colleagues who may see the ticket.
  'GET /api/tickets/:ticketId/mentionable': { access: 'user', scope: 'ticket' },
  // The caller's own mentions (the bell after a reload), and marking those of one ticket seen.
  'GET /api/mentions': { access: 'user' },
  'POST /api/tickets/:ticketId/mentions/seen': { access: 'user', scope: 'ticket' },

  'GET /api/dashboard': { access: 'user' },
  // Reports (issue 36 §6, decision 0042): an attendant gets their own line (attendants, daily); the queues report is admins'.
  'GET /api/reports/attendants': { access: 'user' },
  'GET /api/reports/queues': { access: 'user', user: 'forbidden' },
  'GET /api/reports/daily': { access: 'user' },

  // Bulk sends (issue 12): any signed-in user starts one; someone else's campaign answers 404 to a non-admin.
  // The tools' routes (issue 32): a signed-in user's while the setting attendantTools opens the tool to attendants.
  'POST /api/campaigns': { access: 'user', tool: 'bulk' },
  'GET /api/campaigns': { access: 'user', tool: 'bulk' },
  'GET /api/campaigns/media-folder': { access: 'user', tool: 'bulk' },
  'GET /api/campaigns/:id': { access: 'user', tool: 'bulk' },
  'GET /api/campaigns/:id/recipients': { access: 'user', tool: 'bulk' },
  'GET /api/campaigns/:id/recipients.csv': { access: 'user', tool: 'bulk' },
  'POST /api/campaigns/:id/pause': { access: 'user', tool: 'bulk' },
  'POST /api/campaigns/:id/resume': { access: 'user', tool: 'bulk' },
  'POST /api/campaigns/:id/cancel': { access: 'user', tool: 'bulk' },
  'GET /api/jobs/:id': { access: 'apiToken' },

  // Group actions and history imports (issues 13, 14, 32): an attendant's only their own (another's answers 404).
  'GET /api/groups': { access: 'user', tool: 'groups' },
  'POST /api/groups/actions': { access: 'user', tool: 'groups' },
  'GET /api/groups/actions': { access: 'user', tool: 'groups' },
  'GET /api/groups/actions/:id': { access: 'user', tool: 'groups' },
  'GET /api/groups/actions/:id/items': { access: 'user', tool: 'groups' },
  'POST /api/groups/actions/:id/cancel': { access: 'user', tool: 'groups' },
  'GET /api/history/device': { access: 'user', tool: 'history' },
  'POST /api/history/imports': { access: 'user', tool: 'history' },
  'GET /api/history/imports': { access: 'user', tool: 'history' },
  'GET /api/history/imports/:id': { access: 'user', tool: 'history' },
  'POST /api/history/imports/:id/cancel': { access: 'user', tool: 'history' },

  // Scheduled messages (issue 14): any signed-in user; an attendant's only their own (another's answers 404).
  'POST /api/schedules': { access: 'user', tool: 'schedules' },
  'GET /api/schedules': { access: 'user', tool: 'schedules' },
  'GET /api/schedules/:id': { access: 'user', tool: 'schedules' },
  'PUT /api/schedules/:id': { access: 'user', tool: 'schedules' },
  'DELETE /api/schedules/:id': { access: 'user', tool: 'schedules' },

  // The send API (§7 auxiliary calls): the API token (userApiToken) or an admin's access token.
  'POST /api/zdg': { access: 'apiToken' },
  'POST /api/sendMedia': { access: 'apiToken' },
  'POST /api/sendMediaZDG': { access: 'apiToken' },
  'POST /api/sendMediaZDGRec': { access: 'apiToken' },
  'GET /api/whatsappzdg': { access: 'apiToken' },
  'GET /api/whatsappzdg/active': { access: 'apiToken' },
  'POST /api/zdgGetWppId': { access: 'apiToken' },
  'POST /api/syncMessage': { access: 'apiToken' },
  'POST /api/zdgSyncMessageUser': { access: 'apiToken' },
  'POST /api/zdgProtocolo': { access: 'apiToken' },
  'GET /api/contactsZDG': { access: 'apiToken' },
  'POST /api/delContacts': { access: 'apiToken' },
  'POST /api/sendAgendamento': { access: 'apiToken' },
  'POST /api/zdgGroups': { access: 'apiToken' },
  'POST /api/zdgGroupsDescription': { access: 'apiToken' },
  'POST /api/zdgGroupsCreate': { access: 'apiToken' },
  'POST /api/zdgGroupsMessage': { access: 'apiToken' },
  'POST /api/zdgOpenGroup': { access: 'apiToken' },
  'POST /api/zdgCloseGroup': { access: 'apiToken' },
  'POST /api/zdgSendEmail': { access: 'apiToken' },
  'POST /api/zdgSendEmailUser': { access: 'apiToken' },
  'POST /api/zdgSendEmailAttach': { access: 'apiToken' },
  'POST /api/zdgSendEmailAttachUser': { access: 'apiToken' },
  'POST /api/sendSms': { access: 'apiToken' },
  'POST /api/makeVoiceCall': { access: 'apiToken' },
  'POST /api/sendDirect': { access: 'apiToken' },
  // SMS, voice calls and Instagram direct (issues 16, 32): an attendant's only their own batches.
  'POST /api/outreach': { access: 'user', tool: OUTREACH },
  'GET /api/outreach': { access: 'user', tool: OUTREACH },
  'GET /api/outreach/:id': { access: 'user', tool: OUTREACH },
  'POST /api/outreach/:id/cancel': { access: 'user', tool: OUTREACH },
  'GET /api/docs': { access: 'public' },
  // The interactive reference (issue 34 item 3): Swagger UI's page and files, over the same public document.
  'GET /api/reference': { access: 'public' },
  'GET /api/reference/static/index.html': { access: 'public' },
  'GET /api/reference/static/swagger-initializer.js': { access: 'public' },
  'GET /api/reference/json': { access: 'public' },
  'GET /api/reference/yaml': { access: 'public' },
  'GET /api/reference/static/*': { access: 'public' },

  // The simulator (SIMULATOR=on): it plays the contacts' phones, so only admins drive it.
  'POST /api/simulator/:whatsappId/scan': { access: 'admin' },
  'POST /api/simulator/:whatsappId/inbound': { access: 'admin' },
  'GET /api/simulator/:whatsappId/outbox': { access: 'admin' },
  'POST /api/simulator/:whatsappId/ack': { access: 'admin' },
  'POST /api/simulator/:whatsappId/call': { access: 'admin' },
  'GET /api/simulator/:whatsappId/contacts': { access: 'admin' },
  'POST /api/simulator/:whatsappId/groups': { access: 'admin' },
  'GET /api/simulator/:whatsappId/groups': { access: 'admin' },
  'POST /api/simulator/:whatsappId/history': { access: 'admin' },
  // Files the simulated phone received: the signature in the URL is the credential (an <img> sends no token).
  'GET /api/simulator/:whatsappId/files/:name': { access: 'public' },
};
