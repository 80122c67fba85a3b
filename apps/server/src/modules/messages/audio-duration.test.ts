import { describe, expect, it } from 'vitest';
import { wavFile } from '../../test/audio-fixtures.js';
import { audioDurationSeconds } from './audio-duration.js';

/** A silent 8 kHz mono 8-bit WAV. */
const wav = (seconds: number) => wavFile(Buffer.alloc(Math.round(8000 * seconds)), 8000, 8);

/** A constant-bit-rate MP3 of `frames` silent MPEG-1 Layer III frames at 128 kbps, 44.1 kHz, mono. */
function mp3(frames: number): Buffer {
  const frameSize = Math.floor((144 * 128000) / 44100); // 417 bytes
  const frame = Buffer.alloc(frameSize);
  frame.writeUInt32BE(0xfffb90c4, 0); // sync, MPEG-1, Layer III, 128 kbps, 44.1 kHz, mono
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

describe('audio duration of an upload', () => {
  it('reads a WAV file', () => {
    expect(audioDurationSeconds(wav(12), 'audio/wav')).toBe(12);
  });

  it('reads a constant-bit-rate MP3 (the web recorder sends 128 kbps MP3)', () => {
    // 1152 samples per frame at 44.1 kHz: 383 frames ≈ 10 s.
    expect(audioDurationSeconds(mp3(383), 'audio/mpeg')).toBe(10);
  });

  it('says nothing for formats it cannot read', () => {
    expect(audioDurationSeconds(Buffer.from('not audio'), 'audio/mpeg')).toBeNull();
    expect(audioDurationSeconds(Buffer.from('OggS'), 'audio/ogg')).toBeNull();
    expect(audioDurationSeconds(wav(1), 'application/pdf')).toBeNull();
  });
});
