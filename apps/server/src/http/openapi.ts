import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { RouteAccess, RouteEntry } from './auth-hook.js';

const SECURITY: Record<RouteAccess, Record<string, string[]>[]> = {
  public: [],
  user: [{ bearer: [] }],
  admin: [{ bearer: [] }],
  apiToken: [{ apiToken: [] }, { bearer: [] }],
};

const WHO: Record<RouteAccess, string> = {
  public: 'Anyone.',
  user: 'Any signed-in user (access token).',
  admin: 'Admins (access token).',
  apiToken: 'The API token (setting userApiToken: body `token` or `Authorization: Bearer`), or a signed-in admin.',
};

function jsonSchema(schema: z.ZodType): unknown {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
}

function parametersOf(entry: RouteEntry): unknown[] {
  const path = [...entry.url.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
  const query = entry.docs?.query ? (jsonSchema(entry.docs.query) as { properties?: Record<string, unknown>; required?: string[] }) : null;
  const queryParams = Object.entries(query?.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: query?.required?.includes(name) ?? false,
    schema,
  }));
  return [...path, ...queryParams];
}

/** The OpenAPI 3.1 document of every /api route of the route table, with the bodies their zod schemas describe. */
export function openApiDocument(routes: RouteEntry[]): object {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const entry of routes) {
    if (!entry.url.startsWith('/api') || entry.method === 'HEAD' || entry.url === '/api/docs') continue;
    const path = entry.url.replace(/:(\w+)/g, '{$1}');
    const status = String(entry.docs?.status ?? 200);
    paths[path] ??= {};
    paths[path][entry.method.toLowerCase()] = {
      summary: entry.docs?.summary ?? `${entry.method} ${path}`,
      description: WHO[entry.access],
      security: SECURITY[entry.access],
      parameters: parametersOf(entry),
      ...(entry.docs?.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(entry.docs.body) } } } } : {}),
      responses: {
        [status]: { description: 'Success' },
        default: { description: 'An error: `{ error: ERR_CODE, message, issues? }`' },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'WA Desk API', version: '0.1.0', description: 'Every route of the desk under /api. Errors are `{ error, message }` with the codes of the catalogue.' },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The access token of POST /api/auth/login.' },
        apiToken: { type: 'apiKey', in: 'header', name: 'Authorization', description: '`Bearer <userApiToken>`, or `token` in the JSON body.' },
      },
    },
    paths,
  };
}

/** `GET /api/docs`: the OpenAPI document, built once from the route table when first asked. */
export function docsRoutes(app: FastifyInstance): void {
  let document: object | null = null;
  app.get('/api/docs', { config: { access: 'public' } }, async () => {
    document ??= openApiDocument(app.routeTable);
    return document;
  });
}
