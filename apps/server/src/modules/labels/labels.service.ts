import type { LabelDto, LabelInput, LabelUpdateInput } from '@wadesk/contracts';
import type { z } from 'zod';
import type { Database, Executor } from '../../db/client.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.js';
import type { DomainEvents } from '../../events/domain-events.js';
import { AppError } from '../../http/app-error.js';
import { audit } from '../audit/audit.js';
import { LabelsRepository } from './labels.repository.js';

export type LabelCreateData = z.output<typeof LabelInput>;
export type LabelUpdateData = z.output<typeof LabelUpdateInput>;

const NAME_TAKEN = 'A label with this name already exists, pick another one.';
const NOT_FOUND = 'Label not found.';

/** Labels (issue 36 §2): admins manage them, everyone signed in reads them to put them on tickets and contacts. */
export class LabelsService {
  constructor(
    private readonly db: Database,
    private readonly events: DomainEvents,
  ) {}

  private repo(): LabelsRepository {
    return new LabelsRepository(this.db);
  }

  list(): Promise<LabelDto[]> {
    return this.repo().list();
  }

  async get(id: number): Promise<LabelDto> {
    const label = await this.repo().findDto(id);
    if (!label) throw new AppError('ERR_NO_LABEL_FOUND', NOT_FOUND);
    return label;
  }

  async create(data: LabelCreateData): Promise<LabelDto> {
    if (await this.repo().nameTaken(data.name)) throw new AppError('ERR_DUPLICATED_LABEL', NAME_TAKEN);
    let id: number;
    try {
      id = await this.db.transaction(async (tx) => {
        const repo = new LabelsRepository(tx);
        const newId = await repo.insert({ name: data.name, color: data.color });
        await audit.record(tx, { action: 'label.create', targetType: 'label', targetId: newId, after: await repo.findDto(newId) });
        return newId;
      });
    } catch (err) {
      throw translateWriteError(err);
    }
    const label = await this.get(id);
    this.events.emit('label.saved', { label, created: true });
    return label;
  }

  async update(id: number, data: LabelUpdateData): Promise<LabelDto> {
    const before = await this.get(id);
    if (data.name !== undefined && (await this.repo().nameTaken(data.name, id))) throw new AppError('ERR_DUPLICATED_LABEL', NAME_TAKEN);
    try {
      await this.db.transaction(async (tx) => {
        const repo = new LabelsRepository(tx);
        if (!(await repo.update(id, data))) throw new AppError('ERR_NO_LABEL_FOUND', NOT_FOUND);
        await audit.record(tx, { action: 'label.update', targetType: 'label', targetId: id, before, after: await repo.findDto(id) });
      });
    } catch (err) {
      throw translateWriteError(err);
    }
    const label = await this.get(id);
    this.events.emit('label.saved', { label, created: false });
    return label;
  }

  /** Deletes a label: every ticket and contact carrying it loses it (the clients drop it on the `label` event). */
  async delete(id: number): Promise<void> {
    const deleted = await this.db.transaction(async (tx) => {
      const repo = new LabelsRepository(tx);
      const before = await repo.findDto(id);
      if (!(await repo.delete(id))) return false;
      await audit.record(tx, { action: 'label.delete', targetType: 'label', targetId: id, before });
      return true;
    });
    if (!deleted) throw new AppError('ERR_NO_LABEL_FOUND', NOT_FOUND);
    this.events.emit('label.deleted', { labelId: id });
  }
}

/**
 * `labelIds` of a ticket's or contact's change: each must be a label (ERR_VALIDATION, 400, naming the unknown ids);
 * the set is written in `db` (the caller's transaction). A label deleted between the check and the write is skipped.
 */
export async function checkLabelIds(db: Executor, labelIds: readonly number[]): Promise<void> {
  const unknown = await new LabelsRepository(db).unknownIds(labelIds);
  if (unknown.length > 0) {
    const message = `No label with id ${unknown.join(', ')}.`;
    throw new AppError('ERR_VALIDATION', message, { issues: [{ path: 'labelIds', message }] });
  }
}

export async function replaceTicketLabels(db: Executor, ticketId: number, labelIds: readonly number[]): Promise<void> {
  try {
    await new LabelsRepository(db).replaceTicketLabels(ticketId, labelIds);
  } catch (err) {
    if (isForeignKeyViolation(err)) throw new AppError('ERR_NO_TICKET_FOUND', 'Ticket not found');
    throw err;
  }
}

export async function replaceContactLabels(db: Executor, contactId: number, labelIds: readonly number[]): Promise<void> {
  try {
    await new LabelsRepository(db).replaceContactLabels(contactId, labelIds);
  } catch (err) {
    if (isForeignKeyViolation(err)) throw new AppError('ERR_NO_CONTACT_FOUND', 'Contact not found.');
    throw err;
  }
}

function translateWriteError(err: unknown): unknown {
  if (isUniqueViolation(err, 'labels_name_unique')) return new AppError('ERR_DUPLICATED_LABEL', NAME_TAKEN);
  return err;
}
