import type { MessageDto, MessageOrigin } from '@wadesk/contracts';
import type { TFunction } from 'i18next';

/**
 * Where a message the desk sent came from (issue 32): its `origin`, else what its sender says (a message stored
 * before origins were, or by a server that does not send them: the desk's own is `system`, the chatbot's `bot`).
 * Null for one typed in this chat or received from the contact.
 */
export function messageOrigin(message: Pick<MessageDto, 'origin' | 'senderKind'>): MessageOrigin | null {
  if (message.origin) return message.origin;
  if (message.senderKind === 'bot') return 'bot';
  if (message.senderKind === 'auto') return 'system';
  return null;
}

/** The origins that name the record they came from: "Bulk send #12", "Group action #3", "Scheduled message #4". */
function numbered(label: string, id: number | null | undefined): string {
  return id ? `${label} #${id}` : label;
}

/** "Bulk send #12", "Send API", "Chatbot", "Automatic message", "Sent from the phone"…; null without an origin. */
export function originLabel(t: TFunction, message: Pick<MessageDto, 'origin' | 'originId' | 'senderKind'>): string | null {
  const origin = messageOrigin(message);
  switch (origin) {
    case null:
      return null;
    case 'campaign':
      return numbered(t('chat.origin.campaign'), message.originId);
    case 'api':
      return t('chat.origin.api');
    case 'group-action':
      return numbered(t('chat.origin.groupAction'), message.originId);
    case 'schedule':
      return numbered(t('chat.origin.schedule'), message.originId);
    case 'bot':
      return t('chat.origin.bot');
    case 'system':
      return t('chat.origin.system');
    case 'phone':
      return t('chat.origin.phone');
    default:
      // An origin this web does not know yet (a newer server): not worth a label.
      return null;
  }
}
