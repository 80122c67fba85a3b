export * from './errors.js';
export * from './error-messages.js';
export * from './validation.js';
export * from './socket-events.js';
export * from './schemas/auth.js';
export * from './schemas/users.js';
export * from './schemas/business-hours.js';
export * from './schemas/queues.js';
export * from './schemas/labels.js';
export * from './schemas/settings.js';
export * from './schemas/whatsapp.js';
export * from './schemas/simulator.js';
export * from './schemas/contacts.js';
export * from './schemas/quick-answers.js';
export * from './schemas/tickets.js';
export * from './schemas/campaigns.js';
export * from './schemas/send-api.js';
export * from './schemas/groups.js';
export * from './schemas/schedules.js';
export * from './schemas/history.js';
export * from './schemas/email.js';
export * from './schemas/outreach.js';
export * from './schemas/dashboard.js';
export * from './schemas/reports.js';
export * from './schemas/health.js';
export * from './schemas/webhooks.js';
export * from './schemas/audit.js';
export * from './whatsapp-number.js';
export * from './permissions.js';
export * from './search-excerpt.js';
export * from './message-preview.js';
export * from './reactions.js';
export * from './mentions.js';
export * from './csv.js';

export interface Paginated {
  hasMore: boolean;
  count: number;
}

/** Page sizes (architecture: tickets 40, messages 20, the rest 20). */
export const PAGE_SIZE = { tickets: 40, messages: 20, contacts: 20, users: 20, quickAnswers: 20 } as const;
