import {
  CONTACT_CSV_IMPORT_MAX_BYTES,
  ContactCsvImportQuery,
  ContactInput,
  ContactListQuery,
  ContactUpdateInput,
  ContactWithoutExtraInfoInput,
  idField,
} from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../http/auth-hook.js';
import { parse } from '../../http/validate.js';
import { readCsvUpload } from './contacts-csv-upload.js';
import type { ContactsService } from './contacts.service.js';

const IdParams = z.object({ id: idField });
/** The contacts' import and export are tools of attendantTools (issue 32): admins, and attendants while it lists them. */
const importTool = { config: { tool: 'contactsImport' as const } };
const exportTool = { config: { tool: 'contactsExport' as const } };
const IMPORT_CSV_PATH = '/api/contacts/import/csv';

export function contactsRoutes(app: FastifyInstance, contacts: ContactsService): void {
  app.get('/api/contacts', async (request) => {
    const query = parse(ContactListQuery, request.query);
    return contacts.list(query.searchParam, query.pageNumber);
  });

  // Registered before /:id; ids are digits, so the paths never collide anyway.
  // Every contact at once (decision 0006): the tool contactsExport.
  app.get('/api/contacts/export.csv', exportTool, async (_request, reply) => {
    const csv = await contacts.exportCsv();
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="contacts.csv"')
      .header('cache-control', 'no-store')
      .send(csv);
  });

  app.get('/api/contacts/:id', async (request) => {
    const { id } = parse(IdParams, request.params);
    return contacts.get(id);
  });

  app.post('/api/contacts', async (request, reply) => {
    const contact = await contacts.create(parse(ContactInput, request.body));
    return reply.status(201).send(contact);
  });

  app.post('/api/contact', async (request, reply) => {
    const contact = await contacts.create({ ...parse(ContactWithoutExtraInfoInput, request.body), extraInfo: [] });
    return reply.status(201).send(contact);
  });

  app.post('/api/contacts/import', importTool, async () => contacts.importFromDevice());

  // A CSV file as a multipart upload (field `file`) or as the body itself (text/csv); ?dryRun=1 only previews.
  // The text/csv parser serves this route only: elsewhere that type stays unsupported.
  app.addContentTypeParser('text/csv', { parseAs: 'buffer', bodyLimit: CONTACT_CSV_IMPORT_MAX_BYTES }, (request, body, done) => {
    if (request.routeOptions.url === IMPORT_CSV_PATH) done(null, body);
    else done(Object.assign(new Error(`Unsupported Media Type: text/csv`), { statusCode: 415 }), undefined);
  });
  app.post(IMPORT_CSV_PATH, { ...importTool, bodyLimit: CONTACT_CSV_IMPORT_MAX_BYTES }, async (request) => {
    const { dryRun } = parse(ContactCsvImportQuery, request.query);
    return contacts.importCsv(await readCsvUpload(request), dryRun);
  });

  app.put('/api/contacts/:id', async (request) => {
    const { id } = parse(IdParams, request.params);
    return contacts.update(currentUser(request), id, parse(ContactUpdateInput, request.body));
  });

  // The rule contacts-page:deleteContact is checked in the service.
  app.delete('/api/contacts/:id', async (request) => {
    const { id } = parse(IdParams, request.params);
    await contacts.delete(currentUser(request), id);
    return { message: 'Contact deleted' };
  });
}
