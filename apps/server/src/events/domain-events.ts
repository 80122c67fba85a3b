import { EventEmitter } from 'node:events';
import type {
  CampaignDto,
  GroupActionDto,
  OutreachDto,
  ScheduleDto,
  HistoryImportDto,
  ContactDto,
  LabelDto,
  MessageDto,
  QueueDto,
  QuickAnswerDto,
  SettingDto,
  TicketDto,
  UserDto,
  WhatsappDto,
  WhatsappSessionDto,
} from '@wadesk/contracts';

/** Where a ticket is, for who sees it: its queue, its attendant and its status. */
export type TicketPlace = Pick<TicketDto, 'queueId' | 'userId' | 'status'>;

/** What services announce; the realtime listener decides who sees each. */
export interface DomainEventMap {
  'user.saved': { user: UserDto; created: boolean };
  'user.deleted': { userId: number };
  'setting.updated': { setting: SettingDto };
  'queue.saved': { queue: QueueDto; created: boolean };
  'queue.deleted': { queueId: number };
  'label.saved': { label: LabelDto; created: boolean };
  'label.deleted': { labelId: number };
  'contact.saved': { contact: ContactDto; created: boolean };
  'contact.deleted': { contactId: number };
  'quickAnswer.saved': { quickAnswer: QuickAnswerDto; created: boolean };
  'quickAnswer.deleted': { quickAnswerId: number };
  'whatsapp.saved': { whatsapp: WhatsappDto };
  'whatsapp.deleted': { whatsappId: number };
  'whatsapp.session': { session: WhatsappSessionDto };
  'tickets.changed': { ticketIds: number[] };
  /**
   * A ticket changed; `previous` says where it was before (queue, attendant, status), so those who saw it there can
   * drop it. Without it, those who may see the ticket but not in their channels are told to drop it, in case they had it.
   */
  'ticket.updated': { ticket: TicketDto; previous?: TicketPlace };
  'ticket.read': { ticket: TicketDto };
  /** A user closed a ticket (Resolve, or Protocolo with its number on the ticket): the ticket-closed e-mail. */
  'ticket.closed': { ticket: TicketDto; by: string };
  'ticket.deleted': { ticket: TicketDto };
  /** A user handed a ticket to a colleague (`toUserId`, not themselves): the colleague is told (bell, sound, toast). */
  'ticket.transferred': { ticket: TicketDto; by: { id: number; name: string }; toUserId: number };
  /** Automatic assignment gave the ticket to `toUserId` (issue 36 §4): they are told (bell, sound, toast). */
  'ticket.assigned': { ticket: TicketDto; toUserId: number };
  'message.created': { message: MessageDto; ticket: TicketDto };
  'message.updated': { message: MessageDto; ticket: TicketDto };
  /** A note named colleagues (`@Name`, issue 36 §1), each of whom may see the ticket: each is told (bell, sound, notification). */
  'message.mentioned': { ticket: TicketDto; message: MessageDto; from: { id: number; name: string }; excerpt: string; userIds: number[] };
  'campaign.updated': { campaign: CampaignDto };
  'groupAction.updated': { groupAction: GroupActionDto };
  'outreach.updated': { batch: OutreachDto };
  'schedule.saved': { schedule: ScheduleDto; created: boolean };
  'historyImport.updated': { historyImport: HistoryImportDto };
}

export type DomainEventName = keyof DomainEventMap;

/** A typed, synchronous in-process event bus. Listeners must not throw. */
export class DomainEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(100);
  }

  emit<E extends DomainEventName>(name: E, payload: DomainEventMap[E]): void {
    this.emitter.emit(name, payload);
  }

  on<E extends DomainEventName>(name: E, listener: (payload: DomainEventMap[E]) => void): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }
}
