import type { TicketDto } from '@wadesk/contracts';

export interface GreetingValues {
  name?: string;
  user?: string;
  ticketId?: number;
  queue?: string;
  connection?: string;
  now?: Date;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** 'Bom dia' before noon, 'Boa tarde' until 18:00, 'Boa noite' after (the product's audience is Brazilian). */
export function greetingFor(date: Date): string {
  const hour = date.getHours();
  if (hour >= 5 && hour < 12) return 'Bom dia';
  if (hour >= 12 && hour < 18) return 'Boa tarde';
  return 'Boa noite';
}

/** Renders the placeholders of §3: {{name}}, {{greeting}}, {{date}}, {{hour}}, {{ticket_id}}, {{queue}}, {{connection}}, {{user}}. */
export function renderGreeting(template: string, values: GreetingValues): string {
  const now = values.now ?? new Date();
  const replacements: Record<string, string> = {
    name: values.name ?? '',
    user: values.user ?? '',
    greeting: greetingFor(now),
    date: `${pad(now.getDate())}/${pad(now.getMonth() + 1)}/${now.getFullYear()}`,
    hour: `${pad(now.getHours())}:${pad(now.getMinutes())}`,
    ticket_id: values.ticketId !== undefined ? String(values.ticketId) : '',
    queue: values.queue ?? '',
    connection: values.connection ?? '',
  };
  return template.replace(/\{\{\s*([a-z_]+)\s*\}\}/gi, (whole, key: string) => replacements[key.toLowerCase()] ?? whole);
}

/**
 * The placeholder values of a message sent on a ticket (greeting, queue greeting, farewell): the contact's
 * name, the attendant (the ticket's, else `fallbackUser`), the ticket id, its queue and connection.
 */
export function ticketTemplateValues(
  ticket: Pick<TicketDto, 'id' | 'contact' | 'user' | 'queue'>,
  connectionName: string | undefined,
  extra: { fallbackUser?: string; now?: Date } = {},
): GreetingValues {
  return {
    name: ticket.contact.name,
    user: ticket.user?.name ?? extra.fallbackUser,
    ticketId: ticket.id,
    queue: ticket.queue?.name,
    connection: connectionName,
    now: extra.now,
  };
}

/** The numbered queue list sent when a connection has several queues: `*1* - Sales`. */
export function queueMenu(queueNames: string[]): string {
  return queueNames.map((name, i) => `*${i + 1}* - ${name}`).join('\n');
}
