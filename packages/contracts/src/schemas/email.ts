import { z } from 'zod';
import { textField } from '../validation.js';
import { isEmailAddress } from './settings.js';

/** The largest attachment an e-mail carries (the send API's zdgContent, a transcript's media in total). */
export const MAX_EMAIL_ATTACHMENT_BYTES = 10 * 1024 * 1024;
/** base64 of MAX_EMAIL_ATTACHMENT_BYTES, rounded up to whole groups of 4. */
const MAX_BASE64_CHARS = Math.ceil(MAX_EMAIL_ATTACHMENT_BYTES / 3) * 4;

const apiToken = z.string().max(500).optional();
const subject = z.string({ error: 'Required' }).trim().min(1, 'Required').max(500, 'Too Long!').refine((v) => !/[\r\n\0]/.test(v), 'One line, no control characters');
const text = textField(100000).trim().min(1, 'Required');
export const emailAddressField = z
  .string({ error: 'Required' })
  .trim()
  .min(1, 'Required')
  .refine(isEmailAddress, 'Invalid email');
const fileName = z
  .string({ error: 'Required' })
  .trim()
  .min(1, 'Required')
  .max(200, 'Too Long!')
  .refine((v) => !/[/\\\0\r\n]/.test(v) && v !== '.' && v !== '..', 'A file name, without folders');
const base64Content = z
  .string({ error: 'Required' })
  .trim()
  .min(1, 'Required')
  .max(MAX_BASE64_CHARS, 'File too large (10 MB at most)')
  .refine((v) => /^[A-Za-z0-9+/]*={0,2}$/.test(v.replace(/\s+/g, '')), 'Must be base64');

/** `POST /api/zdgSendEmail`: an e-mail to the setting emailTo. */
export const SendEmailInput = z.object({ zdgSubject: subject, zdgText: text, token: apiToken });
/** `POST /api/zdgSendEmailUser`: an e-mail to `zdgTo`. */
export const SendEmailUserInput = SendEmailInput.extend({ zdgTo: emailAddressField });
/** `POST /api/zdgSendEmailAttach`: an e-mail with one attachment (base64) to emailTo. */
export const SendEmailAttachInput = SendEmailInput.extend({ zdgFileName: fileName, zdgContent: base64Content });
/** `POST /api/zdgSendEmailAttachUser`: the same, to `zdgTo`. */
export const SendEmailAttachUserInput = SendEmailAttachInput.extend({ zdgTo: emailAddressField });

/** `POST /api/settings/email/test`: a test e-mail to `to` (emailTo when absent), with the saved settings. */
export const EmailTestInput = z.object({ to: emailAddressField.optional() });
/**
 * `POST /api/tickets/:ticketId/email`: the conversation's transcript to `to` (emailTo when absent). Internal notes
 * are left out unless `includeNotes` (issue 36 §1): then each shows as "Note · <attendant>".
 */
export const TicketEmailInput = z.object({
  to: emailAddressField.optional(),
  includeNotes: z.boolean().optional().meta({ description: "Include the ticket's internal notes (left out by default)" }),
});
export type TicketEmailInput = z.infer<typeof TicketEmailInput>;

/** The answer of every e-mail send: the SMTP server's message id and who received it. */
export const EmailSentResponse = z
  .object({
    messageId: z.string(),
    to: z.string(),
    /** Media left out of a transcript because the attachments would exceed the size limit. */
    omittedAttachments: z.number().int().optional(),
  })
  .meta({ id: 'EmailSent', description: 'The SMTP server accepted the e-mail: its message id and the recipient.' });
export type EmailSentResponse = z.infer<typeof EmailSentResponse>;
