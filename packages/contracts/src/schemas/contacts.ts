import { z } from 'zod';
import { normalizeWhatsappNumber, NUMBER_PROBLEM_MESSAGES } from '../whatsapp-number.js';
import { LabelRefDto, labelIdsField } from './labels.js';
import { boundedString, dateTimeText, hasNoNulCharacter, idField, INPUT_MESSAGES, MESSAGES, pageNumberField, searchParamField, textField } from '../validation.js';

export const ExtraInfoInput = z.object({
  id: idField.optional(),
  name: z
    .string()
    .trim()
    .min(1, MESSAGES.required)
    .max(100, MESSAGES.tooLong)
    .refine(hasNoNulCharacter, INPUT_MESSAGES.invalidCharacter),
  value: textField(1000).default(''),
});

/**
 * A typed phone number: the desk's one rule (issue 33 item 11), so "+55 11 95555-4444" is stored as 5511955554444
 * and a number without a country code is refused with the reason.
 */
export const whatsappNumberField = z
  .string({ error: MESSAGES.required })
  .trim()
  .min(1, MESSAGES.required)
  .max(50, MESSAGES.tooLong)
  .transform((value, ctx) => {
    const result = normalizeWhatsappNumber(value);
    if (result.ok) return result.number;
    ctx.addIssue({ code: 'custom', message: NUMBER_PROBLEM_MESSAGES[result.reason] });
    return z.NEVER;
  });

/**
 * The number of a contact being edited: a stored number is sent back as it is (groups and other channels keep
 * ids the phone rule refuses); the service applies the rule when the number changes.
 */
const storedNumberField = z
  .string({ error: MESSAGES.required })
  .trim()
  .min(1, MESSAGES.required)
  .max(100, MESSAGES.tooLong)
  .refine(hasNoNulCharacter, INPUT_MESSAGES.invalidCharacter);

export const ContactInput = z.object({
  name: boundedString(2, 50),
  number: whatsappNumberField,
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(254, MESSAGES.tooLong)
    .refine((v) => v === '' || z.email().safeParse(v).success, MESSAGES.invalidEmail)
    .default(''),
  extraInfo: z.array(ExtraInfoInput).max(100).default([]),
});
export type ContactInput = z.input<typeof ContactInput>;

/** POST /contact: a contact without extra info (extra info sent is ignored). */
export const ContactWithoutExtraInfoInput = ContactInput.omit({ extraInfo: true });
export type ContactWithoutExtraInfoInput = z.input<typeof ContactWithoutExtraInfoInput>;

/**
 * PUT /contacts/:id: the contact's fields; `extraInfo`, when given, replaces the list (items with an id are
 * updated, new ones inserted, missing ones deleted); when absent the list stays.
 */
export const ContactUpdateInput = ContactInput.extend({
  number: storedNumberField,
  extraInfo: z.array(ExtraInfoInput).max(100).optional(),
  /** When given, the contact's labels become these (issue 36 §2); an unknown id is refused (ERR_VALIDATION). */
  labelIds: labelIdsField.optional(),
});
export type ContactUpdateInput = z.input<typeof ContactUpdateInput>;

/** Search applies only from this many characters (§5). */
export const CONTACT_SEARCH_MIN_LENGTH = 3;

export const ContactListQuery = z.object({ searchParam: searchParamField, pageNumber: pageNumberField });
export type ContactListQuery = z.input<typeof ContactListQuery>;

export const ExtraInfoDto = z.object({ id: z.number().int(), name: z.string(), value: z.string() }).meta({ id: 'ContactExtraInfo' });
export type ExtraInfoDto = z.infer<typeof ExtraInfoDto>;

export const ContactDto = z
  .object({
    id: z.number().int(),
    name: z.string(),
    number: z.string(),
    email: z.string(),
    profilePicUrl: z.string(),
    isGroup: z.boolean(),
    extraInfo: z.array(ExtraInfoDto),
    /** The contact's labels (issue 36 §2), by name. */
    labels: z.array(LabelRefDto),
    createdAt: dateTimeText,
    updatedAt: dateTimeText,
  })
  .meta({ id: 'Contact' });
export type ContactDto = z.infer<typeof ContactDto>;

export const ContactListResponse = z.object({ contacts: z.array(ContactDto), hasMore: z.boolean(), count: z.number().int() });
export type ContactListResponse = z.infer<typeof ContactListResponse>;

/** Answer of POST /contacts/import: how many new contacts were created. */
export const ContactImportResponse = z.object({ imported: z.number().int() });
export type ContactImportResponse = z.infer<typeof ContactImportResponse>;

/** CSV import limits: the file's size and its data lines (POST /contacts/import/csv). */
export const CONTACT_CSV_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const CONTACT_CSV_IMPORT_MAX_LINES = 10_000;

/** POST /contacts/import/csv?dryRun=1: only check the file and describe what an import would do. */
export const ContactCsvImportQuery = z.object({
  dryRun: z
    .enum(['0', '1', 'true', 'false'])
    .optional()
    .transform((v) => v === '1' || v === 'true'),
});
export type ContactCsvImportQuery = z.input<typeof ContactCsvImportQuery>;

/**
 * Why a CSV line is not imported: a field's rule (§5), a number twice in the file, or a number already a contact
 * (`exists`: skipped, not an error).
 */
export const ContactCsvLineReason = z.enum([
  'nameRequired',
  'nameTooShort',
  'nameTooLong',
  'numberRequired',
  'numberInvalid',
  'numberNoCountryCode',
  'numberTooShort',
  'numberTooLong',
  'emailInvalid',
  'extraInfoInvalid',
  'duplicateInFile',
  'exists',
]);
export type ContactCsvLineReason = z.infer<typeof ContactCsvLineReason>;

export const ContactCsvLineError = z.object({
  /** The line of the file where the record starts (the header is line 1). */
  line: z.number().int(),
  reason: ContactCsvLineReason,
  /** The same in English, for API clients. */
  message: z.string(),
});
export type ContactCsvLineError = z.infer<typeof ContactCsvLineError>;

export const ContactCsvPreviewRow = z.object({
  line: z.number().int(),
  name: z.string(),
  number: z.string(),
  email: z.string(),
  extraInfo: z.array(z.object({ name: z.string(), value: z.string() })),
  /** `new`: would be created; `exists`: skipped, the number is a contact; `invalid`: see `reasons`. */
  status: z.enum(['new', 'exists', 'invalid']),
  reasons: z.array(ContactCsvLineReason),
});
export type ContactCsvPreviewRow = z.infer<typeof ContactCsvPreviewRow>;

/**
 * Answer of POST /contacts/import/csv: contacts created (or that would be, on a dry run), lines skipped because
 * the number is already a contact, and the invalid lines; a dry run also gives every line's preview.
 */
export const ContactCsvImportResponse = z
  .object({
    dryRun: z.boolean(),
    created: z.number().int(),
    skipped: z.number().int(),
    errors: z.array(ContactCsvLineError),
    preview: z.array(ContactCsvPreviewRow).optional(),
  })
  .meta({ id: 'ContactCsvImport' });
export type ContactCsvImportResponse = z.infer<typeof ContactCsvImportResponse>;
