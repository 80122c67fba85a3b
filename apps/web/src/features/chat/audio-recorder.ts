/** §5/§9: recordings under this size are discarded; audio is sent as MP3 at 128 kbps. */
export const MIN_AUDIO_BYTES = 10_000;
export const MP3_KBPS = 128;

/** mm:ss */
export function formatTimer(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = Math.floor(seconds % 60);
  return `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

/** Decodes a recording (webm/ogg) and encodes it as mono MP3 at 128 kbps. */
export async function encodeMp3(recording: Blob): Promise<Blob> {
  const { Mp3Encoder } = await import('@breezystack/lamejs');
  const context = new AudioContext();
  try {
    const audio = await context.decodeAudioData(await recording.arrayBuffer());
    const samples = audio.getChannelData(0);
    const pcm = new Int16Array(samples.length);
    for (let i = 0; i < samples.length; i += 1) {
      const s = Math.max(-1, Math.min(1, samples[i]));
      pcm[i] = s < 0 ? s * 0x8000 : s * 0x7fff;
    }
    const encoder = new Mp3Encoder(1, audio.sampleRate, MP3_KBPS);
    const chunks: Uint8Array[] = [];
    const block = 1152;
    for (let i = 0; i < pcm.length; i += block) {
      const out = encoder.encodeBuffer(pcm.subarray(i, i + block));
      if (out.length) chunks.push(new Uint8Array(out));
    }
    const end = encoder.flush();
    if (end.length) chunks.push(new Uint8Array(end));
    return new Blob(chunks as BlobPart[], { type: 'audio/mpeg' });
  } finally {
    void context.close();
  }
}

export interface Recording {
  stop: () => Promise<Blob>;
  cancel: () => void;
}

/** Starts recording from the microphone. */
export async function startRecording(): Promise<Recording> {
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
