import { MAX_EMAIL_ATTACHMENT_BYTES, type EmailSentResponse, type TicketDto } from '@wadesk/contracts';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Database } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { MediaStorage } from '../../storage/media-storage.js';
import type { SettingsService } from '../settings/settings.service.js';
import { EmailRepository } from './email.repository.js';

export interface EmailAttachment {
  filename: string;
  content: Buffer;
  contentType?: string;
}

export interface OutgoingEmail {
  /** An address; the setting emailTo when absent. */
  to?: string;
  subject: string;
  text: string;
  attachments?: EmailAttachment[];
}

export interface EmailServiceOptions {
  log?: FastifyBaseLogger;
  /** How long to wait for the SMTP server (connection, greeting, each command), in ms. */
  timeoutMs?: number;
}

/**
 * Which setting an SMTP failure points at (nodemailer's error code), and what the web says of it
 * (`validation.issues.<code>`): the server's own words stay in the message, for logs and API clients.
 */
function smtpFailure(err: unknown): { path: string; code: string } {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'EAUTH' || code === 'ENOAUTH') return { path: 'emailUser', code: 'emailAuth' };
  if (code === 'EENVELOPE') return { path: 'emailTo', code: 'emailRecipient' };
  if (typeof code === 'string' && ['ECONNECTION', 'EDNS', 'ETIMEDOUT', 'ESOCKET', 'ETLS', 'EPROTOCOL', 'ECONNREFUSED'].includes(code)) {
    return { path: 'emailHost', code: 'emailConnection' };
  }
  return { path: '', code: 'emailOther' };
}

/** Who sent a message of the desk's side, as the chat names it (decision 0029: origin, sender kind, attendant). */
function deskSender(m: { origin: string | null; originId: number | null; senderKind: string; sentBy: string | null }): string {
  const numbered = (what: string) => (m.originId ? `${what} #${m.originId}` : what);
  switch (m.origin) {
    case 'campaign':
      return numbered('Bulk send');
    case 'schedule':
      return numbered('Scheduled message');
    case 'group-action':
      return numbered('Group action');
    case 'api':
      return 'Send API';
    case 'phone':
      return 'Phone';
    default:
      if (m.origin === 'bot' || m.senderKind === 'bot') return 'Chatbot';
      if (m.origin === 'system' || m.senderKind === 'auto') return 'Automatic';
      return m.sentBy ?? 'Attendant';
  }
}

/** The name a message's file is attached as: its original name, else its kind, time and extension. */
function attachmentName(original: string | null, stored: string, mediaType: string, at: Date): string {
  if (original) return original;
  const ext = stored.includes('.') ? stored.slice(stored.lastIndexOf('.')) : '';
  return `${mediaType} ${at.toISOString().slice(0, 19).replace('T', ' ').replace(/:/g, '-')}${ext}`;
}

/** The name itself, or with " (2)", " (3)"… before its extension when an earlier attachment has it. */
function unique(filename: string, taken: Set<string>): string {
  const dot = filename.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [filename.slice(0, dot), filename.slice(dot)] : [filename, ''];
  let candidate = filename;
  for (let n = 2; taken.has(candidate); n += 1) candidate = `${stem} (${n})${ext}`;
  taken.add(candidate);
  return candidate;
}

