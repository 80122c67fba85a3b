import { describe, expect, it } from 'vitest';
import { readWebhook, signatureOf, validSignature } from './cloud-api-inbound.js';
import { renderTemplate, variablesOf } from './cloud-templates.js';
import { GraphClient, GraphError } from './graph-client.js';

const graph = new GraphClient('http://127.0.0.1:1', { phoneNumberId: '1', businessAccountId: '2', accessToken: 't', appSecret: 's', verifyToken: 'v' });

describe('cloud api: webhook reading', () => {
  it('checks X-Hub-Signature-256 over the exact bytes', () => {
    const raw = Buffer.from('{"a":1}');
    expect(validSignature(raw, signatureOf(raw, 'secret'), 'secret')).toBe(true);
    expect(validSignature(Buffer.from('{"a": 1}'), signatureOf(raw, 'secret'), 'secret')).toBe(false);
    expect(validSignature(raw, signatureOf(raw, 'other'), 'secret')).toBe(false);
    expect(validSignature(raw, undefined, 'secret')).toBe(false);
    expect(validSignature(raw, 'sha256=zz', 'secret')).toBe(false);
  });

  it("skips another phone number's changes and other fields, and empties of a removed reaction", () => {
    const value = (phone: string) => ({
      metadata: { phone_number_id: phone },
      messages: [{ from: '15551234567', id: `w-${phone}`, timestamp: '1700000000', type: 'text', text: { body: 'hi' } }],
    });
    const { messages } = readWebhook(
      {
        entry: [
          {
            changes: [
              { field: 'messages', value: value('1') },
              { field: 'messages', value: value('999') },
              { field: 'account_update', value: value('1') },
              { field: 'messages', value: { metadata: { phone_number_id: '1' }, messages: [{ from: '1555', id: 'r', timestamp: '1', type: 'reaction', reaction: { message_id: 'x' } }] } },
            ],
          },
        ],
      },
      '1',
      graph,
    );
    expect(messages.map((m) => m.id)).toEqual(['w-1']);
    expect(messages[0]).toMatchObject({ chatId: '15551234567', fromMe: false, isGroup: false, kind: 'text', body: 'hi', timestamp: new Date(1700000000 * 1000) });
  });

  it('maps statuses to acks, keeps the reason of a failed one, and skips unknown ones', () => {
    const { statuses } = readWebhook(
      {
        entry: [
          {
            changes: [
              {
                field: 'messages',
                value: {
                  statuses: [
                    { id: 'a', status: 'sent', recipient_id: '+1 555' },
                    { id: 'b', status: 'delivered', recipient_id: '1555' },
                    { id: 'c', status: 'read', recipient_id: '1555' },
                    { id: 'd', status: 'failed', recipient_id: '1555', errors: [{ code: 131047, title: 'Re-engagement message' }] },
                    { id: 'e', status: 'deleted', recipient_id: '1555' },
                  ],
                },
              },
            ],
          },
        ],
      },
      '1',
      graph,
    );
    expect(statuses).toEqual([
      { id: 'a', chatId: '1555', ack: 1, error: undefined },
      { id: 'b', chatId: '1555', ack: 2, error: undefined },
      { id: 'c', chatId: '1555', ack: 3, error: undefined },
      { id: 'd', chatId: '1555', ack: null, error: 'Re-engagement message (code 131047)' },
    ]);
  });
});

describe('cloud api: templates and errors', () => {
  it('counts and fills {{n}} placeholders', () => {
    expect(variablesOf('Hi {{1}}, order {{2}} ({{ 2 }})')).toBe(2);
    expect(variablesOf('Hello')).toBe(0);
    expect(renderTemplate('Hi {{1}}, order {{2}}', ['Ana', '#1'])).toBe('Hi Ana, order #1');
    expect(renderTemplate('Hi {{1}} {{3}}', ['Ana'])).toBe('Hi Ana {{3}}');
  });

  it("turns Graph's codes into the desk's error codes, keeping Meta's words", () => {
    expect(new GraphError(131047, 400, 'Re-engagement message')).toMatchObject({ code: 'ERR_CLOUD_API_WINDOW_CLOSED', status: 400, message: 'Re-engagement message (code 131047)' });
    expect(new GraphError(130429, 400, 'Rate limit hit')).toMatchObject({ code: 'ERR_CLOUD_API_RATE_LIMITED', status: 429 });
    expect(new GraphError(undefined, 429, 'Too many')).toMatchObject({ code: 'ERR_CLOUD_API_RATE_LIMITED' });
    expect(new GraphError(100, 400, 'Invalid parameter')).toMatchObject({ code: 'ERR_CLOUD_API_ERROR', status: 400 });
  });
});
