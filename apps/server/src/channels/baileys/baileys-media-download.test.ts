import type { WAMessage } from '@whiskeysockets/baileys';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { downloadWhatsappMedia, isWhatsappMediaUrl, mediaDownloadUrl } from './baileys-media-download.js';

/** An inbound image as a contact's phone (or a crafted client) sends it. */
function image(fields: { url?: string; directPath?: string }): WAMessage {
  return {
    key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: 'IMG1' },
    message: { imageMessage: { mimetype: 'image/jpeg', mediaKey: new Uint8Array(32), ...fields } },
  } as WAMessage;
}

const socket = { updateMediaMessage: vi.fn(async (m: WAMessage) => m) };
const logger = { level: 'silent', child: () => logger, trace() {}, debug() {}, info() {}, warn() {}, error() {} } as never;

describe('inbound media is downloaded from WhatsApp only', () => {
  afterEach(() => vi.unstubAllGlobals());

  it.each([
    ['a url on another host', { url: 'https://169.254.169.254/latest/meta-data', directPath: undefined }],
    ['an http url', { url: 'http://mmg.whatsapp.net/v/t62/x', directPath: undefined }],
    ["a directPath joined to another host's url", { url: 'https://10.0.0.5/x', directPath: '/v/t62.7118-24/x.enc' }],
    ['a directPath that makes the host credentials', { url: undefined, directPath: '@127.0.0.1:8080/admin' }],
    ['a directPath that extends the host', { url: undefined, directPath: '.evil.test/x' }],
    ['a port', { url: 'https://mmg.whatsapp.net:8443/x', directPath: '/v/x' }],
  ])('refuses %s, before any request', async (_what, fields) => {
    const fetch = vi.fn(async () => new Response('nope', { status: 500 }));
    vi.stubGlobal('fetch', fetch);
    await expect(downloadWhatsappMedia(image(fields), socket, logger)).rejects.toThrow(/not on WhatsApp's media servers/);
    expect(fetch).not.toHaveBeenCalled();
  });

  it("fetches a real message's file from WhatsApp's media host", async () => {
    const fetch = vi.fn(async (_url: string) => new Response('', { status: 404 }));
    vi.stubGlobal('fetch', fetch);
    const message = image({ url: 'https://mmg.whatsapp.net/v/t62.7118-24/abc.enc?ccb=11-4', directPath: '/v/t62.7118-24/abc.enc?ccb=11-4' });
    expect(mediaDownloadUrl(message)).toBe('https://mmg.whatsapp.net/v/t62.7118-24/abc.enc?ccb=11-4');
    await expect(downloadWhatsappMedia(message, socket, logger)).rejects.toThrow();
    expect(fetch.mock.calls[0]?.[0]).toBe('https://mmg.whatsapp.net/v/t62.7118-24/abc.enc?ccb=11-4');
  });

  it('takes *.whatsapp.net over https, nothing else', () => {
    expect(isWhatsappMediaUrl('https://mmg.whatsapp.net/v/x')).toBe(true);
    expect(isWhatsappMediaUrl('https://media-gru1-1.cdn.whatsapp.net/v/x')).toBe(true);
    expect(isWhatsappMediaUrl('https://whatsapp.net.evil.test/x')).toBe(false);
    expect(isWhatsappMediaUrl('https://evilwhatsapp.net/x')).toBe(false);
    expect(isWhatsappMediaUrl('https://u:p@mmg.whatsapp.net/x')).toBe(false);
  });
});
