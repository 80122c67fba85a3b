/// <reference lib="webworker" />
/**
 * Encodes a recording's samples as mono MP3 off the main thread (issue 33 item 8: 60 s of audio took 2–4 s and
 * froze the tab). Receives { samples: Float32Array, sampleRate, kbps }; answers { mp3: Uint8Array } or { error }.
 */
import { Mp3Encoder } from '@breezystack/lamejs';

export interface Mp3EncodeRequest {
  samples: Float32Array;
  sampleRate: number;
  kbps: number;
}
export type Mp3EncodeResponse = { mp3: Uint8Array } | { error: string };

/** Float samples (-1..1) to 16-bit PCM, then MP3 frames of 1,152 samples. */
export function encodeSamples({ samples, sampleRate, kbps }: Mp3EncodeRequest): Uint8Array {
  const pcm = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i += 1) {
    const s = Math.max(-1, Math.min(1, samples[i]));
    pcm[i] = s < 0 ? s * 0x8000 : s * 0x7fff;
  }
  const encoder = new Mp3Encoder(1, sampleRate, kbps);
  const chunks: Uint8Array[] = [];
  const block = 1152;
  for (let i = 0; i < pcm.length; i += block) {
    const out = encoder.encodeBuffer(pcm.subarray(i, i + block));
    if (out.length) chunks.push(new Uint8Array(out));
  }
  const end = encoder.flush();
  if (end.length) chunks.push(new Uint8Array(end));
  const mp3 = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const c of chunks) {
    mp3.set(c, offset);
    offset += c.length;
  }
  return mp3;
}

const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.onmessage = (e: MessageEvent<Mp3EncodeRequest>) => {
  try {
    const mp3 = encodeSamples(e.data);
    scope.postMessage({ mp3 } satisfies Mp3EncodeResponse, [mp3.buffer]);
  } catch (err) {
    scope.postMessage({ error: err instanceof Error ? err.message : String(err) } satisfies Mp3EncodeResponse);
  }
};
