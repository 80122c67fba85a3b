import { describe, expect, it } from 'vitest';
import { isReaction, isReactionEmoji, reactionsOn, REACTION_EMOJIS } from './reactions.js';

describe('reactions', () => {
  it('takes one emoji, with its modifiers and joiners, and nothing else', () => {
    for (const emoji of [...REACTION_EMOJIS, '👍🏽', '👨‍👩‍👧', '🇧🇷', '1️⃣']) expect(isReactionEmoji(emoji), emoji).toBe(true);
    for (const text of ['', 'ok', 'a👍', '👍 ', '1', '👍'.repeat(20)]) expect(isReactionEmoji(text), text).toBe(false);
  });

  it('shows on each message the latest reaction of each side', () => {
    const shown = reactionsOn([
      { fromMe: false, isDeleted: false, body: '👍', quotedMsg: { id: 1 } },
      { fromMe: true, isDeleted: true, body: '😂', quotedMsg: { id: 1 } },
      { fromMe: true, isDeleted: false, body: '❤️', quotedMsg: { id: 1 } },
      { fromMe: false, isDeleted: false, body: '🙏', quotedMsg: { id: 1 } },
      { fromMe: false, isDeleted: false, body: 'thanks', quotedMsg: { id: 2 } },
    ]);
    expect([...shown]).toEqual([[1, { mine: '❤️', theirs: '🙏' }]]);
    expect(isReaction({ fromMe: false, isDeleted: false, body: '👍', quotedMsg: null })).toBe(false);
  });
});
