import { z } from 'zod';
import { boundedString, dateTimeText, pageNumberField, searchParamField } from '../validation.js';

export const QuickAnswerInput = z.object({
  shortcut: boundedString(2, 50),
  message: boundedString(8, 30000),
});
export type QuickAnswerInput = z.input<typeof QuickAnswerInput>;

export const QuickAnswerDto = z
  .object({ id: z.number().int(), shortcut: z.string(), message: z.string(), createdAt: dateTimeText, updatedAt: dateTimeText })
  .meta({ id: 'QuickAnswer' });
export type QuickAnswerDto = z.infer<typeof QuickAnswerDto>;

export const QuickAnswerListQuery = z.object({ searchParam: searchParamField, pageNumber: pageNumberField });
export type QuickAnswerListQuery = z.input<typeof QuickAnswerListQuery>;

export const QuickAnswerListResponse = z.object({ quickAnswers: z.array(QuickAnswerDto), hasMore: z.boolean(), count: z.number().int() });
export type QuickAnswerListResponse = z.infer<typeof QuickAnswerListResponse>;
