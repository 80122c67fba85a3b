import { describe, expect, it } from 'vitest';
import { audioDurationSeconds } from './audio-duration.js';

function wav(seconds: number): Buffer {
  const rate = 8000;
  const samples = Math.round(rate * seconds);
  const buf = Buffer.alloc(44 + samples);
  buf.write('RIFF', 0);
  buf.writeUInt32LE(36 + samples, 4);
  buf.write('WAVE', 8);
  buf.write('fmt ', 12);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate, 28);
  buf.writeUInt16LE(1, 32);
  buf.writeUInt16LE(8, 34);
  buf.write('data', 36);
  buf.writeUInt32LE(samples, 40);
  return buf;
}

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
