import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RouteAccess } from './auth-hook.js';
import { validationError } from './validate.js';

/**
 * Every route declares its params, query, body and answers once, as zod schemas (issue 34 item 3, decision 0032):
 * Fastify validates the request with them (this compiler), the handler is typed by them
 * (`app.withTypeProvider<ZodTypeProvider>()`), and `/api/docs` describes them (@fastify/swagger).
 *
 * A refused request is the same `400 ERR_VALIDATION { error, message, issues }` as ever: one issue per field.
 * An absent body or query is read as `{}`, so that an object of optional fields takes no input at all.
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  // A multipart upload or a signed webhook's body is read by the handler: its schema documents it, the handler checks it.
  if (httpPart === 'body' && DOCUMENTED_BODIES.has(schema)) return (data: unknown) => ({ value: data });
  return (data: unknown) => {
    const result = schema.safeParse(data ?? {});
    return result.success ? { value: result.data } : { error: validationError(result.error) };
  };
};

const DOCUMENTED_BODIES = new WeakSet<z.ZodType>();

/**
 * A body the handler reads and checks itself: its schema documents it and is not applied (a webhook verified on its
 * raw bytes, a multipart upload read part by part).
 */
export function documentedBody<S extends z.ZodType>(schema: S): S {
  DOCUMENTED_BODIES.add(schema);
  return schema;
}

/**
 * A `multipart/form-data` body, for the document only: declare it with `consumes: ['multipart/form-data']` on the
 * route; the handler reads the parts (a file as `fileField`) and validates the fields itself.
 */
export const multipartBody = documentedBody;

/** A file part of a multipart body, as OpenAPI describes one. */
export const fileField = z.any().meta({ type: 'string', format: 'binary' });

/**
 * Answers are written as they are (`JSON.stringify`): a response schema describes the answer, and the tests check
 * real answers against it (`responseSchemaProblem`), but the server does not pay to check or strip every answer.
 */
export const serializerCompiler: FastifySerializerCompiler<unknown> = () => (data) => JSON.stringify(data);

/** The zod schema of an answer of this status, if the route declares one (exact status, then `2xx`). */
export function declaredResponse(schema: unknown, status: number): z.ZodType | null {
  const response = (schema as { response?: Record<string, unknown> } | undefined)?.response;
  if (!response) return null;
  const declared = response[String(status)] ?? response[`${String(status)[0]}xx`] ?? response[`${String(status)[0]}XX`];
  return declared instanceof z.ZodType ? declared : null;
}

/**
 * What is wrong with a JSON answer, read as a client reads it, against the route's declared response schema; null
 * when it conforms or nothing is declared. Used by the tests on every answer (test/test-app.ts).
 */
export function responseSchemaProblem(schema: unknown, status: number, json: unknown): string | null {
  const declared = declaredResponse(schema, status);
  if (!declared) return null;
  const result = declared.safeParse(json);
  if (result.success) return null;
  return result.error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(answer)'}: ${i.message}`)
    .join('; ');
}

/** The header through which a test app tells its caller that an answer broke its declared schema. */
export const RESPONSE_SCHEMA_PROBLEM_HEADER = 'x-response-schema-problem';

/**
 * Tests only (`BuildAppOptions.checkResponseSchemas`): every JSON answer is read back and checked against the
 * route's declared response schema; a mismatch is reported in a header that test/test-app.ts turns into a failure,
 * so every integration test checks the answers it receives.
 */
export function registerResponseSchemaCheck(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' || !String(reply.getHeader('content-type') ?? '').includes('application/json')) return payload;
    let json: unknown;
    try {
      json = JSON.parse(payload);
    } catch {
      return payload;
    }
    const problem = responseSchemaProblem(request.routeOptions.schema, reply.statusCode, json);
    if (problem) void reply.header(RESPONSE_SCHEMA_PROBLEM_HEADER, encodeURIComponent(problem.slice(0, 600)));
    return payload;
  });
}

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

/** Every operation may be refused: the catalogue's error body (contracts' ErrorBodySchema, a component). */
const ERROR_RESPONSE = { $ref: '#/components/schemas/ErrorBody' };

/** The API document's version: the desk's (root package.json). */
export const API_VERSION = '0.1.0';

/** Where the interactive reference is served (Swagger UI; its scripts load only there). */
export const API_REFERENCE_PREFIX = '/api/reference';

/**
 * `GET /api/docs`: the OpenAPI 3.1 document of every /api route, and `/api/reference`: the interactive reference.
 * Registered before the routes, so that each route is seen as it is added.
 */
export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'WA Desk API',
        version: API_VERSION,
        description:
          'Every route of the desk under /api. Errors are `{ error, message, issues? }` with the codes of the catalogue. ' +
          'See docs/api.md for examples.',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: '/', description: 'This desk (the API is served under /api on the same origin as the web app).' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'The access token of POST /api/auth/login.' },
          apiToken: { type: 'apiKey', in: 'header', name: 'Authorization', description: '`Bearer <userApiToken>`, or `token` in the JSON body.' },
        },
      },
    },
    transformObject: jsonSchemaTransformObject,
    transform: (input) => {
      const { url, route } = input;
      if (!url.startsWith('/api/') || url.startsWith(API_REFERENCE_PREFIX) || url === '/api/docs') {
        return { schema: { hide: true } as never, url };
      }
      const transformed = jsonSchemaTransform(input);
      const access = (route.config as { access?: RouteAccess } | undefined)?.access ?? 'user';
      const schema = (transformed.schema ?? {}) as Record<string, unknown> & { response?: Record<string, unknown>; description?: string };
      return {
        url: transformed.url,
        schema: {
          ...schema,
          description: [WHO[access], schema.description].filter(Boolean).join(' '),
          security: SECURITY[access],
          // JSON whatever the success's type (a CSV download's refusal is JSON too).
          response: {
            ...schema.response,
            '4xx': { description: 'Refused: `{ error: ERR_CODE, message, issues? }`', content: { 'application/json': { schema: ERROR_RESPONSE } } },
          },
        } as never,
      };
    },
  });
  app.get('/api/docs', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());
  await app.register(fastifySwaggerUi, {
    routePrefix: API_REFERENCE_PREFIX,
    // No validator badge: the page calls nothing outside the desk. Modules folded: 21 of them open at once render slowly.
    uiConfig: { deepLinking: true, docExpansion: 'none', tryItOutEnabled: false, validatorUrl: null, layout: 'BaseLayout' },
    staticCSP: false,
  });
}
