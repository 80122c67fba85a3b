import { existsSync } from 'node:fs';
import send from '@fastify/send';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { routerPath } from '../http/router-path.js';
import type { UserGuide } from './user-guide.js';

const NOT_FOUND = 'This page of the user guide does not exist.';

/**
 * GET /guide/… — the user guide, served by the desk to anyone (no sign-in: it is the repository's public text),
 * outside /api and before the web app's catch-all: `/guide/en/` is the English guide's contents (its README.md),
 * `/guide/en/tickets.md` a page as HTML, `/guide/images/en/07-tickets-queue.png` a picture (decision 0036).
 * Pages and pictures are revalidated on each visit (`no-cache`; pictures answer 304 while unchanged).
 */
export function guideRoutes(app: FastifyInstance, guide: UserGuide): void {
  if (!existsSync(guide.dir)) app.log.warn({ guideDir: guide.dir }, 'user guide: no folder at GUIDE_DIR, /guide/ answers 404');
  const options = { config: { access: 'public' as const } };
  const answer = async (request: FastifyRequest, reply: FastifyReply) => {
    // The path as the router read it (decoded, slashes collapsed): the trailing slash matters, the router ignores it.
    const urlPath = routerPath(request.url);
    if (urlPath === '/guide') return reply.redirect('/guide/');
    const found = await guide.find(urlPath.slice('/guide/'.length));
    switch (found.kind) {
      case 'page':
        return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(found.html);
      case 'stylesheet':
        return reply.type('text/css; charset=utf-8').header('cache-control', 'no-cache').send(found.css);
      case 'folder':
        return reply.redirect(`${request.url.split(/[?#]/, 1)[0]}/`);
      case 'missing':
        return reply.status(404).type('text/plain; charset=utf-8').send(NOT_FOUND);
      case 'file': {
        const path = `/${found.file.split('/').map(encodeURIComponent).join('/')}`;
        const sent = await send(request.raw, path, { root: found.root, cacheControl: false, contentType: false, dotfiles: 'deny', index: false });
        if (sent.type === 'error' && sent.statusCode !== 416 && sent.statusCode !== 412) {
          if (sent.statusCode === 404) return reply.status(404).type('text/plain; charset=utf-8').send(NOT_FOUND);
          throw sent.metadata.error;
        }
        if (sent.type === 'directory') return reply.status(404).type('text/plain; charset=utf-8').send(NOT_FOUND);
        reply.status(sent.statusCode).headers(sent.headers);
        if (sent.type === 'file' && sent.statusCode !== 304) reply.header('content-type', found.type);
        return reply.header('cache-control', 'no-cache').send(sent.stream);
      }
    }
  };
  app.get('/guide', options, answer);
  app.get('/guide/*', options, answer);
}
