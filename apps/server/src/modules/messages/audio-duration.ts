/**
 * The length in seconds of an uploaded audio file, read from its headers: MP3 (what the web's recorder
 * sends: a Xing/Info frame count, else constant bit rate), Ogg Opus (the last page's granule position) and
 * WAV (data size / byte rate). Null when the format is something else or the file does not say.
 */
export function audioDurationSeconds(data: Buffer, mimetype: string): number | null {
  const type = mimetype.toLowerCase();
  let seconds: number | null = null;
  try {
    if (type.includes('mpeg') || type.includes('mp3')) seconds = mp3Seconds(data);
    else if (type.includes('ogg') || type.includes('opus')) seconds = oggOpusSeconds(data);
    else if (type.includes('wav')) seconds = wavSeconds(data);
  } catch {
    seconds = null;
  }
  if (seconds === null || !Number.isFinite(seconds) || seconds <= 0 || seconds > 86400) return null;
  return Math.max(1, Math.round(seconds));
}

const MP3_BITRATES = {
  v1: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  v2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const MP3_RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

function mp3Seconds(data: Buffer): number | null {
  let offset = 0;
  if (data.subarray(0, 3).toString('latin1') === 'ID3' && data.length > 10) {
    offset = 10 + ((data[6]! << 21) | (data[7]! << 14) | (data[8]! << 7) | data[9]!);
  }
  for (; offset + 4 <= data.length && offset < 64 * 1024; offset += 1) {
    if (data[offset] !== 0xff || (data[offset + 1]! & 0xe0) !== 0xe0) continue;
    const header = data.readUInt32BE(offset);
    const version = (header >>> 19) & 3;
    const layer = (header >>> 17) & 3;
    const bitrateIndex = (header >>> 12) & 15;
    const rateIndex = (header >>> 10) & 3;
    if (version === 1 || layer !== 1 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) continue;
    const sampleRate = MP3_RATES[version]![rateIndex]!;
    const bitrate = (version === 3 ? MP3_BITRATES.v1 : MP3_BITRATES.v2)[bitrateIndex]! * 1000;
    const mono = ((header >>> 6) & 3) === 3;
    const samplesPerFrame = version === 3 ? 1152 : 576;
    const sideInfo = version === 3 ? (mono ? 17 : 32) : mono ? 9 : 17;
    const tag = data.subarray(offset + 4 + sideInfo, offset + 8 + sideInfo).toString('latin1');
    if ((tag === 'Xing' || tag === 'Info') && data.length >= offset + 16 + sideInfo) {
      const flags = data.readUInt32BE(offset + 8 + sideInfo);
      if (flags & 1) return (data.readUInt32BE(offset + 12 + sideInfo) * samplesPerFrame) / sampleRate;
    }
    return ((data.length - offset) * 8) / bitrate;
  }
  return null;
}

function oggOpusSeconds(data: Buffer): number | null {
  if (data.subarray(0, 4).toString('latin1') !== 'OggS' || !data.subarray(0, 200).includes('OpusHead')) return null;
  const last = data.lastIndexOf('OggS');
  if (last < 0 || last + 14 > data.length) return null;
  const granule = Number(data.readBigUInt64LE(last + 6));
  const head = data.indexOf('OpusHead');
  const preSkip = head >= 0 && head + 12 <= data.length ? data.readUInt16LE(head + 10) : 0;
  return (granule - preSkip) / 48000;
}

function wavSeconds(data: Buffer): number | null {
  if (data.subarray(0, 4).toString('latin1') !== 'RIFF' || data.subarray(8, 12).toString('latin1') !== 'WAVE') return null;
  const byteRate = data.readUInt32LE(28);
  const dataChunk = data.indexOf('data', 12);
  if (!byteRate || dataChunk < 0 || dataChunk + 8 > data.length) return null;
  return data.readUInt32LE(dataChunk + 4) / byteRate;
}
