import { describe, expect, it } from 'vitest';
import { findMentions, mentionedPeople, mentionQueryAt, nameMatches } from './mentions.js';

const ana = { id: 1, name: 'Ana' };
const anaSouza = { id: 2, name: 'Ana Souza' };
const joao = { id: 3, name: 'João Pedro' };
const people = [ana, anaSouza, joao];

describe('mentions (@Name in a note)', () => {
  it('finds each @Name, the longest name first, ignoring case and accents', () => {
    const text = '@ana souza and @JOAO PEDRO, see this; @Ana too';
    expect(findMentions(text, people).map((m) => [m.person.id, text.slice(m.start, m.end)])).toEqual([
      [2, '@ana souza'],
      [3, '@JOAO PEDRO'],
      [1, '@Ana'],
    ]);
  });

  it('names no one with an e-mail address, a longer word or an unknown name', () => {
    expect(findMentions('write to ana@ana.com', people)).toEqual([]);
    expect(findMentions('@Anabela please', people)).toEqual([]);
    expect(findMentions('@Maria', people)).toEqual([]);
    expect(findMentions('no at sign', people)).toEqual([]);
  });

  it('lists each person once, in the order first named', () => {
    expect(mentionedPeople('@João Pedro @Ana @joão pedro', people).map((p) => p.id)).toEqual([3, 1]);
  });

  it('reads the word being typed after @ at the caret', () => {
    expect(mentionQueryAt('hello @An', 9)).toEqual({ start: 6, query: 'An' });
    expect(mentionQueryAt('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionQueryAt('mail a@b', 8)).toBeNull();
    expect(mentionQueryAt('@Ana\nnext', 9)).toBeNull();
    expect(mentionQueryAt('no mention', 10)).toBeNull();
  });

  it('matches a name by the start of any of its words', () => {
    expect(nameMatches('João Pedro', 'ped')).toBe(true);
    expect(nameMatches('João Pedro', 'joao')).toBe(true);
    expect(nameMatches('João Pedro', 'dro')).toBe(false);
    expect(nameMatches('Ana', '')).toBe(true);
  });
});
