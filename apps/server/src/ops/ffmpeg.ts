import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Which ffmpeg converts audio (voice notes). It decodes files that strangers upload or name by URL, so it must be
 * a maintained build: FFMPEG_PATH when set, else the system's (Debian's package, in the Docker image), and only
 * when neither exists the 2018 static build of @ffmpeg-installer/ffmpeg.
 */
export type FfmpegSource = 'env' | 'system' | 'bundled';

export interface FfmpegChoice {
  path: string;
  source: FfmpegSource;
}

export interface FfmpegBinary extends FfmpegChoice {
  /** The first line of `ffmpeg -version`; null when it would not run. */
  version: string | null;
}

/** Where ffmpeg is looked for (each part replaceable in tests). */
export interface FfmpegLookup {
  /** FFMPEG_PATH: taken as it is when set, even if it does not run (then the version says so). */
  envPath?: string;
  /** The system's ffmpeg, in order. */
  systemPaths?: readonly string[];
  isExecutable?: (path: string) => boolean;
  /** The path of @ffmpeg-installer/ffmpeg's binary; undefined when it is not installed. */
  bundledPath?: () => string | undefined;
}

export const SYSTEM_FFMPEG_PATHS: readonly string[] = ['/usr/bin/ffmpeg'];

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function installerPath(): string | undefined {
  try {
    // The package throws when its binary is missing (an unsupported platform, optional dependencies left out).
    return (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  } catch {
    return undefined;
  }
}

/** env > system > bundled; null when there is no ffmpeg at all. */
export function resolveFfmpeg(lookup: FfmpegLookup = {}): FfmpegChoice | null {
  const envPath = lookup.envPath?.trim();
  if (envPath) return { path: envPath, source: 'env' };
  const executable = lookup.isExecutable ?? isExecutable;
  const system = (lookup.systemPaths ?? SYSTEM_FFMPEG_PATHS).find((path) => executable(path));
  if (system) return { path: system, source: 'system' };
  const bundled = (lookup.bundledPath ?? installerPath)();
  return bundled ? { path: bundled, source: 'bundled' } : null;
}

/** The first line of `<path> -version` ("ffmpeg version 5.1.6-0+deb12u1 Copyright ..."), or null. */
export function ffmpegVersion(path: string, timeoutMs = 10_000): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(path, ['-version'], { timeout: timeoutMs, maxBuffer: 1024 * 1024 }, (err, stdout) => {
      const first = String(stdout ?? '').split('\n')[0]?.trim();
      resolve(!err && first ? first : null);
    });
  });
}

/** Resolves ffmpeg and asks its version, once per FFMPEG_PATH value. */
const described = new Map<string, Promise<FfmpegBinary | null>>();
let current: Promise<FfmpegBinary | null> | undefined;

/**
 * The ffmpeg of this process, chosen at start from FFMPEG_PATH (config.ffmpegPath) and asked its version once.
 * buildApp calls it first; later callers without an argument (the audio transcoder) get the same one.
 */
export function processFfmpeg(envPath?: string): Promise<FfmpegBinary | null> {
  if (envPath === undefined && current) return current;
  const key = envPath?.trim() ?? '';
  let binary = described.get(key);
  if (!binary) {
    const choice = resolveFfmpeg({ envPath: key || undefined });
    binary = choice ? ffmpegVersion(choice.path).then((version) => ({ ...choice, version })) : Promise.resolve(null);
    described.set(key, binary);
  }
  current = binary;
  return binary;
}
