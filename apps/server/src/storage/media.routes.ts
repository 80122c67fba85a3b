import send from '@fastify/send';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../http/app-error.js';
import { parse } from '../http/validate.js';
import { MIME_BY_EXTENSION, type MediaStorage } from './media-storage.js';

const Params = z.object({ name: z.string().max(100) });
const Query = z.object({ sig: z.string().max(100).default('') });

/**
 * GET /api/media/:name?sig= — the signature made by MediaStorage.url is the credential. Files are sent by
 * @fastify/send: byte ranges (206, so audio and video seek, and play at all on Safari and iOS), ETag and
 * Last-Modified with conditional requests (304).
 */
export function mediaRoutes(app: FastifyInstance, storage: MediaStorage): void {
  app.get('/api/media/:name', { config: { access: 'public' } }, async (request, reply) => {
    const { name } = parse(Params, request.params);
    const { sig } = parse(Query, request.query);
    // verify() also admits only stored names (a UUID and an extension): no path reaches the file system.
    if (!storage.verify(name, sig)) throw new AppError('ERR_NO_PERMISSION');
    const sent = await send(request.raw, `/${name}`, { root: storage.dir, cacheControl: false, contentType: false, dotfiles: 'deny', index: false });
    if (sent.type === 'error' && sent.statusCode !== 416 && sent.statusCode !== 412) {
      if (sent.statusCode === 404) throw new AppError('ERR_NOT_FOUND');
      throw sent.metadata.error;
    }
    if (sent.type === 'directory') throw new AppError('ERR_NOT_FOUND');
    reply.status(sent.statusCode).headers(sent.headers);
    if (sent.type === 'file' && sent.statusCode !== 304) {
      const ext = name.split('.').pop() ?? '';
      reply.header('content-type', MIME_BY_EXTENSION[ext] ?? 'application/octet-stream');
    }
    return reply.header('cache-control', 'private, max-age=86400').header('x-content-type-options', 'nosniff').send(sent.stream);
  });
}
