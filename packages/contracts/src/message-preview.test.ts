import { describe, expect, it } from 'vitest';
import { formatDuration, lastMessageOf, parseMediaPreview } from './message-preview.js';

describe('a ticket\'s last message for media', () => {
  it('writes a voice note with its duration, a document by its name, other media by their caption', () => {
    expect(lastMessageOf({ body: '', mediaType: 'audio', duration: 12 })).toBe('[audio 0:12]');
    expect(lastMessageOf({ body: '', mediaType: 'audio' })).toBe('[audio]');
    expect(lastMessageOf({ body: 'see attached', mediaType: 'other', filename: 'Relatório final.pdf' })).toBe('[other] Relatório final.pdf');
    expect(lastMessageOf({ body: 'a caption', mediaType: 'image' })).toBe('[image] a caption');
    expect(lastMessageOf({ body: '-23.56,-46.65|Av. Paulista', mediaType: 'location' })).toBe('[location] Av. Paulista');
    expect(lastMessageOf({ body: '-23.56,-46.65', mediaType: 'location' })).toBe('[location]');
    expect(parseMediaPreview('[image] Olha a foto')).toEqual({ mediaType: 'image', name: 'Olha a foto' });
    expect(parseMediaPreview('[deleted]')).toEqual({ mediaType: 'deleted' });
    expect(lastMessageOf({ body: '', mediaType: 'video' })).toBe('[video]');
    expect(lastMessageOf({ body: 'hello', mediaType: null })).toBe('hello');
  });

  it('reads back what it wrote, and nothing from ordinary text', () => {
    expect(parseMediaPreview('[audio 0:12]')).toEqual({ mediaType: 'audio', duration: '0:12' });
    expect(parseMediaPreview('[audio 1:02:03]')).toEqual({ mediaType: 'audio', duration: '1:02:03' });
    expect(parseMediaPreview('[other] Relatório final.pdf')).toEqual({ mediaType: 'other', name: 'Relatório final.pdf' });
    expect(parseMediaPreview('[image]')).toEqual({ mediaType: 'image' });
    expect(parseMediaPreview('Olá [audio]')).toBeNull();
  });

  it('formats durations as m:ss, or h:mm:ss', () => {
    expect(formatDuration(12)).toBe('0:12');
    expect(formatDuration(75)).toBe('1:15');
    expect(formatDuration(3723)).toBe('1:02:03');
  });
});
