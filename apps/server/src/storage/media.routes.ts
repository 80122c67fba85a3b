import send from '@fastify/send';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../http/app-error.js';
import { MIME_BY_EXTENSION, type MediaStorage } from './media-storage.js';

const Params = z.object({ name: z.string().max(100).meta({ description: 'The stored file name (a UUID and an extension), as the signed URL gives it.' }) });
const Query = z.object({ sig: z.string().max(100).default('').meta({ description: 'The signature of the URL a message carries: the credential.' }) });

/** A file as an answer (a stream, not JSON): described as binary, checked by no schema. */
const fileAnswer = (description: string) => z.any().meta({ type: 'string', format: 'binary', description });

/**
 * GET /api/media/:name?sig= — the signature made by MediaStorage.url is the credential. Files are sent by
 * @fastify/send: byte ranges (206, so audio and video seek, and play at all on Safari and iOS), ETag and
 * Last-Modified with conditional requests (304).
 */
export function mediaRoutes(http: FastifyInstance, storage: MediaStorage): void {
  const app = http.withTypeProvider<ZodTypeProvider>();
  const schema = {
    operationId: 'getMedia',
    summary: 'A stored media file by its signed URL (byte ranges, conditional requests)',
    tags: ['Media'],
    params: Params,
    querystring: Query,
    response: {
      200: fileAnswer('The file, in its own content type.'),
      206: fileAnswer('A byte range of the file (`Range`).'),
    },
  };
  app.get('/api/media/:name', { config: { access: 'public' }, schema }, async (request, reply) => {
    const { name } = request.params;
    const { sig } = request.query;
    // verify() also admits only stored names (a UUID and an extension): no path reaches the file system.
    if (!storage.verify(name, sig)) throw new AppError('ERR_NO_PERMISSION');
    const sent = await send(request.raw, `/${name}`, { root: storage.dir, cacheControl: false, contentType: false, dotfiles: 'deny', index: false });
    if (sent.type === 'error' && sent.statusCode !== 416 && sent.statusCode !== 412) {
      if (sent.statusCode === 404) throw new AppError('ERR_NOT_FOUND');
      throw sent.metadata.error;
    }
    if (sent.type === 'directory') throw new AppError('ERR_NOT_FOUND');
    // 200 or 206, or @fastify/send's own 304, 412 and 416 (not declared: they carry no JSON).
    reply.status(sent.statusCode as 200).headers(sent.headers);
    if (sent.type === 'file' && sent.statusCode !== 304) {
      const ext = name.split('.').pop() ?? '';
      reply.header('content-type', MIME_BY_EXTENSION[ext] ?? 'application/octet-stream');
    }
    return reply.header('cache-control', 'private, max-age=86400').header('x-content-type-options', 'nosniff').send(sent.stream);
  });
}
