import { describe, expect, it } from 'vitest';
import { HistoryImportInput, SimulatorHistoryInput, SyncMessageUserInput } from './index.js';

describe('history import input (issue 14)', () => {
  it('takes a limit of 1 to 5000 messages per chat, as a number or its digits', () => {
    expect(HistoryImportInput.parse({ limit: '50' })).toEqual({ limit: 50 });
    for (const limit of [0, 5001, 2.5, 'abc', undefined]) expect(HistoryImportInput.safeParse({ limit }).success, String(limit)).toBe(false);
  });

  it("keeps a contact's number as digits (the send API's user may end in @c.us)", () => {
    expect(HistoryImportInput.parse({ limit: 5, contactNumber: '+55 (11) 98765-4321' }).contactNumber).toBe('5511987654321');
    expect(SyncMessageUserInput.parse({ user: '5511987654321@c.us', limit: 5 }).user).toBe('5511987654321');
    expect(SyncMessageUserInput.safeParse({ user: '12', limit: 5 }).success).toBe(false);
    expect(HistoryImportInput.parse({ limit: 5, contactNumber: '120363000000000001@g.us' }).contactNumber).toBe('120363000000000001@g.us');
  });

  it('reads a seeded message time as ISO text or milliseconds, and a group chat by its @g.us id', () => {
    const { messages } = SimulatorHistoryInput.parse({
      messages: [
        { id: 'A', chat: '5511987654321@c.us', timestamp: '2024-03-10T12:00:00Z', body: 'oi' },
        { id: 'B', chat: '120363000000000001@g.us', timestamp: 1_710_072_000_000, body: 'grupo', participant: '+55 11 91234-5678' },
      ],
    });
    expect(messages.map((m) => [m.chat, m.timestamp.toISOString(), m.fromMe])).toEqual([
      ['5511987654321', '2024-03-10T12:00:00.000Z', false],
      ['120363000000000001@g.us', '2024-03-10T12:00:00.000Z', false],
    ]);
    expect(messages[1]!.participant).toBe('5511912345678');
  });

  it('refuses an empty history, a date that is not one, and media without its URL', () => {
    expect(SimulatorHistoryInput.safeParse({ messages: [] }).success).toBe(false);
    expect(SimulatorHistoryInput.safeParse({ messages: [{ id: 'A', chat: '5511987654321', timestamp: 'yesterday' }] }).success).toBe(false);
    expect(SimulatorHistoryInput.safeParse({ messages: [{ id: 'A', chat: '5511987654321', timestamp: 0, mediaType: 'image' }] }).success).toBe(false);
    expect(SimulatorHistoryInput.safeParse({ messages: [{ id: 'A', chat: '5511987654321', timestamp: 0, mediaType: 'location', body: '1,2' }] }).success).toBe(true);
  });
});
