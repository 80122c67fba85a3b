import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../http/app-error.js';
import { parse } from '../http/validate.js';
import { MIME_BY_EXTENSION, type MediaStorage } from './media-storage.js';

const Params = z.object({ name: z.string().max(100) });
const Query = z.object({ sig: z.string().max(100).default('') });

/** GET /api/media/:name?sig= — the signature made by MediaStorage.url is the credential. */
export function mediaRoutes(app: FastifyInstance, storage: MediaStorage): void {
  app.get('/api/media/:name', { config: { access: 'public' } }, async (request, reply) => {
    const { name } = parse(Params, request.params);
    const { sig } = parse(Query, request.query);
    if (!storage.verify(name, sig)) throw new AppError('ERR_NO_PERMISSION');
    const opened = await storage.open(name);
    if (!opened) throw new AppError('ERR_NOT_FOUND');
    const ext = name.split('.').pop() ?? '';
    return reply
      .header('content-type', MIME_BY_EXTENSION[ext] ?? 'application/octet-stream')
      .header('content-length', opened.size)
      .header('cache-control', 'private, max-age=86400')
      .header('x-content-type-options', 'nosniff')
      .send(opened.stream);
  });
}
