import {
  can,
  CONTACT_SEARCH_MIN_LENGTH,
  type ContactInput,
  type ContactUpdateInput,
  PAGE_SIZE,
  type ContactDto,
  type ContactCsvImportResponse,
  type ContactCsvPreviewRow,
  type ContactImportResponse,
  type ContactListResponse,
  normalizeWhatsappNumber,
  NUMBER_PROBLEM_MESSAGES,
  whatsappNumberForms,
} from '@wadesk/contracts';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { DomainEvents } from '../../events/domain-events.js';
import { AppError } from '../../http/app-error.js';
import { audit } from '../audit/audit.js';
import type { AuthUser } from '../auth/auth-user.js';
import {
  noDeviceContacts,
  uncheckedNumbers,
  type DeviceContact,
  type DeviceContactsSource,
  type NumberChecker,
} from './contact-sources.js';
import { TicketsRepository } from '../tickets/tickets.repository.js';
import { contactsCsv } from './contacts-csv.js';
import { CSV_REASON_MESSAGES, readContactsCsv } from './contacts-csv-import.js';
import { checkLabelIds, replaceContactLabels } from '../labels/labels.service.js';
import { ContactsRepository, type ContactWrite } from './contacts.repository.js';

export type ContactCreateData = z.output<typeof ContactInput>;
export type ContactUpdateData = z.output<typeof ContactUpdateInput>;

export interface ContactsServiceOptions {
  numberChecker?: NumberChecker;
  deviceContacts?: DeviceContactsSource;
}

const DUPLICATED = 'A contact with this number already exists.';
/** Contacts written per transaction by the CSV import (short transactions: PGlite runs one at a time). */
const IMPORT_CHUNK = 500;
const VALID_NUMBER = /^\d{8,50}$/;

export class ContactsService {
  private numberChecker: NumberChecker;
  private deviceContacts: DeviceContactsSource;

  constructor(
    private readonly db: Database,
    private readonly events: DomainEvents,
    options: ContactsServiceOptions = {},
  ) {
    this.numberChecker = options.numberChecker ?? uncheckedNumbers;
    this.deviceContacts = options.deviceContacts ?? noDeviceContacts;
  }

  /** Swaps the WhatsApp number check (the session manager once it runs; a fake in tests). */
  setNumberChecker(checker: NumberChecker): void {
    this.numberChecker = checker;
  }

  /** Swaps where imported device contacts come from. */
  setDeviceContactsSource(source: DeviceContactsSource): void {
    this.deviceContacts = source;
  }

  private repo(): ContactsRepository {
    return new ContactsRepository(this.db);
  }

  /** Search applies from 3 characters (already trimmed and lowercased by the query schema). */
  async list(searchParam: string, pageNumber: number): Promise<ContactListResponse> {
    const search = searchParam.length >= CONTACT_SEARCH_MIN_LENGTH ? searchParam : '';
    // A whole phone number finds its contact in any form ("+55 11 95555-4444" finds 551155554444; item 12).
    const phone = normalizeWhatsappNumber(search);
    if (phone.ok && pageNumber === 1) {
      const found = await this.repo().findByNumberForms(phone.number);
      if (found.length > 0) return { contacts: found, count: found.length, hasMore: false };
    }
    const { contacts, count } = await this.repo().list(search, pageNumber, PAGE_SIZE.contacts);
    return { contacts, count, hasMore: count > pageNumber * PAGE_SIZE.contacts };
  }

  async get(id: number): Promise<ContactDto> {
    const contact = await this.repo().findDto(id);
    if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND', 'Contact not found.');
    return contact;
  }

  async create(data: ContactCreateData): Promise<ContactDto> {
    const repo = this.repo();
    if (await repo.numberTaken(data.number)) throw new AppError('ERR_DUPLICATED_CONTACT', DUPLICATED);
    const number = await this.checkedNumber(data.number);
    const write: ContactWrite = { name: data.name, number, email: data.email };
    let id: number;
    try {
      id = await this.db.transaction(async (tx) => {
        const txRepo = new ContactsRepository(tx);
        const newId = await txRepo.insert(write);
        if (data.extraInfo.length > 0) await txRepo.replaceExtraInfo(newId, data.extraInfo);
        return newId;
      });
    } catch (err) {
      throw translateWriteError(err);
    }
    const contact = await this.get(id);
    this.events.emit('contact.saved', { contact, created: true });
    return contact;
  }

