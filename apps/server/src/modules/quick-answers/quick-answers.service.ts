import { PAGE_SIZE, type QuickAnswerInput, type QuickAnswerDto, type QuickAnswerListResponse } from '@wadesk/contracts';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import type { DomainEvents } from '../../events/domain-events.js';
import { AppError } from '../../http/app-error.js';
import { audit } from '../audit/audit.js';
import { QuickAnswersRepository } from './quick-answers.repository.js';

export type QuickAnswerData = z.output<typeof QuickAnswerInput>;

const NOT_FOUND = 'Quick answer not found.';

/**
 * Quick answers are shared by the whole desk. Any signed-in user may read and manage them: the specification
 * gives them no admin rule, and attendants keep their own shortcuts up to date (as whaticket allows).
 */
export class QuickAnswersService {
  constructor(
    private readonly db: Database,
    private readonly events: DomainEvents,
  ) {}

  private repo(): QuickAnswersRepository {
    return new QuickAnswersRepository(this.db);
  }

  /** `searchParam` is trimmed and lowercased by the query schema; any length searches (the chat's '/' lookup). */
  async list(searchParam: string, pageNumber: number): Promise<QuickAnswerListResponse> {
    const { quickAnswers, count } = await this.repo().list(searchParam, pageNumber, PAGE_SIZE.quickAnswers);
    return { quickAnswers, count, hasMore: count > pageNumber * PAGE_SIZE.quickAnswers };
  }

  async get(id: number): Promise<QuickAnswerDto> {
    const quickAnswer = await this.repo().findDto(id);
    if (!quickAnswer) throw new AppError('ERR_NO_QUICK_ANSWER_FOUND', NOT_FOUND);
    return quickAnswer;
  }

  async create(data: QuickAnswerData): Promise<QuickAnswerDto> {
    const quickAnswer = await this.db.transaction(async (tx) => {
      const created = await new QuickAnswersRepository(tx).insert(data);
      await audit.record(tx, { action: 'quick_answer.create', targetType: 'quickAnswer', targetId: created.id, after: created });
      return created;
    });
    this.events.emit('quickAnswer.saved', { quickAnswer, created: true });
    return quickAnswer;
  }

  async update(id: number, data: QuickAnswerData): Promise<QuickAnswerDto> {
    const quickAnswer = await this.db.transaction(async (tx) => {
      const repo = new QuickAnswersRepository(tx);
      const before = await repo.findDto(id);
      const updated = await repo.update(id, data);
      if (updated) await audit.record(tx, { action: 'quick_answer.update', targetType: 'quickAnswer', targetId: id, before, after: updated });
      return updated;
    });
    if (!quickAnswer) throw new AppError('ERR_NO_QUICK_ANSWER_FOUND', NOT_FOUND);
    this.events.emit('quickAnswer.saved', { quickAnswer, created: false });
    return quickAnswer;
  }

  async delete(id: number): Promise<void> {
    const deleted = await this.db.transaction(async (tx) => {
      const repo = new QuickAnswersRepository(tx);
      const before = await repo.findDto(id);
      if (!(await repo.delete(id))) return false;
      await audit.record(tx, { action: 'quick_answer.delete', targetType: 'quickAnswer', targetId: id, before });
      return true;
    });
    if (!deleted) throw new AppError('ERR_NO_QUICK_ANSWER_FOUND', NOT_FOUND);
    this.events.emit('quickAnswer.deleted', { quickAnswerId: id });
  }
}
