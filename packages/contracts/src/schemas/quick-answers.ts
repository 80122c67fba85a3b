import { z } from 'zod';
import { boundedString, pageNumberField, searchParamField } from '../validation.js';

export const QuickAnswerInput = z.object({
  shortcut: boundedString(2, 50),
  message: boundedString(8, 30000),
});
export type QuickAnswerInput = z.input<typeof QuickAnswerInput>;

export interface QuickAnswerDto {
  id: number;
  shortcut: string;
  message: string;
  createdAt: string;
  updatedAt: string;
}

export const QuickAnswerListQuery = z.object({ searchParam: searchParamField, pageNumber: pageNumberField });
export type QuickAnswerListQuery = z.input<typeof QuickAnswerListQuery>;

export interface QuickAnswerListResponse {
  quickAnswers: QuickAnswerDto[];
  hasMore: boolean;
  count: number;
}