  /**
   * Edits a contact. Changing its number is an admin action: the number decides where every reply of every
   * queue goes, so a user who could change it could redirect another queue's answers to their own phone.
   */
  async update(actor: AuthUser, id: number, data: ContactUpdateData): Promise<ContactDto> {
    const repo = this.repo();
    const current = await this.get(id);
    // The stored number is kept as it is; a new one follows the one phone-number rule (issue 33 item 11).
    const phone = data.number === current.number ? null : normalizeWhatsappNumber(data.number);
    let number = phone?.ok && phone.number === current.number ? current.number : data.number;
    if (number !== current.number) {
      if (!phone?.ok) {
        const message = NUMBER_PROBLEM_MESSAGES[phone?.reason ?? 'NOT_A_NUMBER'];
        throw new AppError('ERR_VALIDATION', message, { issues: [{ path: 'number', message }] });
      }
      if (!can(actor.profile, 'contacts-page:changeNumber')) {
        throw new AppError('ERR_NO_PERMISSION', 'Only an admin may change a contact\'s number.');
      }
      number = phone.number;
      if (await repo.numberTaken(number, id)) throw new AppError('ERR_DUPLICATED_CONTACT', DUPLICATED);
      number = await this.checkedNumber(number);
    }
    const write: ContactWrite = { name: data.name, number, email: data.email };
    const labelIds = data.labelIds;
    if (labelIds !== undefined) await checkLabelIds(this.db, labelIds);
    try {
      await this.db.transaction(async (tx) => {
        const txRepo = new ContactsRepository(tx);
        if (!(await txRepo.update(id, write))) throw new AppError('ERR_NO_CONTACT_FOUND', 'Contact not found.');
        if (data.extraInfo !== undefined) await txRepo.replaceExtraInfo(id, data.extraInfo);
        if (labelIds !== undefined) await replaceContactLabels(tx, id, labelIds);
      });
    } catch (err) {
      throw translateWriteError(err);
    }
    const contact = await this.get(id);
    this.events.emit('contact.saved', { contact, created: false });
    return contact;
  }

  /** Deletes a contact with all its tickets and messages; only profiles allowed `contacts-page:deleteContact`. */
  async delete(actor: AuthUser, id: number): Promise<void> {
    if (!can(actor.profile, 'contacts-page:deleteContact')) {
      throw new AppError('ERR_NO_PERMISSION', "You don't have permission to access this resource.");
    }
    // Its tickets go with it (foreign key cascade): tell open lists to drop them.
    const tickets = await new TicketsRepository(this.db).findDtosOfContact(id);
    const deleted = await this.db.transaction(async (tx) => {
      const repo = new ContactsRepository(tx);
      const before = await repo.findDto(id);
      if (!(await repo.delete(id))) return false;
      await audit.record(tx, { action: 'contact.delete', targetType: 'contact', targetId: id, before: before && { ...before, tickets: tickets.length } });
      return true;
    });
    if (!deleted) throw new AppError('ERR_NO_CONTACT_FOUND', 'Contact not found.');
    for (const ticket of tickets) this.events.emit('ticket.deleted', { ticket });
    this.events.emit('contact.deleted', { contactId: id });
  }

  /**
   * Deletes every contact, with their tickets and messages (the send API's /delContacts, admin token or API
   * token). Open lists are told contact by contact up to 1,000; past that, clients see it on their next load.
   */
  async deleteAll(): Promise<number> {
    const ids = await this.db.transaction(async (tx) => {
      const deleted = await new ContactsRepository(tx).deleteAll();
      await audit.record(tx, { action: 'contact.delete', targetType: 'contact', targetId: null, after: { deleted: deleted.length, all: true } });
      return deleted;
    });
    if (ids.length <= 1000) for (const contactId of ids) this.events.emit('contact.deleted', { contactId });
    return ids.length;
  }

  /** Creates a contact for each device contact whose number is new; existing numbers are left as they are. */
  async importFromDevice(): Promise<ContactImportResponse> {
    const deviceContacts = await this.deviceContacts.listContacts();
    if (deviceContacts === null) {
      throw new AppError('ERR_NO_DEF_WAPP_FOUND', 'No default connection can list its contacts right now.');
    }
    const created = await this.db.transaction(async (tx) => {
      const inserted = await new ContactsRepository(tx).insertNew(normalizeDeviceContacts(deviceContacts));
      await audit.record(tx, { action: 'contact.import', targetType: 'contact', after: { source: 'device', created: inserted.length } });
      return inserted;
    });
    for (const contact of created) this.events.emit('contact.saved', { contact, created: true });
    return { imported: created.length };
  }

