/**
 * The HTTP side of the machine's ceiling (issue 35 item 3): a plain `fastify()`, no plugins, answering one path with
 * bytes read from a file, as the desk answered them. It runs in its own process, as the desk does, so the load
 * generator does not share its event loop; bench/ceiling.ts starts it and reads its port from the first line it prints.
 *
 *   npx tsx bench/lib/bare-fastify.ts <path> <content-type> <body file>
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const [route, contentType, bodyFile] = process.argv.slice(2);
if (!route || !contentType || !bodyFile) throw new Error('usage: bare-fastify.ts <path> <content-type> <body file>');
const body = readFileSync(bodyFile);
const app = Fastify();
app.get(route, async (_request, reply) => {
  reply.type(contentType);
  return body;
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
console.log(typeof address === 'object' && address ? address.port : address);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void app.close().then(() => process.exit(0)));
