import {
  BulkMediaFolderDto,
  CampaignCreatedResponse,
  CampaignDto,
  CampaignInput,
  CampaignListQuery,
  CampaignListResponse,
  CampaignRecipientListQuery,
  CampaignRecipientListResponse,
  IdParams,
} from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/auth-hook.js';
import type { CampaignsService } from './campaigns.service.js';

const tags = ['Bulk sends'];
/** Every route of bulk sends belongs to the tool `bulk` (attendantTools, issue 32). */
const config = { tool: 'bulk' as const };

/** Bulk sends: any signed-in user starts one; each sees their own, admins every one (CampaignsService). */
export function campaignsRoutes(http: FastifyInstance, campaigns: CampaignsService): void {
  const app = http.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/campaigns',
    {
      config,
      schema: {
        operationId: 'createCampaign',
        summary: 'Start a bulk send',
        description: 'The numbers one a line; invalid lines are answered and left out.',
        tags,
        body: CampaignInput,
        response: { 201: CampaignCreatedResponse },
      },
    },
    async (request, reply) => reply.status(201).send(await campaigns.create(currentUser(request), request.body)),
  );

  app.get(
    '/api/campaigns',
    {
      config,
      schema: {
        operationId: 'listCampaigns',
        summary: 'Bulk sends, newest first, 20 a page',
        tags,
        querystring: CampaignListQuery,
        response: { 200: CampaignListResponse },
      },
    },
    async (request) => campaigns.list(currentUser(request), request.query.pageNumber),
  );

  /** Where /ZDGMedia2's files must be (the setting bulkMediaFolder, or DATA_DIR/bulk-media): a label; the path for admins. */
  app.get(
    '/api/campaigns/media-folder',
    {
      config,
      schema: {
        operationId: 'getBulkMediaFolder',
        summary: "Where the media-path bulk send's files must be, and its files",
        description: 'A label for attendants; the absolute path for admins.',
        tags,
        response: { 200: BulkMediaFolderDto },
      },
    },
    async (request) => campaigns.mediaFolder(currentUser(request)),
  );

  app.get(
    '/api/campaigns/:id',
    { config, schema: { operationId: 'getCampaign', summary: 'One bulk send with its counts', tags, params: IdParams, response: { 200: CampaignDto } } },
    async (request) => campaigns.get(currentUser(request), request.params.id),
  );

  app.get(
    '/api/campaigns/:id/recipients',
    {
      config,
      schema: {
        operationId: 'listCampaignRecipients',
        summary: "A bulk send's recipients with their outcome, 20 a page",
        tags,
        params: IdParams,
        querystring: CampaignRecipientListQuery,
        response: { 200: CampaignRecipientListResponse },
      },
    },
    async (request) => campaigns.recipients(currentUser(request), request.params.id, request.query.pageNumber),
  );

  app.get(
    '/api/campaigns/:id/recipients.csv',
    {
      config,
      schema: {
        operationId: 'exportCampaignRecipients',
        summary: "A bulk send's recipients with their outcome, as CSV",
        tags,
        params: IdParams,
        produces: ['text/csv'],
        response: { 200: z.string().meta({ description: 'The recipients as CSV (text/csv, an attachment named campaign-{id}.csv).' }) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const csv = await campaigns.recipientsCsv(currentUser(request), id);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="campaign-${id}.csv"`)
        .send(csv);
    },
  );

  for (const [action, summary] of [
    ['pause', 'Pause a bulk send'],
    ['resume', 'Resume a paused bulk send'],
    ['cancel', 'Cancel a bulk send: the recipients not sent yet are not sent'],
  ] as const) {
    app.post(
      `/api/campaigns/:id/${action}`,
      { config, schema: { operationId: `${action}Campaign`, summary, tags, params: IdParams, response: { 200: CampaignDto } } },
      async (request) => campaigns[action](currentUser(request), request.params.id),
    );
  }
}