  /** Every contact as a CSV document (UTF-8 with BOM). */
  async exportCsv(): Promise<string> {
    const contacts = await this.repo().listAll();
    await this.db.transaction((tx) => audit.record(tx, { action: 'contact.export', targetType: 'contact', after: { rows: contacts.length } }));
    return contactsCsv(contacts);
  }

  /**
   * Imports contacts from a CSV document (see readContactsCsv). Lines whose number is already a contact are
   * skipped; invalid lines are reported, not imported. Numbers are not checked on WhatsApp (too slow for
   * thousands). A dry run writes nothing and describes every line.
   */
  async importCsv(text: string, dryRun: boolean): Promise<ContactCsvImportResponse> {
    const lines = readContactsCsv(text);
    // A contact stored under the number's other form (with or without the ninth digit) is the same contact.
    const existing = await this.repo().existingNumbers(lines.filter((l) => l.status === 'new').flatMap((l) => whatsappNumberForms(l.number)));
    const preview: ContactCsvPreviewRow[] = lines.map((l) =>
      l.status === 'new' && whatsappNumberForms(l.number).some((form) => existing.has(form)) ? { ...l, status: 'exists', reasons: ['exists'] } : l,
    );
    const errors = preview
      .filter((l) => l.status === 'invalid')
      .flatMap((l) => l.reasons.map((reason) => ({ line: l.line, reason, message: CSV_REASON_MESSAGES[reason] })));
    const toCreate = preview.filter((l) => l.status === 'new');
    const exists = preview.length - toCreate.length - preview.filter((l) => l.status === 'invalid').length;
    if (dryRun) return { dryRun, created: toCreate.length, skipped: exists, errors, preview };

    let created = 0;
    for (let start = 0; start < toCreate.length; start += IMPORT_CHUNK) {
      const chunk = toCreate.slice(start, start + IMPORT_CHUNK);
      // One entry per chunk, in the chunk's transaction: what was imported is what the log says.
      const contacts = await this.db.transaction(async (tx) => {
        const inserted = await new ContactsRepository(tx).insertNewWithExtraInfo(chunk);
        await audit.record(tx, {
          action: 'contact.import',
          targetType: 'contact',
          after: { source: 'csv', created: inserted.length, lines: preview.length, numbers: inserted.slice(0, 100).map((c) => c.number) },
        });
        return inserted;
      });
      created += contacts.length;
      for (const contact of contacts) this.events.emit('contact.saved', { contact, created: true });
    }
    // A number taken between the check and the insert (another import, an incoming message) is skipped too.
    return { dryRun, created, skipped: exists + (toCreate.length - created), errors };
  }

  /** Asks the default connection whether the number is on WhatsApp; gives the number to store. */
  private async checkedNumber(number: string): Promise<string> {
    let answer: Awaited<ReturnType<NumberChecker['checkNumber']>>;
    try {
      answer = await this.numberChecker.checkNumber(number);
    } catch {
      throw new AppError('ERR_WAPP_CHECK_CONTACT', 'Could not check the number on WhatsApp.');
    }
    if (answer === null) return number;
    if (!answer.exists) throw new AppError('ERR_WAPP_INVALID_CONTACT', 'This is not a valid whatsapp number.');
    const canonical = answer.number?.replace(/\D/g, '');
    return canonical && VALID_NUMBER.test(canonical) ? canonical : number;
  }
}

/** Digits only, 8–50 of them, each number once; the name trimmed to 50 characters, or the number. */
function normalizeDeviceContacts(list: readonly DeviceContact[]): ContactWrite[] {
  const byNumber = new Map<string, ContactWrite>();
  for (const item of list) {
    const number = item.number.split('@')[0]!.replace(/\D/g, '');
    if (!VALID_NUMBER.test(number) || byNumber.has(number)) continue;
    const name = item.name.trim().slice(0, 50) || number;
    byNumber.set(number, { name, number, email: '' });
  }
  return [...byNumber.values()];
}

function translateWriteError(err: unknown): unknown {
  if (isUniqueViolation(err, 'contacts_number_unique')) return new AppError('ERR_DUPLICATED_CONTACT', DUPLICATED);
  return err;
}
