import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Browser hardening for every answer (web app and API): a Content-Security-Policy without inline scripts,
 * no framing by other sites, nosniff, no referrer to other origins. `secure` (behind HTTPS, COOKIE_SECURE)
 * adds HSTS and upgrades insecure requests; on plain HTTP (a desk on a LAN address) both would break the app.
 *
 * helmet's middleware is built once here and run on each request. @fastify/helmet built it again for every
 * request (`helmet(configuration)` in its hook: every directive parsed and checked anew), about 1.5 % of the
 * server's CPU on the open list (issue 35); the headers are the same.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: {
    secure: boolean;
    /** Origins the app may show in a frame besides its own, read at each answer (the chatbot page: typebotUrl's). */
    frameOrigins?: () => string[];
    /**
     * CORS_ORIGINS is set: a front end served from another origin of the same site shows the media files (an <img>
     * is not a CORS request), so Cross-Origin-Resource-Policy is `same-site` instead of `same-origin`.
     */
    sameSiteResources?: boolean;
  },
): Promise<void> {
  const frameOrigins = options.frameOrigins ?? (() => []);
  const setHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // MUI (emotion) writes its styles in <style> elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Contact avatars come from WhatsApp's CDN; previews and recordings are data: and blob: URLs.
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        mediaSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        // /ZDGChatbot shows the configured Typebot's page (its origin only, checked as a URL's origin).
        frameSrc: ["'self'", () => frameOrigins().join(' ') || "'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        ...(options.secure ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: options.secure ? { maxAge: 15552000, includeSubDomains: false } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: options.sameSiteResources ? 'same-site' : 'same-origin' },
  });
  app.addHook('onRequest', (request, reply, done) => {
    setHeaders(request.raw, reply.raw, (error) => done(error instanceof Error ? error : undefined));
  });
}
