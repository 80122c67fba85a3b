import { describe, expect, it } from 'vitest';
import { greetingFor, queueMenu, renderGreeting } from './greeting-template.js';

describe('greeting placeholders', () => {
  const now = new Date(2026, 10, 21, 9, 5);

  it('renders every placeholder of the specification', () => {
    const text = renderGreeting('{{greeting}} {{name}}! {{date}} {{hour}} #{{ticket_id}} {{queue}} {{connection}} {{user}}', {
      name: 'Ana',
      user: 'Bruno',
      ticketId: 42,
      queue: 'Sales',
      connection: 'Main',
      now,
    });
    expect(text).toBe('Bom dia Ana! 21/11/2026 09:05 #42 Sales Main Bruno');
  });

  it('leaves unknown placeholders alone', () => {
    expect(renderGreeting('Hi {{nick}}', { now })).toBe('Hi {{nick}}');
  });

  it('says good afternoon and good evening by the hour', () => {
    expect(greetingFor(new Date(2026, 0, 1, 13))).toBe('Boa tarde');
    expect(greetingFor(new Date(2026, 0, 1, 20))).toBe('Boa noite');
    expect(greetingFor(new Date(2026, 0, 1, 3))).toBe('Boa noite');
  });

  it('numbers the queue list', () => {
    expect(queueMenu(['Sales', 'Support'])).toBe('*1* - Sales\n*2* - Support');
  });
});
