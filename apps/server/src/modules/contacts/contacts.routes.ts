import {
  CONTACT_CSV_IMPORT_MAX_BYTES,
  ContactCsvImportQuery,
  ContactCsvImportResponse,
  ContactDto,
  ContactImportResponse,
  ContactInput,
  ContactListQuery,
  ContactListResponse,
  ContactUpdateInput,
  ContactWithoutExtraInfoInput,
  IdParams,
  MessageAnswer,
} from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/auth-hook.js';
import { fileField, multipartBody } from '../../http/route-schemas.js';
import { readCsvUpload } from './contacts-csv-upload.js';
import type { ContactsService } from './contacts.service.js';

/** The contacts' import and export are tools of attendantTools (issue 32): admins, and attendants while it lists them. */
const importTool = { tool: 'contactsImport' as const };
const exportTool = { tool: 'contactsExport' as const };
const IMPORT_CSV_PATH = '/api/contacts/import/csv';
const tags = ['Contacts'];

/** The CSV of an import: a multipart part `file`, or the body itself as text/csv (the handler reads either). */
const CsvUpload = multipartBody(
  z.object({ file: fileField }).meta({
    description: `A CSV file (a header line with name and number, optionally email and extra columns), at most ${CONTACT_CSV_IMPORT_MAX_BYTES} bytes: in the part \`file\` of a multipart/form-data body, or as the whole body with Content-Type text/csv.`,
  }),
);

export function contactsRoutes(http: FastifyInstance, contacts: ContactsService): void {
  const app = http.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/contacts',
    {
      schema: {
        operationId: 'listContacts',
        summary: 'List contacts, 20 a page, found by name or number',
        tags,
        querystring: ContactListQuery,
        response: { 200: ContactListResponse },
      },
    },
    async (request) => contacts.list(request.query.searchParam, request.query.pageNumber),
  );

  // Registered before /:id; ids are digits, so the paths never collide anyway.
  // Every contact at once (decision 0006): the tool contactsExport.
  app.get(
    '/api/contacts/export.csv',
    {
      config: exportTool,
      schema: {
        operationId: 'exportContactsCsv',
        summary: 'Every contact as a CSV file (name, number, email, extra info)',
        tags,
        response: { 200: { description: 'contacts.csv, UTF-8', content: { 'text/csv': { schema: z.string() } } } },
      },
    },
    async (_request, reply) => {
      const csv = await contacts.exportCsv();
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="contacts.csv"')
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );

  app.get(
    '/api/contacts/:id',
    { schema: { operationId: 'getContact', summary: 'One contact with its extra info', tags, params: IdParams, response: { 200: ContactDto } } },
    async (request) => contacts.get(request.params.id),
  );

  app.post(
    '/api/contacts',
    { schema: { operationId: 'createContact', summary: 'Create a contact', tags, body: ContactInput, response: { 201: ContactDto } } },
    async (request, reply) => reply.status(201).send(await contacts.create(request.body)),
  );

  app.post(
    '/api/contact',
    {
      schema: {
        operationId: 'createContactWithoutExtraInfo',
        summary: 'Create a contact without extra info (whaticket API; extra info sent is ignored)',
        tags,
        body: ContactWithoutExtraInfoInput,
        response: { 201: ContactDto },
      },
    },
    async (request, reply) => reply.status(201).send(await contacts.create({ ...request.body, extraInfo: [] })),
  );

  app.post(
    '/api/contacts/import',
    {
      config: importTool,
      schema: { operationId: 'importContactsFromDevice', summary: "Import the contacts of the default connection's phone", tags, response: { 200: ContactImportResponse } },
    },
    async () => contacts.importFromDevice(),
  );

  // A CSV file as a multipart upload (field `file`) or as the body itself (text/csv); ?dryRun=1 only previews.
  // The text/csv parser serves this route only: elsewhere that type stays unsupported.
  app.addContentTypeParser('text/csv', { parseAs: 'buffer', bodyLimit: CONTACT_CSV_IMPORT_MAX_BYTES }, (request, body, done) => {
    if (request.routeOptions.url === IMPORT_CSV_PATH) done(null, body);
    else done(Object.assign(new Error(`Unsupported Media Type: text/csv`), { statusCode: 415 }), undefined);
  });
  app.post(
    IMPORT_CSV_PATH,
    {
      config: importTool,
      bodyLimit: CONTACT_CSV_IMPORT_MAX_BYTES,
      schema: {
        operationId: 'importContactsCsv',
        summary: 'Import contacts from a CSV file; with dryRun=1 only check it and preview every line',
        tags,
        consumes: ['multipart/form-data', 'text/csv'],
        querystring: ContactCsvImportQuery,
        body: CsvUpload,
        response: { 200: ContactCsvImportResponse },
      },
    },
    async (request) => contacts.importCsv(await readCsvUpload(request), request.query.dryRun),
  );

  app.put(
    '/api/contacts/:id',
    {
      schema: {
        operationId: 'updateContact',
        summary: 'Change a contact; extraInfo, when given, replaces the list',
        tags,
        params: IdParams,
        body: ContactUpdateInput,
        response: { 200: ContactDto },
      },
    },
    async (request) => contacts.update(currentUser(request), request.params.id, request.body),
  );

  // The rule contacts-page:deleteContact is checked in the service.
  app.delete(
    '/api/contacts/:id',
    { schema: { operationId: 'deleteContact', summary: 'Delete a contact and its tickets', tags, params: IdParams, response: { 200: MessageAnswer } } },
    async (request) => {
      await contacts.delete(currentUser(request), request.params.id);
      return { message: 'Contact deleted' };
    },
  );
}
