import type { Mp3EncodeRequest, Mp3EncodeResponse } from './mp3-encoder.worker';

/** §5/§9: recordings under this size are discarded; audio is sent as MP3 at 128 kbps. */
export const MIN_AUDIO_BYTES = 10_000;
export const MP3_KBPS = 128;

/** mm:ss */
export function formatTimer(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = Math.floor(seconds % 60);
  return `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

/**
 * Decodes a recording (webm/ogg) and encodes it as mono MP3 at 128 kbps in a Web Worker (issue 33 item 8): the
 * browser decodes off the main thread already, the encoder runs in mp3-encoder.worker.ts, so the tab stays live.
 */
export async function encodeMp3(recording: Blob): Promise<Blob> {
  const context = new AudioContext();
  let audio: AudioBuffer;
  try {
    audio = await context.decodeAudioData(await recording.arrayBuffer());
  } finally {
    void context.close();
  }
  const samples = audio.getChannelData(0).slice();
  const worker = new Worker(new URL('./mp3-encoder.worker.ts', import.meta.url), { type: 'module' });
  try {
    const mp3 = await new Promise<Uint8Array>((resolve, reject) => {
      worker.onmessage = (e: MessageEvent<Mp3EncodeResponse>) => ('mp3' in e.data ? resolve(e.data.mp3) : reject(new Error(e.data.error)));
      worker.onerror = (e) => reject(new Error(e.message || 'MP3 encoder failed'));
      const request: Mp3EncodeRequest = { samples, sampleRate: audio.sampleRate, kbps: MP3_KBPS };
      worker.postMessage(request, [samples.buffer]);
    });
    return new Blob([mp3 as BlobPart], { type: 'audio/mpeg' });
  } finally {
    worker.terminate();
  }
}

/** The key of the translated sentence for a microphone that could not be opened (none, or access refused); null for another error. */
export function microphoneProblem(err: unknown): 'chat.input.noMicrophone' | 'chat.input.microphoneRefused' | null {
  const name = err instanceof Error || err instanceof DOMException ? err.name : '';
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'NotReadableError') return 'chat.input.noMicrophone';
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'chat.input.microphoneRefused';
  return null;
}

export interface Recording {
  stop: () => Promise<Blob>;
  cancel: () => void;
}

/** Starts recording from the microphone. */
export async function startRecording(): Promise<Recording> {
  // No mediaDevices (an http:// address other than localhost): the same as no microphone.
  if (!navigator.mediaDevices?.getUserMedia) throw new DOMException('No microphone', 'NotFoundError');
  const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
  const recorder = new MediaRecorder(stream);
  const chunks: Blob[] = [];
  recorder.ondataavailable = (e) => {
    if (e.data.size) chunks.push(e.data);
  };
  recorder.start();
  const release = () => stream.getTracks().forEach((track) => track.stop());
  return {
    stop: () =>
      new Promise<Blob>((resolve) => {
        recorder.onstop = () => {
          release();
          resolve(new Blob(chunks, { type: recorder.mimeType || 'audio/webm' }));
        };
        recorder.stop();
      }),
    cancel: () => {
      recorder.onstop = release;
      if (recorder.state !== 'inactive') recorder.stop();
      else release();
    },
  };
}
