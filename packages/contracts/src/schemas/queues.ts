import { z } from 'zod';
import { businessHoursFields, BusinessHoursSchema } from './business-hours.js';
import { boundedString, dateTimeText, FIELD_MESSAGES, hasNoNulCharacter, INPUT_MESSAGES, MESSAGES, textField } from '../validation.js';

export const DEFAULT_QUEUE_COLOR = '#7C7C7C';

/** A colour the lists can paint; labels follow the same rule (issue 36). */
export const queueColor = z
  .string({ error: MESSAGES.required })
  .trim()
  .min(1, MESSAGES.required)
  .min(3, MESSAGES.tooShort)
  .max(9, MESSAGES.tooLong)
  .refine(hasNoNulCharacter, INPUT_MESSAGES.invalidCharacter)
  // A colour the lists can paint (issue 33 item 19): #RGB, #RRGGBB, or either with an alpha.
  .refine((value) => /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(value), FIELD_MESSAGES.invalidColor);
const greetingMessage = textField(30000);

export const QueueInput = z.object({
  name: boundedString(2, 50),
  color: queueColor.default(DEFAULT_QUEUE_COLOR),
  greetingMessage: greetingMessage.default(''),
  /** Automatic assignment (issue 36 §4): a new pending ticket goes to an online attendant of the queue. Off by default. */
  autoAssign: z.boolean().default(false),
  /** Opening schedule (issue 36 §3); null = always open. */
  businessHours: businessHoursFields.businessHours.default(null),
  outOfHoursMessage: businessHoursFields.outOfHoursMessage.default(''),
});
export type QueueInput = z.input<typeof QueueInput>;

/** PUT /queue/:id: the fields given change, the others stay (no defaults applied). */
export const QueueUpdateInput = z.object({
  name: boundedString(2, 50).optional(),
  color: queueColor.optional(),
  greetingMessage: greetingMessage.optional(),
  autoAssign: z.boolean().optional(),
  businessHours: businessHoursFields.businessHours.optional(),
  outOfHoursMessage: businessHoursFields.outOfHoursMessage.optional(),
});
export type QueueUpdateInput = z.input<typeof QueueUpdateInput>;

export const QueueDto = z
  .object({
    id: z.number().int(),
    name: z.string(),
    color: z.string(),
    greetingMessage: z.string(),
    autoAssign: z.boolean(),
    /** Opening schedule (issue 36 §3), null = always open; not carried by a ticket's queue. */
    businessHours: BusinessHoursSchema.nullable().optional(),
    /** Sent once per closed period to a contact who writes while the queue is closed; not carried by a ticket's queue. */
    outOfHoursMessage: z.string().optional(),
    createdAt: dateTimeText,
    updatedAt: dateTimeText,
  })
  .meta({ id: 'Queue' });
export type QueueDto = z.infer<typeof QueueDto>;

/** The 50 preset colours of the queue colour picker. */
export const QUEUE_COLOR_PRESETS: readonly string[] = [
  '#B80000', '#DB3E00', '#FCCB00', '#008B02', '#006B76', '#1273DE', '#004DCF', '#5300EB', '#EB9694', '#FAD0C3',
  '#FEF3BD', '#C1E1C5', '#BEDADC', '#C4DEF6', '#BED3F3', '#D4C4FB', '#F44336', '#E91E63', '#9C27B0', '#673AB7',
  '#3F51B5', '#2196F3', '#03A9F4', '#00BCD4', '#009688', '#4CAF50', '#8BC34A', '#CDDC39', '#FFEB3B', '#FFC107',
  '#FF9800', '#FF5722', '#795548', '#607D8B', '#000000', '#7C7C7C', '#9E9E9E', '#263238', '#880E4F', '#4A148C',
  '#1A237E', '#01579B', '#004D40', '#1B5E20', '#33691E', '#827717', '#F57F17', '#E65100', '#BF360C', '#3E2723',
];
