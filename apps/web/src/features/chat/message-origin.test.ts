import type { TFunction } from 'i18next';
import type { MessageDto } from '@wadesk/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { translators } from '../../i18n/translators.test-support';
import { messageOrigin, originLabel } from './message-origin';

type Origin = Pick<MessageDto, 'origin' | 'originId' | 'senderKind'>;
const sent = (origin: Origin['origin'], originId: number | null = null, senderKind: Origin['senderKind'] = 'user'): Origin => ({ origin, originId, senderKind });

let ts: Record<string, TFunction> = {};
beforeAll(async () => {
  ts = await translators();
});

describe('the origin of a message', () => {
  it('names where a message the desk sent came from, with the number of its bulk send, group action or schedule', () => {
    const t = ts.en!;
    expect(originLabel(t, sent('campaign', 12))).toBe('Bulk send #12');
    expect(originLabel(t, sent('api', 40))).toBe('Send API');
    expect(originLabel(t, sent('group-action', 3))).toBe('Group action #3');
    expect(originLabel(t, sent('schedule', 4))).toBe('Scheduled message #4');
    expect(originLabel(t, sent('bot', null, 'bot'))).toBe('Chatbot');
    expect(originLabel(t, sent('system', null, 'auto'))).toBe('Automatic message');
    expect(originLabel(t, sent('phone'))).toBe('Sent from the phone');
    expect(originLabel(t, sent('campaign'))).toBe('Bulk send');
  });

  it('has no label for a message typed in the chat or received from the contact', () => {
    expect(originLabel(ts.en!, sent(null))).toBeNull();
    expect(originLabel(ts.en!, { senderKind: 'contact' })).toBeNull();
  });

  it("takes the chatbot's and the desk's own messages stored without an origin for what they are", () => {
    expect(messageOrigin({ origin: null, senderKind: 'bot' })).toBe('bot');
    expect(messageOrigin({ senderKind: 'auto' })).toBe('system');
    expect(messageOrigin({ origin: 'schedule', senderKind: 'auto' })).toBe('schedule');
    expect(messageOrigin({ senderKind: 'user' })).toBeNull();
  });

  it('shows no label for an origin this web does not know yet', () => {
    expect(originLabel(ts.en!, sent('newsletter' as Origin['origin'], 1))).toBeNull();
  });

  it('speaks Portuguese and Spanish', () => {
    expect(originLabel(ts.pt!, sent('campaign', 12))).toBe('Envio em massa #12');
    expect(originLabel(ts.pt!, sent('api'))).toBe('API de envio');
    expect(originLabel(ts.pt!, sent('group-action', 3))).toBe('Ação em grupos #3');
    expect(originLabel(ts.pt!, sent('schedule', 4))).toBe('Mensagem agendada #4');
    expect(originLabel(ts.pt!, sent('system', null, 'auto'))).toBe('Mensagem automática');
    expect(originLabel(ts.pt!, sent('phone'))).toBe('Enviada pelo celular');
    expect(originLabel(ts.es!, sent('campaign', 12))).toBe('Envío masivo #12');
    expect(originLabel(ts.es!, sent('phone'))).toBe('Enviado desde el teléfono');
  });
});