/** One line of a transcript: when (UTC), who, what. */
function transcriptTime(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * E-mail through the SMTP server of the settings (emailHost, emailPort, emailSecure, emailUser, emailPass,
 * emailFrom, emailTo) with nodemailer. Every send is one SMTP conversation; a refusal or a server that is
 * down or silent becomes ERR_EMAIL_SEND_FAILED with the server's reason, shown by the page.
 */
export class EmailService {
  constructor(
    private readonly db: Database,
    private readonly settings: SettingsService,
    private readonly media: MediaStorage,
    private readonly options: EmailServiceOptions = {},
  ) {}

  private async config() {
    const [host, port, secure, user, pass, from, to] = await Promise.all(
      (['emailHost', 'emailPort', 'emailSecure', 'emailUser', 'emailPass', 'emailFrom', 'emailTo'] as const).map((k) => this.settings.value(k)),
    );
    return { host: host!, port: Number(port) || 587, secure: secure!, user: user!, pass: pass!, from: from || user!, to: to! };
  }

  async send(mail: OutgoingEmail): Promise<EmailSentResponse> {
    const config = await this.config();
    const to = mail.to ?? config.to;
    const missing = [!config.host && 'emailHost', !config.from && 'emailFrom', !to && 'emailTo'].filter(Boolean);
    if (missing.length > 0) {
      throw new AppError('ERR_EMAIL_NOT_CONFIGURED', `E-mail is not configured: set ${missing.join(', ')} in the settings.`, {
        issues: missing.map((key) => ({ path: String(key), message: 'Required', code: 'settingMissing' })),
      });
    }
    const timeout = this.options.timeoutMs ?? 20_000;
    const transport = nodemailer.createTransport({
      host: config.host,
      port: config.port,
      secure: config.secure === 'tls',
      requireTLS: config.secure === 'starttls',
      ignoreTLS: config.secure === 'none',
      auth: config.user ? { user: config.user, pass: config.pass } : undefined,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
    });
    try {
      const info = await transport.sendMail({
        from: config.from,
        to,
        subject: mail.subject,
        text: mail.text,
        attachments: mail.attachments?.map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType })),
      });
      this.options.log?.info({ to, messageId: info.messageId }, 'e-mail sent');
      return { messageId: info.messageId, to };
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.options.log?.warn({ to, reason }, 'e-mail failed');
      throw new AppError('ERR_EMAIL_SEND_FAILED', `The e-mail was not sent: ${reason}`, { issues: [{ ...smtpFailure(err), message: reason }] });
    } finally {
      transport.close();
    }
  }

  /** Whether the ticket-closed e-mails can go out (a server and a recipient are set). */
  async configured(): Promise<boolean> {
    const config = await this.config();
    return Boolean(config.host && config.from && config.to);
  }

  /**
   * The ticket-closed e-mail to emailTo (§4: Resolve, and Protocolo with its number), when e-mail is configured;
   * its failure is only logged (§7).
   */
  async sendTicketClosed(ticket: TicketDto, by: string): Promise<void> {
    if (!(await this.configured())) return;
    const what = ticket.protocol ? `Protocolo ${ticket.protocol}` : 'Resolved';
    const lines = [
      `Ticket #${ticket.id} was closed by ${by}.`,
      `Contact: ${ticket.contact.name} (${ticket.contact.number})`,
      ...(ticket.protocol ? [`Protocol: ${ticket.protocol}`] : []),
      ...(ticket.queue ? [`Queue: ${ticket.queue.name}`] : []),
    ];
    await this.send({ subject: `Ticket #${ticket.id} closed — ${what}`, text: `${lines.join('\n')}\n` }).catch(() => undefined);
  }

  /** The settings page's test: a short e-mail with the saved settings. */
  async sendTest(to?: string): Promise<EmailSentResponse> {
    return this.send({
      to,
      subject: 'Test e-mail',
      text: 'This test e-mail was sent from the settings page: the e-mail settings work.',
    });
  }

  /**
   * The conversation of a ticket (the caller checked the user may see it): every message with its time (UTC),
   * its sender and its text; media as attachments while they fit in MAX_EMAIL_ATTACHMENT_BYTES together. Internal
   * notes are left out unless `includeNotes` (issue 36 §1), then shown as "Note · <attendant>".
   */
  async sendTranscript(ticket: TicketDto, to: string | undefined, options: { includeNotes?: boolean } = {}): Promise<EmailSentResponse> {
    const all = await new EmailRepository(this.db).transcript(ticket.id);
    const rows = options.includeNotes ? all : all.filter((m) => !m.private);

    const attachments: EmailAttachment[] = [];
    let total = 0;
    let omitted = 0;
    const lines: string[] = [];
    const names = new Set<string>();
    for (const m of rows) {
      const from = m.private ? `Note · ${m.sentBy ?? 'Attendant'}` : m.fromMe ? deskSender(m) : (m.participantName ?? ticket.contact.name);
      let body = m.isDeleted ? '(deleted)' : m.body;
      if (!m.isDeleted && m.mediaType && m.mediaUrl) {
        const name = this.media.nameOf(m.mediaUrl);
        const data = name ? await this.media.read(name) : null;
        if (data && name && total + data.length <= MAX_EMAIL_ATTACHMENT_BYTES) {
          total += data.length;
          const filename = unique(attachmentName(this.media.originalName(m.mediaUrl), name, m.mediaType, m.createdAt), names);
          attachments.push({ filename, content: data });
          body = `${body && body !== filename ? `${body} ` : ''}[${m.mediaType}: attached as ${filename}]`;
        } else {
          omitted += 1;
          body = `${body ? `${body} ` : ''}[${m.mediaType}: not attached${data ? ', too large' : ''}]`;
        }
      }
      lines.push(`[${transcriptTime(m.createdAt)}] ${from}: ${body}`);
    }
    const title = `Ticket #${ticket.id} — ${ticket.contact.name} (${ticket.contact.number})`;
    const text = [title, '', ...(lines.length > 0 ? lines : ['(no messages)']), ''].join('\n');
    const sent = await this.send({ to, subject: `Conversation: ${title}`, text, attachments });
    return omitted > 0 ? { ...sent, omittedAttachments: omitted } : sent;
  }
}
