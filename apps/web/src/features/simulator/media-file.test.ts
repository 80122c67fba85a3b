import { describe, expect, it } from 'vitest';
import { mediaTypeOf } from './media-file';

describe('mediaTypeOf', () => {
  it('sends pictures as images, sound as audio, films as video', () => {
    expect(mediaTypeOf('image/png')).toBe('image');
    expect(mediaTypeOf('audio/ogg')).toBe('audio');
    expect(mediaTypeOf('video/mp4')).toBe('video');
  });

  it('sends anything else as a document', () => {
    expect(mediaTypeOf('application/pdf')).toBe('document');
    expect(mediaTypeOf('')).toBe('document');
  });
});
