/** What the simulator accepts as a contact's media (see SimulatorInboundInput). */
export type SimulatorFileMediaType = 'image' | 'audio' | 'video' | 'document';

/** The server takes data: URLs up to 3 MB of text; base64 adds a third. */
export const MAX_MEDIA_BYTES = 2 * 1024 * 1024;

export function mediaTypeOf(mime: string): SimulatorFileMediaType {
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('video/')) return 'video';
  return 'document';
}

export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}
