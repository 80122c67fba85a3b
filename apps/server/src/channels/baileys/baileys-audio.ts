import { spawn } from 'node:child_process';
import { processFfmpeg } from '../../ops/ffmpeg.js';

export const VOICE_NOTE_MIMETYPE = 'audio/ogg; codecs=opus';

/** The ffmpeg this process chose at start: FFMPEG_PATH, else the system's, else the bundled one (ops/ffmpeg.ts). */
async function ffmpegPath(): Promise<string> {
  const binary = await processFfmpeg();
  if (!binary) throw new Error('ffmpeg not found: install it (Debian: apt-get install ffmpeg) or set FFMPEG_PATH');
  return binary.path;
}

/** Converts any audio ffmpeg reads into a mono 48 kHz ogg/opus voice note, as WhatsApp expects. */
export async function toVoiceNote(input: Buffer, binary?: string): Promise<Buffer> {
  const path = binary ?? (await ffmpegPath());
  const args = ['-hide_banner', '-loglevel', 'error', '-i', 'pipe:0', '-vn', '-c:a', 'libopus', '-ac', '1', '-ar', '48000', '-b:a', '64k', '-f', 'ogg', 'pipe:1'];
  return new Promise<Buffer>((resolve, reject) => {
    const child = spawn(path, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    // ffmpeg may stop reading early on bad input; its exit code tells the story, not EPIPE.
    child.stdin.on('error', () => undefined);
    child.on('error', reject);
    child.on('close', (code) => {
      const output = Buffer.concat(out);
      if (code === 0 && output.length > 0) resolve(output);
      else reject(new Error(`ffmpeg exited with ${code}: ${Buffer.concat(err).toString().trim().slice(0, 500)}`));
    });
    child.stdin.end(input);
  });
}
