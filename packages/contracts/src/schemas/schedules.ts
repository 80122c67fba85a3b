import { FIELD_MESSAGES } from '../validation-messages.js';
import { z } from 'zod';
import { calendarDateField, dateTimeText, dayAsWrittenField, idField, pageNumberField, textField } from '../validation.js';
import { MessageTemplateDto } from './campaigns.js';
import { MessageTemplateField } from './whatsapp.js';

/**
 * Scheduled messages (/ZDGAgendamento, §2; issue 14). A schedule is one message (text, or a file by URL with the
 * text as its caption) to one contact, sent by a delayed job at `sendAt` into the contact's ticket, like a message
 * an attendant typed. Status:
 * - scheduled: waiting for its time (only now may it be changed or cancelled);
 * - sending: claimed by the job, the network is being called (a schedule left here by a crash becomes `failed`,
 *   never sent again: decision 0014's rule);
 * - sent: with the sent message's id (`messageId`) and ticket, `late` when it went out well after its time (the
 *   app was stopped at that moment);
 * - failed: with the reason (`error`);
 * - cancelled.
 */
export const SCHEDULE_STATUSES = ['scheduled', 'sending', 'sent', 'failed', 'cancelled'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

export const SCHEDULE_PAGE_SIZE = 20;
/** A schedule sent more than this after its time is marked late. */
export const SCHEDULE_LATE_AFTER_MS = 60_000;
export const MAX_SCHEDULE_BODY = 30000;

const isoTime = z
  .string({ error: 'Required' })
  .trim()
  .min(1, 'Required')
  .refine((value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/.test(value) && !Number.isNaN(Date.parse(value)), {
    message: 'Must be an ISO date and time with its offset (2026-11-25T14:30:00Z)',
  });

const mediaUrlField = textField(2000)
  .trim()
  .refine((value) => {
    if (value === '') return true;
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, FIELD_MESSAGES.httpUrl)
  .optional();

/** `POST /api/schedules`: to a contact (`contactId`) or a number (not both), text and/or a file by URL, at `sendAt`. */
export const ScheduleInput = z.object({
  whatsappId: idField.optional(),
  contactId: idField.optional(),
  number: z.string().trim().max(60, 'Too Long!').optional(),
  body: textField(MAX_SCHEDULE_BODY).optional().default(''),
  mediaUrl: mediaUrlField,
  sendAt: isoTime,
  /** An approved template instead of body and file: required on a `cloud-api` connection (issue 18). */
  template: MessageTemplateField.optional(),
});
export type ScheduleInput = z.input<typeof ScheduleInput>;
export type ScheduleData = z.output<typeof ScheduleInput>;

/** `PUT /api/schedules/:id`: any of the message, file, time or connection (the recipient stays). */
export const ScheduleUpdateInput = z.object({
  whatsappId: idField.optional(),
  body: textField(MAX_SCHEDULE_BODY).optional(),
  mediaUrl: mediaUrlField.nullable(),
  sendAt: isoTime.optional(),
  /** The template (null: none); the rule of the (new) connection's channel applies (issue 18). */
  template: MessageTemplateField.nullable().optional(),
});
export type ScheduleUpdateInput = z.input<typeof ScheduleUpdateInput>;
export type ScheduleUpdateData = z.output<typeof ScheduleUpdateInput>;

/** `GET /api/schedules`: `date` is a day of the server's time zone (as `dataEnvio`). */
export const ScheduleListQuery = z.object({
  status: z.enum(SCHEDULE_STATUSES, { error: `Must be one of: ${SCHEDULE_STATUSES.join(', ')}` }).optional(),
  date: calendarDateField.optional(),
  contactId: idField.optional(),
  pageNumber: pageNumberField,
});
export type ScheduleListQuery = z.input<typeof ScheduleListQuery>;

export const ScheduleDto = z
  .object({
    id: z.number().int(),
    status: z.enum(SCHEDULE_STATUSES),
    whatsappId: z.number().int(),
    whatsappName: z.string().nullable(),
    contactId: z.number().int().nullable(),
    contactName: z.string().nullable(),
    number: z.string(),
    body: z.string(),
    mediaUrl: z.string().nullable(),
    /** The template it goes out as (cloud-api connections, issue 18); null for text or a file. */
    template: MessageTemplateDto.nullable(),
    /** When it is due (UTC, ISO). */
    sendAt: dateTimeText,
    /** Who scheduled it; null once that user is deleted. */
    userId: z.number().int().nullable(),
    userName: z.string().nullable(),
    /** Why it failed. */
    error: z.string().nullable(),
    /** The sent message (and its ticket). */
    messageId: z.number().int().nullable(),
    ticketId: z.number().int().nullable(),
    sentAt: dateTimeText.nullable(),
    /** Sent more than a minute after its time (the app was not running then). */
    late: z.boolean(),
    createdAt: dateTimeText,
    updatedAt: dateTimeText,
  })
  .meta({ id: 'Schedule', description: 'A scheduled message.' });
export type ScheduleDto = z.infer<typeof ScheduleDto>;

export const ScheduleListResponse = z.object({ schedules: z.array(ScheduleDto), hasMore: z.boolean() });
export type ScheduleListResponse = z.infer<typeof ScheduleListResponse>;

/**
 * `POST /api/sendAgendamento` (§7, the DISPARAR button): sends now every scheduled message of the day `dataEnvio`
 * (a day of the server's time zone, given as `YYYY-MM-DD`, `dd/MM/yyyy` or an ISO date-time: `dayField`) on the
 * connection `ticketwhatsappId` (the default one when absent).
 */
export const SendSchedulesInput = z.object({
  dataEnvio: dayAsWrittenField({ dayMonthYear: true }),
  token: z.string().max(500).optional(),
  ticketwhatsappId: idField.optional(),
});
export type SendSchedulesInput = z.input<typeof SendSchedulesInput>;

export const SendSchedulesResponse = z.object({
  /** The day, YYYY-MM-DD. */
  dataEnvio: z.string(),
  whatsappId: z.number().int(),
  /** The schedules queued to be sent now. */
  scheduleIds: z.array(z.number().int()),
  count: z.number().int(),
});
export type SendSchedulesResponse = z.infer<typeof SendSchedulesResponse>;

/** Payload of the `schedule.send` job: sends the schedule if it is still `scheduled` at this `version`. */
export const ScheduleSendJob = z.object({
  scheduleId: z.number().int().positive(),
  version: z.number().int().positive(),
  /** When the first attempt found the connection down (ISO); the job gives up after a while. */
  waitingSince: z.string().max(40).optional(),
});
export type ScheduleSendJob = z.infer<typeof ScheduleSendJob>;
