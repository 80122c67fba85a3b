import type { SettingDto } from '@wadesk/contracts';
import { describe, expect, it } from 'vitest';
import { chatbotPageUrl } from './chatbot-url';

const settings = (url: string, name: string): SettingDto[] => [
  { key: 'typebotUrl', value: url },
  { key: 'typebotName', value: name },
];

describe('chatbotPageUrl', () => {
  it("is the viewer's address followed by the bot's public id", () => {
    expect(chatbotPageUrl(settings('https://bot.example.com/', 'loja'))).toBe('https://bot.example.com/loja');
    expect(chatbotPageUrl(settings(' http://127.0.0.1:8080 ', 'meu bot'))).toBe('http://127.0.0.1:8080/meu%20bot');
  });

  it('is null when something is missing or the address is not http(s)', () => {
    expect(chatbotPageUrl(undefined)).toBeNull();
    expect(chatbotPageUrl(settings('', 'loja'))).toBeNull();
    expect(chatbotPageUrl(settings('https://bot.example.com', ''))).toBeNull();
    expect(chatbotPageUrl(settings('javascript:alert(1)', 'x'))).toBeNull();
    expect(chatbotPageUrl(settings('not a url', 'x'))).toBeNull();
  });
});
