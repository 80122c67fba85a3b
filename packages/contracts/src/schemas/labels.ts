import { z } from 'zod';
import { boundedString, dateTimeText, idField } from '../validation.js';
import { queueColor } from './queues.js';

/** The colour a new label gets when none is chosen. */
export const DEFAULT_LABEL_COLOR = '#1273DE';

/** `POST /api/labels`: a name of 1–30 characters, unique ignoring case, and a colour like a queue's. */
export const LabelInput = z.object({
  name: boundedString(1, 30),
  color: queueColor.default(DEFAULT_LABEL_COLOR),
});
export type LabelInput = z.input<typeof LabelInput>;

/** `PUT /api/labels/:id`: the fields given change. */
export const LabelUpdateInput = z.object({
  name: boundedString(1, 30).optional(),
  color: queueColor.optional(),
});
export type LabelUpdateInput = z.input<typeof LabelUpdateInput>;

/** A label as a ticket or a contact carries it. */
export const LabelRefDto = z.object({ id: z.number().int(), name: z.string(), color: z.string() }).meta({ id: 'LabelRef' });
export type LabelRefDto = z.infer<typeof LabelRefDto>;

/** A label as the admin page lists it: with how many tickets and contacts carry it (the delete confirmation says so). */
export const LabelDto = z
  .object({
    id: z.number().int(),
    name: z.string(),
    color: z.string(),
    ticketCount: z.number().int(),
    contactCount: z.number().int(),
    createdAt: dateTimeText,
    updatedAt: dateTimeText,
  })
  .meta({ id: 'Label' });
export type LabelDto = z.infer<typeof LabelDto>;

/** `labelIds` of `PUT /api/tickets/:id` and `PUT /api/contacts/:id`: the new set (an empty list removes them all). */
export const labelIdsField = z
  .array(idField)
  .max(50)
  .transform((ids) => [...new Set(ids)]);
